#!/usr/bin/env python3
"""Every number of an mmtests-style table recomputed from the samples it
summarises with Python's statistics module, independently of schedrig:
printed values must be the recomputed ones rounded to their decimals (an
undefined statistic as compare-mmtests.pl prints it: 0 with 0.00%, CoeffVar
0 where its mean or spread is undefined); stars must be where Welch's test
(p from the regularised incomplete beta) or mmtests' CI-overlap rule puts
them. The rules were checked against tables printed by mmtests itself
(golden_numbers.sh runs this on tests/data/mmtests/).

usage: mmtests_numbers.py titled TABLES CSV    schedrig's titled tables
       mmtests_numbers.py plain TABLE CSV [wide]   one untitled table,
                                             columns in CSV order
       mmtests_numbers.py summary SUMMARY CSV BASELINE   compare --format csv
Prints how many numbers it checked; exits non-zero on the first that
disagrees."""
import csv, math, re, statistics, sys

checked = 0

def samples(path):
    return list(csv.DictReader(open(path)))

def group(rows, **want):
    out = [float(r["value"]) for r in rows if all(r[k] == v for k, v in want.items())]
    return [v for v in out if not math.isnan(v)]

def best(x, better, k):
    s = sorted(x, reverse=(better == "higher"))
    m = max(1, len(s) * k // 100)
    return s[:m]

def stat(name, x, better):
    """mmtests' statistic called name over x, None where undefined."""
    n = len(x)
    if not n:
        return None
    k = re.match(r"B([AH])mean[-.](\d+)$", name)
    if k:
        b = best(x, better, int(k.group(2)))
        return statistics.mean(b) if k.group(1) == "A" else statistics.harmonic_mean(b)
    if name == "Min":
        return min(x)
    if name == "Max":
        return max(x)
    if name == "Amean":
        return statistics.mean(x)
    if name == "Gmean":
        return statistics.geometric_mean(x)
    if name == "Median":
        return statistics.median(x)
    if name == "Hmean":
        return statistics.harmonic_mean(x) if min(x) > 0 else None
    if n < 2:
        return None
    if name == "Stddev":
        return statistics.stdev(x)
    if name == "CoeffVar":
        m = statistics.mean(x)
        return statistics.stdev(x) * 100 / m if m else None
    if name == "SEM":
        return statistics.stdev(x) / math.sqrt(n)
    if name in ("HStddev", "HCoeffVar"):
        if min(x) <= 0:
            return None
        h = statistics.harmonic_mean(x)
        hs = h * h * statistics.pstdev([1 / v for v in x])
        return hs if name == "HStddev" else hs * 100 / h
    raise KeyError(name)

SPREADS = ("Stddev", "CoeffVar", "HStddev", "HCoeffVar", "SEM")

def pct(name, base, v, better):
    """mmtests Stat.pm pdiff / pndiff; NaN where either is undefined."""
    if base is None or v is None:
        return math.nan
    if name in SPREADS or better == "lower":
        if v == base:
            return 0.0
        if v == 0:
            return 100.0
        if base == 0:
            return -99.0
        return 100 - v * 100 / base
    if v == base or v == 0:
        return 0.0
    if base == 0:
        return 100.0
    return v * 100 / base - 100

def shown(name, x, better):
    """What compare-mmtests.pl has for statistic name of x: None where it
    has no number ("NaN", a missing op), but 0 for a CoeffVar of samples
    whose mean or spread is undefined (Stat.pm calc_coeffvar)."""
    v = stat(name, x, better)
    if v is None and x and name in ("CoeffVar", "HCoeffVar"):
        return 0.0
    return v

def shown_pct(name, base, v, better):
    """The change compare-mmtests.pl prints: 0 for an undefined v; against
    an undefined baseline what Perl makes of pdiff(v, "NaN") (100, or 0 for
    a 0) and pndiff(v, "NaN") (NaN, or 100 for a 0)."""
    if v is None:
        return 0.0
    if base is None:
        if name in SPREADS or better == "lower":
            return 100.0 if v == 0 else math.nan
        return 0.0 if v == 0 else 100.0
    return pct(name, base, v, better)

def betacf(a, b, x):
    """Continued fraction of the incomplete beta (Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h

def ibeta(a, b, x):
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) +
                     a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b

def welch_p(a, b, better):
    if better == "higher":
        a, b = [1 / v for v in a], [1 / v for v in b]
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0:
        return None
    t = (statistics.mean(b) - statistics.mean(a)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    return ibeta(df / 2, 0.5, df / (df + t * t))

def ci_star(a, b, better, alpha=0.05):
    """mmtests Compare.pm: mean +- q, q = z*sd as R prints it (7 digits)."""
    mean = "Hmean" if better == "higher" else "Amean"
    spread = "HStddev" if better == "higher" else "Stddev"
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    ma, mb = stat(mean, a, better), stat(mean, b, better)
    qa, qb = (float("%.6e" % (z * stat(spread, x, better))) for x in (a, b))
    lo_a, hi_a, lo_b, hi_b = ma - qa, ma + qa, mb - qb, mb + qb
    cisum = (hi_a - ma + mb - lo_b) if ma < mb else (ma - lo_a + hi_b - mb)
    ratio = (ma - mb) if cisum == 0 else (ma - mb) / cisum
    return abs(ratio) > 1

def close(printed, want, decimals):
    """printed is want rounded; an undefined want prints 0, a NaN "NaN"."""
    if want is None:
        return printed != "NaN" and float(printed) == 0
    if isinstance(want, float) and math.isnan(want):
        return printed == "NaN"
    return printed != "NaN" and abs(float(printed) - want) <= 0.5 * 10 ** -decimals + 1e-9 * max(1, abs(want))

ROW = re.compile(r"^(\S+) +(\S+)((?: +(?:NaN|-?\d+(?:\.\d+)?) [(*] *(?:NaN|-?\d+\.\d+)%[)*])+)$")
CELL = re.compile(r"(NaN|-?\d+(?:\.\d+)?) ([(*]) *(NaN|-?\d+\.\d+)%[)*]")
TITLE = re.compile(r"^(\S+) (\S+) \((.*), (lower|higher) is better\)((?:, (?:cell|run|variant) \S+)*)$")

def check_table(lines, rows, cols, fixed, better, rule, metric=None):
    """Every row of one mmtests table against the samples."""
    global checked
    for line in lines:
        m = ROW.match(line)
        if not m:
            continue
        name, op = m.group(1), m.group(2)
        if metric and op.startswith(metric):
            op = op[len(metric):].lstrip("-")
        cells = CELL.findall(m.group(3))
        assert len(cells) == len(cols), (line, cols)
        x = [group(rows, op=op, **fixed, **{c[0]: c[1]}) for c in cols]
        base = shown(name, x[0], better)
        for i, (v, mark, p) in enumerate(cells):
            decimals = len(v.split(".")[1]) if "." in v else 0
            want = shown(name, x[i], better)
            assert close(v, want, decimals), (line, i, v, want)
            assert close(p, shown_pct(name, base, want, better) if i else 0.0, 2), (line, i, p)
            is_mean = name == ("Hmean" if better == "higher" else "Amean")
            star = False
            if is_mean and i and len(x[0]) >= 2 and len(x[i]) >= 2:
                if rule == "ci-overlap":
                    star = ci_star(x[0], x[i], better)
                elif rule == "welch":
                    p_value = welch_p(x[0], x[i], better)
                    star = p_value is not None and p_value < 0.05
            assert (mark == "*") == star, (line, i, mark, star)
            checked += 1

def check_titled(path, csv_path):
    """Titled tables (title, header, rows, footer, n line), as schedrig
    compare prints them; blocks that are no table (the notes) are skipped."""
    rows = samples(csv_path)
    for block in open(path).read().split("\n\n"):
        lines = block.strip("\n").split("\n")
        t = TITLE.match(lines[0])
        if not t:
            assert not any(ROW.match(l) for l in lines), lines[0]
            continue
        load, metric, unit, better = t.groups()[:4]
        fixed = dict(part.split(" ", 1) for part in t.group(5).split(", ")[1:])
        n_line = [l for l in lines if l.startswith("n: ")][0]
        axis = ({"cell", "run", "variant"} - set(fixed)).pop()
        cols = [(axis, c.rsplit(" ", 1)[0]) for c in n_line[3:].split(", ")]
        sig = [l for l in lines if l.startswith("Significance")][0]
        rule = "ci-overlap" if "CI-overlap" in sig else "welch" if "Welch" in sig else None
        check_table(lines, rows, cols, dict(load=load, metric=metric, unit=unit, better=better, **fixed),
                    better, rule)

def check_plain(path, csv_path, wide):
    """A golden file printed by mmtests: one table, columns in CSV order."""
    rows = samples(csv_path)
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    metric = rows[0]["metric"]
    check_table(open(path).read().split("\n"), rows,
                [("variant", v) for v in variants], dict(metric=metric), rows[0]["better"],
                "ci-overlap", metric if wide else None)


def check_summary(path, csv_path, baseline):
    """The CSV summary holds every statistic at full precision: to 1e-9."""
    global checked
    rows = samples(csv_path)
    for r in csv.DictReader(open(path)):
        name = r["stat"]
        if name == "CI95":
            continue
        x = group(rows, variant=r["variant"], op=r["op"])
        want = stat(name, x, r["better"])
        got = float(r["value"])
        assert (want is None and math.isnan(got)) or abs(got - want) <= 1e-9 * max(1, abs(want)), (r, want)
        if r["p_value"]:
            base = group(rows, variant=baseline, op=r["op"])
            want_p = welch_p(base, x, r["better"])
            assert abs(float(r["p_value"]) - want_p) <= 1e-9, (r, want_p)
        checked += 1

def main():
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "titled":
        check_titled(*args)
    elif kind == "plain":
        check_plain(args[0], args[1], args[2:] == ["wide"])
    elif kind == "summary":
        check_summary(*args)
    else:
        sys.exit(__doc__)
    print(checked)

if __name__ == "__main__":
    main()
