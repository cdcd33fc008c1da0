"""Check a bisection in a results database against numbers computed here,
independently of schedrig.

The samples: each point's are the draws of the fake load's seeded sequence
(its LCG, loads/fake.c), in the order of the point's attempts (the walk's,
then the confirm's rounds: one state file per point, so the draws go on).

The rule (README, docs/bisect.md), computed here from those samples:
 - the tests: Welch's t-test (t distribution through the regularized
   incomplete beta function, Numerical Recipes' continued fraction; where
   neither side varies the values decide: equal p = 1, different p = 0),
   Mann-Whitney U (exact p by counting the orders of the ranks when there
   are no ties and n < 50, else the tie-corrected normal approximation with
   continuity correction), range separation (every order of the pooled
   labels counted);
 - "differs": p < alpha and |(mean_b - mean_a) / mean_a| >= the minimum
   effect; a point: between when it differs from both ends, bad from the
   good end only (toward the bad end), good from the bad end only;
 - alpha: the family-wise alpha over ceil(log2 N) + 2 planned decisions
   and a reserve, share = alpha / (D + 1), the j-th inner point beyond the
   plan share / 2^j; each look of a decision tests at f(n/max) - f(prev/max),
   f(t) = 2 - 2 Phi(z(1 - share/2) / sqrt(t)) (O'Brien-Fleming type; Phi
   from Python's statistics.NormalDist), looks at min, min + ceil((max -
   min)/2), max iterations, fewer where max - min < 2 (no two at one
   count), (the confirm's at 5 (or min) .. max rounds);
 - the ends differ at their first look where they do (else "No regression
   to bisect"); an inner point's verdict is the one at its last look, every
   look before ambiguous; the confirm: last good vs first bad at its looks
   until it steps; the drift guard: each end's confirm rounds against its
   walk samples, moved when p < share; last good / first bad against their
   ends' rounds; the result names a point only when the confirm stepped,
   no end moved, both points are like their ends, no point was between and
   no point of a range stayed ambiguous.

usage: bisect_check.py DB BISECTION MEAN:SPREAD_PCT:SEED ...  (one per point)
A point given as "-" is not checked against the sequence (a failing one).
The fake load takes a draw only after its sleep and prints every draw it
takes, so a load stopped while it sleeps uses none; an iteration cut short
after its load printed (the interrupt reached the rig between the load's
exit and the iteration's commit) used one and stored nothing: up to 3
draws may be missing from a point's samples, never repeated or reordered.
"""
import itertools
import math
import re
import sqlite3
import sys
from statistics import NormalDist

MASK = (1 << 64) - 1
LOOKS = 3
CONFIRM_MIN = 5


def draw(seed, k):
    x = (seed * 2862933555777941757 + 3037000493) & MASK
    for _ in range(k + 1):
        x = (x * 6364136223846793005 + 1442695040888963407) & MASK
    return (x >> 11) / float(1 << 52) - 1.0


def betacf(a, b, x):
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / d
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 / (1.0 + aa * d)
        c = 1.0 + aa / c
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 / (1.0 + aa * d)
        c = 1.0 + aa / c
        de = d * c
        h *= de
        if abs(de - 1.0) < 1e-15:
            break
    return h


def betai(a, b, x):
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    bt = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                  + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return bt * betacf(a, b, x) / a
    return 1.0 - bt * betacf(b, a, 1 - x) / b


def welch(a, b):
    na, nb = len(a), len(b)
    if min(a) == max(a) and min(b) == max(b):
        # Neither side varies: t undefined, the values decide.
        if a[0] == b[0]:
            return 0.0, 1.0
        return math.copysign(math.inf, b[0] - a[0]), 0.0
    ma, mb = sum(a) / na, sum(b) / nb
    va = sum((x - ma) ** 2 for x in a) / (na - 1)
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1)
    se2 = va / na + vb / nb
    t = (mb - ma) / math.sqrt(se2)
    df = se2 ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return t, betai(df / 2, 0.5, df / (df + t * t))


def mann_whitney(a, b):
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks, i = {}, 0
    ties = 0.0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        ranks[pooled[i][0]] = (i + 1 + j) / 2.0
        t = j - i
        ties += t ** 3 - t
        i = j
    na, nb = len(a), len(b)
    u = sum(ranks[x] for x in b) - nb * (nb + 1) / 2.0
    if ties == 0 and na < 50 and nb < 50:
        # Every placement of b's ranks among the n_a + n_b: U counted.
        counts = {}
        for comb in itertools.combinations(range(na + nb), nb):
            uu = sum(comb) - nb * (nb - 1) / 2.0
            counts[uu] = counts.get(uu, 0) + 1
        total = sum(counts.values())
        lo = sum(c for uu, c in counts.items() if uu <= u) / total
        hi = sum(c for uu, c in counts.items() if uu >= u) / total
        return u, min(1.0, 2 * min(lo, hi))
    n = na + nb
    sigma = math.sqrt(na * nb / 12.0 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:
        return 0.0, 1.0
    d = u - na * nb / 2.0
    z = (d - math.copysign(0.5, d)) / sigma if abs(d) >= 0.5 else 0.0
    return z, 2 * (1 - NormalDist().cdf(abs(z)))


def margin(n):
    return min(n >> 5, 3)


def range_test(a, b):
    a, b = sorted(a), sorted(b)
    ma, mb = margin(len(a)), margin(len(b))
    ka, kb = a[ma:len(a) - ma], b[mb:len(b) - mb]
    sep = kb[0] > ka[-1] or ka[0] > kb[-1]
    if not sep:
        return math.nan, 1.0
    gap = kb[0] - ka[-1] if kb[0] > ka[-1] else -(ka[0] - kb[-1])
    # Every order of the labels: the share whose kept a's and b's separate.
    na, nb = len(a), len(b)
    hits = total = 0
    for pos in itertools.combinations(range(na + nb), na):
        pos_set = set(pos)
        apos = list(pos)
        bpos = [i for i in range(na + nb) if i not in pos_set]
        ka_, kb_ = apos[ma:na - ma], bpos[mb:nb - mb]
        hits += ka_[0] > kb_[-1] or kb_[0] > ka_[-1]
        total += 1
    return gap, hits / total


def test(rule, a, b):
    if rule == "welch":
        return welch(a, b)
    if rule == "mann-whitney":
        return mann_whitney(a, b)
    return range_test(a, b)


def mean(v):
    return sum(v) / len(v)


class Rule:
    def __init__(self, con, bid, n_points):
        alpha, rule, min_effect, text = con.execute(
            "SELECT alpha, rule, min_effect_pct, config_text FROM bisection WHERE id = ?",
            (bid,)).fetchone()
        self.alpha, self.rule, self.min_effect = alpha, rule, min_effect
        m = re.search(r"iterations:\s*\{min:\s*(\d+),\s*max:\s*(\d+)", text)
        if m:
            self.n_min, self.n_max = int(m.group(1)), int(m.group(2))
        else:
            self.n_min = self.n_max = int(re.search(r"iterations:\s*(\d+)", text).group(1))
        steps = 0
        while 2 ** steps < n_points - 1:
            steps += 1
        self.planned = steps + 2
        self.share = alpha / (self.planned + 1)

    def point_alpha(self, j):
        planned = self.planned - 2
        return self.share if j <= planned else self.share / 2 ** (j - planned)

    @staticmethod
    def spend(share, t):
        if t <= 0:
            return 0.0
        z = NormalDist().inv_cdf(1 - share / 2)
        return 2 * (1 - NormalDist().cdf(z / math.sqrt(min(t, 1.0))))

    def look_alpha(self, share, prev, now, last):
        if now <= prev:
            return 0.0
        return self.spend(share, now / last) - self.spend(share, prev / last)

    @staticmethod
    def looks(first, last):
        return 1 if last <= first else min(LOOKS, 1 + last - first)

    @staticmethod
    def target(first, last, look):
        looks = Rule.looks(first, last)
        if look <= 1:
            return first
        if look >= looks:
            return max(first, last)
        return first + -(-(last - first) * (look - 1) // (looks - 1))

    def next_look(self, look, n):
        for l in range(look + 1, self.looks(self.n_min, self.n_max) + 1):
            if self.target(self.n_min, self.n_max, l) > n:
                return l
        return 0

    def diff(self, alpha, a, b):
        stat, p = test(self.rule, a, b)
        effect = (mean(b) - mean(a)) / mean(a) * 100
        return {"p": p, "t": stat, "effect": effect, "alpha": alpha,
                "significant": p < alpha,
                "differs": p < alpha and abs(effect) >= self.min_effect}

    def classify(self, alpha, good, bad, point):
        vg, vb = self.diff(alpha, good, point), self.diff(alpha, bad, point)
        direction = mean(bad) - mean(good)
        if vg["differs"] and vb["differs"]:
            inside = vg["effect"] * direction > 0 and vb["effect"] * direction < 0
            v = "between" if inside else "beyond"
        elif vg["differs"] and vg["effect"] * direction > 0:
            v = "bad"
        elif vb["differs"] and vb["effect"] * direction < 0:
            v = "good"
        else:
            v = "skip"
        return v, vg, vb


def close(got, want, what):
    if isinstance(want, (bool, str, tuple)):
        if got != want:
            sys.exit("%s: stored %r, computed here %r" % (what, got, want))
        return
    if want is None or (isinstance(want, float) and math.isnan(want)):
        if got is not None:
            sys.exit("%s: stored %r, computed here none" % (what, got))
        return
    if got is None or abs(got - want) > 1e-6 * max(1.0, abs(want)):
        sys.exit("%s: stored %r, computed here %r" % (what, got, want))


def attempt_samples(con, bid, k, spec):
    """Point k's attempts in order: (attempt, phase, run_id, samples), the
    samples checked against the fake load's sequence."""
    rows = con.execute("SELECT attempt, ifnull(phase, 'walk'), run_id FROM bisect_run"
                       " WHERE bisection_id = ? AND k = ? ORDER BY attempt", (bid, k)).fetchall()
    out = []
    j = 0
    for attempt, phase, run_id in rows:
        vals = [r[0] for r in con.execute(
            "SELECT s.value FROM sample s JOIN load_instance li ON li.id = s.load_instance_id"
            " JOIN iteration i ON i.id = li.iteration_id AND i.status = 'complete'"
            " JOIN variant v ON v.id = i.variant_id WHERE v.run_id = ? AND s.metric = 'value'"
            " ORDER BY i.iteration", (run_id,))] if run_id else []
        if spec != "-":
            m, spread, seed = (int(x) for x in spec.split(":"))

            def want(n):
                return round(m * (1 + spread / 100.0 * draw(seed, n)), 6)
            for i, got in enumerate(vals):
                start = j
                while j < start + 3 and abs(got - want(j)) > 1e-6:
                    j += 1
                close(got, want(j), "point %d attempt %d sample %d" % (k, attempt, i))
                j += 1
        out.append((attempt, phase, run_id, vals))
    return out


def cumulative(attempts, phase):
    """The samples after each measurement of that phase (failed runs that
    measured nothing left out: the walk measured those again)."""
    out, acc = [], []
    for _, ph, _, vals in attempts:
        if ph != phase or not vals:
            continue
        acc = acc + vals
        out.append(list(acc))
    return out


def check_ends(rule, rows, walk, last):
    g, b = walk[0], walk[last]
    prev, look, d = 0, 1, None
    for i in range(min(len(g), len(b))):
        now = min(len(g[i]), len(b[i]))
        d = rule.diff(rule.look_alpha(rule.share, prev, now, rule.n_max), g[i], b[i])
        if d["differs"]:
            return d, look, i
        look = rule.next_look(look, now) or look
        prev = now
    return d, look, None


def check_point(rule, k, row, meas, good, bad, alpha_dec):
    prev, look = 0, 1
    for i, s in enumerate(meas):
        now = len(s)
        a = rule.look_alpha(alpha_dec, prev, now, rule.n_max)
        v, vg, vb = rule.classify(a, good, bad, s)
        last = i == len(meas) - 1
        if not last and v != "skip":
            sys.exit("point %d: decided %s at its look %d, yet measured again" % (k, v, look))
        if last:
            break
        look = rule.next_look(look, now)
        prev = now
    verdict, reason, n, p_good, p_bad, alpha, stored_look = row
    if v != verdict:
        sys.exit("point %d: verdict %s, the rule says %s (p vs good %g, vs bad %g, alpha %g)"
                 % (k, verdict, v, vg["p"], vb["p"], a))
    close(n, len(meas[-1]), "point %d n" % k)
    close(p_good, vg["p"], "point %d p vs good" % k)
    close(p_bad, vb["p"], "point %d p vs bad" % k)
    close(alpha, a, "point %d alpha" % k)
    close(stored_look, look, "point %d look" % k)
    return v


def main():
    db, bid, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    con = sqlite3.connect(db)
    rows = con.execute("SELECT k, verdict, reason, n, p_good, p_bad, alpha, look, decided_seq"
                       " FROM bisect_point WHERE bisection_id = ? ORDER BY k", (bid,)).fetchall()
    if len(rows) != len(specs):
        sys.exit("%d points stored, %d given" % (len(rows), len(specs)))
    last = len(rows) - 1
    rule = Rule(con, bid, len(rows))
    status, result = con.execute("SELECT status, result FROM bisection WHERE id = ?",
                                 (bid,)).fetchone()
    attempts = {k: attempt_samples(con, bid, k, specs[k]) for k in range(len(rows))}
    walk = {k: cumulative(a, "walk") for k, a in attempts.items()}
    confirm = {k: cumulative(a, "confirm") for k, a in attempts.items()}

    if not walk[0] or not walk[last]:
        if status in ("complete", "refused"):
            sys.exit("the bisection is %s, but an end has no samples" % status)
        print("ok")
        return
    d, look, at = check_ends(rule, rows, walk, last)
    if at is None:
        if status == "refused":
            if "p = %.4g" % d["p"] not in result:
                sys.exit("refused: the result %r does not name p = %.4g" % (result, d["p"]))
            print("ok")
            return
        sys.exit("the ends never differ, but the bisection is %s" % status)
    good, bad = walk[0][-1], walk[last][-1]
    for k, row, p in ((0, rows[0], rows[0][5]), (last, rows[last], rows[last][4])):
        close(row[1], "good" if k == 0 else "bad", "end %d verdict" % k)
        close(p, d["p"], "end %d p" % k)
        close(row[6], d["alpha"], "end %d alpha" % k)
        close(row[3], len(walk[k][-1]), "end %d n" % k)
    ends_effect = d["effect"]

    # Inner points in the order decided; a failed run's skip has no test.
    decided = sorted((r for r in rows[1:last] if r[1] is not None), key=lambda r: r[8])
    verdicts = {0: "good", last: "bad"}
    ambiguous = set()
    j = 0
    for r in decided:
        k = r[0]
        if not walk[k]:
            close(r[1], "skip", "point %d (no samples) verdict" % k)
            verdicts[k] = "skip"
            continue
        j += 1
        v = check_point(rule, k, (r[1], r[2], r[3], r[4], r[5], r[6], r[7]), walk[k],
                        good, bad, rule.point_alpha(j))
        verdicts[k] = v
        if v == "skip":
            ambiguous.add(k)

    checks = con.execute("SELECT what, k_a, k_b, n_a, n_b, p, alpha, rounds, outcome"
                         " FROM bisect_check WHERE bisection_id = ? ORDER BY seq",
                         (bid,)).fetchall()
    if status != "complete":
        print("ok")
        return
    # The window the walk leaves (bisect.h): the first point that is bad
    # or between, the last good one below it; the upper: the first bad.
    hi = next((k for k in range(len(rows)) if verdicts.get(k) in ("bad", "between", "beyond")), last)
    lo = max([k for k in range(hi) if verdicts.get(k) == "good"] or [0])
    gradual = "between" in verdicts.values() or "beyond" in verdicts.values()
    c_first = max(CONFIRM_MIN, rule.n_min)
    c_last = max(c_first, rule.n_max)
    by_what = {c[0]: c for c in checks}
    rounds = checks[0][7] if checks else 0
    for k in {0, last} | (set() if gradual else {lo, hi}):
        close(len(confirm[k][-1]) if confirm[k] else 0, rounds, "point %d confirm rounds" % k)
    conf = {k: confirm[k][rounds - 1] for k in confirm if len(confirm[k]) >= rounds > 0}
    stepped = False
    if not gradual:
        prev = 0
        for look in range(1, LOOKS + 1):
            r = rule.target(c_first, c_last, look)
            if r <= prev:
                continue
            if r > rounds:
                sys.exit("the confirm stopped at %d rounds before its look at %d" % (rounds, r))
            step = rule.diff(rule.look_alpha(rule.share, prev, r, c_last),
                             confirm[lo][r - 1], confirm[hi][r - 1])
            stepped = step["differs"] and step["effect"] * ends_effect > 0
            if stepped or r == rounds:
                break
            prev = r
        c = by_what["confirm"]
        close((c[1], c[2]), (lo, hi), "confirm points")
        close(c[5], step["p"], "confirm p")
        close(c[6], step["alpha"], "confirm alpha")
        close(c[8], "step" if stepped else "no step", "confirm outcome")
    moved = False
    for what, k in (("good end", 0), ("bad end", last)):
        dd = rule.diff(rule.share, walk[k][-1], conf[k])
        c = by_what[what]
        close(c[5], dd["p"], "%s p" % what)
        close(c[8], "moved" if dd["significant"] else "held", "%s outcome" % what)
        moved |= dd["significant"]
    unlike = False
    for what, e, k in (("last good", 0, lo), ("first bad", last, hi)):
        if gradual or e == k:
            continue
        dd = rule.diff(rule.share, conf[e], conf[k])
        c = by_what[what]
        close(c[5], dd["p"], "%s p" % what)
        close(c[8], "differs" if dd["differs"] else "same", "%s outcome" % what)
        unlike |= dd["differs"]
    in_range = any(k in ambiguous for k in range(lo + 1, hi))
    blamed = not gradual and stepped and not moved and not unlike and not in_range
    want = (("First bad point: %s (confirmed" if hi == lo + 1 else "The change is in a range")
            if blamed else "No single first bad point: ")
    name = con.execute("SELECT name FROM bisect_point WHERE bisection_id = ? AND k = ?",
                       (bid, hi)).fetchone()[0]
    if "%s" in want:
        want = want % name
    if not result.startswith(want):
        sys.exit("result %r: the rule says it starts %r" % (result, want))
    print("ok")


if __name__ == "__main__":
    main()
