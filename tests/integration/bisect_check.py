"""Check a bisection in a results database against numbers computed here,
independently of schedrig: each measured point's samples are the draws of
the fake load's seeded sequence (its LCG, loads/fake.c), the stored p-values
are Welch's t-test on them (t distribution through the regularized
incomplete beta function, Numerical Recipes' continued fraction; where
neither side varies, t is undefined and the values decide: equal p = 1,
different p = 0), and each verdict follows the rule the output states
(nearer end by |t|, or by the distance of the means where a t is infinite).

usage: bisect_check.py DB BISECTION MEAN:SPREAD_PCT:SEED ...  (one per point)
A point given as "-" is not checked against the sequence (a failing one).
The fake load takes a draw only after its sleep and prints every draw it
takes, so a load stopped while it sleeps uses none; an iteration cut short
after its load printed (the interrupt reached the rig between the load's
exit and the iteration's commit) used one and stored nothing: up to 3
draws may be missing from a point's samples, never repeated or reordered.
"""
import math
import sqlite3
import sys

MASK = (1 << 64) - 1


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


def nearer(tg, tb, point, good, bad):
    """-1 nearer the good end, 1 the bad end, 0 neither: by |t|, or where
    a t is infinite by the distance of the means (the fake load's metric is
    lower-is-better: Amean)."""
    if math.isinf(tg) or math.isinf(tb):
        m = sum(point) / len(point)
        tg, tb = m - sum(good) / len(good), m - sum(bad) / len(bad)
    tg, tb = abs(tg), abs(tb)
    return -1 if tg < tb else 1 if tb < tg else 0


def close(got, want, what):
    if got is None or abs(got - want) > 1e-6 * max(1.0, abs(want)):
        sys.exit("%s: stored %r, computed here %r" % (what, got, want))


def main():
    db, bid, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    con = sqlite3.connect(db)
    alpha, = con.execute("SELECT alpha FROM bisection WHERE id = ?", (bid,)).fetchone()
    rows = con.execute("SELECT k, name, verdict, n, p_good, p_bad, reason FROM bisect_point"
                       " WHERE bisection_id = ? ORDER BY k", (bid,)).fetchall()
    if len(rows) != len(specs):
        sys.exit("%d points stored, %d given" % (len(rows), len(specs)))
    samples = {}
    for k, name, verdict, n, _, _, _ in rows:
        if verdict is None or specs[k] == "-":
            continue
        vals = [r[0] for r in con.execute(
            "SELECT s.value FROM sample s JOIN load_instance li ON li.id = s.load_instance_id"
            " JOIN iteration i ON i.id = li.iteration_id AND i.status = 'complete'"
            " JOIN variant v ON v.id = i.variant_id JOIN bisect_run b ON b.run_id = v.run_id"
            " WHERE b.bisection_id = ? AND b.k = ? AND s.metric = 'value'"
            " ORDER BY b.attempt, i.iteration", (bid, k))]
        mean, spread, seed = (int(x) for x in specs[k].split(":"))
        # Draw j feeds the j-th start of the load; an iteration cut short
        # by an interrupt used one draw and stored nothing: the samples are
        # the draws in order, with at most 3 left out.
        j = 0
        for i, got in enumerate(vals):
            while j < i + 3 and abs(got - round(mean * (1 + spread / 100.0 * draw(seed, j)), 6)) > 1e-6:
                j += 1
            close(got, round(mean * (1 + spread / 100.0 * draw(seed, j)), 6),
                  "point %d sample %d" % (k, i))
            j += 1
        if verdict != "skip" and len(vals) != n:
            sys.exit("point %d: n %d stored, %d samples" % (k, n, len(vals)))
        samples[k] = vals
    last = len(rows) - 1
    good, bad = samples[0], samples[last]
    for k, name, verdict, n, p_good, p_bad, reason in rows:
        if k not in samples:
            continue
        if k == 0:
            close(p_bad, welch(good, bad)[1], "good end p vs bad")
            continue
        if k == last:
            close(p_good, welch(good, bad)[1], "bad end p vs good")
            continue
        tg, pg = welch(good, samples[k])
        tb, pb = welch(bad, samples[k])
        if verdict == "skip" and reason and reason.startswith("ambiguous"):
            close(p_good, pg, "point %d p vs good" % k)
            close(p_bad, pb, "point %d p vs bad" % k)
        if verdict == "skip":
            continue
        close(p_good, pg, "point %d p vs good" % k)
        close(p_bad, pb, "point %d p vs bad" % k)
        side = nearer(tg, tb, samples[k], good, bad)
        want = ("bad" if pg < alpha and side > 0 else
                "good" if pb < alpha and side < 0 else "skip")
        if want != verdict:
            sys.exit("point %d: verdict %s, the rule says %s" % (k, verdict, want))
    print("ok")


if __name__ == "__main__":
    main()
