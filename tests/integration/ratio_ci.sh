#!/bin/bash
# bench/ratio_ci.c, the verdict of the overhead benchmarks (docs/performance.md):
# (1) its 95 % interval of the median is the order statistics an independent
# computation (Python, exact binomial tails with math.comb) picks, for every
# n from 6 to 60; (2) over 1000 samples of 30 skewed ratios (lognormal, known
# median 1.005) the interval holds the true median in at least 94 % of them
# (the rule's promise, >= 95 %, within sampling error) and the verdict says
# "<= 1.01 shown" in fewer than 5 % of samples whose true median is 1.02;
# (3) the verdict words at both ends; (4) the order turns over (ABBA for 2,
# each of 3 conditions first in 2 of 6 rounds) and bad input is refused.
source "$(dirname "$0")/lib.sh"
R=$BUILD/bench/ratio_ci
[ -x "$R" ] || fail "$R is not built (make check builds it)"
python3 - "$R" <<'PY' || fail "ratio_ci's intervals disagree with the independent computation"
import math, random, subprocess, sys
R = sys.argv[1]
def run(pairs, target="1.01"):
    text = "".join(f"1 {x!r}\n" for x in pairs)
    out = subprocess.run([R, "verdict", "t", target], input=text, capture_output=True, text=True, check=True)
    v = out.stdout.split("\t")[3]
    lo, hi = v[v.index("CI ") + 3:-2].split("-")
    return v, float(lo), float(hi)
def expect_ci(xs):
    n, s = len(xs), sorted(xs)
    k = max(k for k in range(0, n // 2 + 1)
            if sum(math.comb(n, i) for i in range(k)) / 2 ** n <= 0.025)
    return s[k - 1], s[n - k]
rng = random.Random(28)
for n in range(6, 61):
    xs = [round(rng.uniform(0.9, 1.1), 4) for _ in range(n)]
    _, lo, hi = run(xs)
    e = expect_ci(xs)
    assert (lo, hi) == e, (n, lo, hi, e)
def draw(mu):  # a skewed ratio: lognormal noise and an exponential tail
    return mu * math.exp(rng.gauss(0, 0.05) + rng.expovariate(20))
big = sorted(draw(1.0) for _ in range(200001))
med1 = big[100000]  # the median of draw(1.0), to 1e-3 or better
for mu, true_median in ((1.005 / med1, 1.005), (1.02 / med1, 1.02)):
    covered = shown = 0
    for _ in range(1000):
        v, lo, hi = run([draw(mu) for _ in range(30)])
        covered += lo <= true_median <= hi
        shown += v.startswith("<= 1.01 shown")
    if true_median < 1.01:
        assert covered >= 940, f"the interval held the true median in {covered} of 1000"
    else:
        assert shown < 50, f"'shown' for a true median of 1.02 in {shown} of 1000"
PY
v=$(for i in $(seq 30); do echo "1 0.98$i"; done | "$R" verdict low 1.01 2>/dev/null) ||
	fail "verdict exited $?"
[[ $v == *$'\t<= 1.01 shown (95% CI'* ]] || fail "a clearly lower ratio: $v"
v=$(for i in $(seq 30); do echo "2 2.1$i"; done | "$R" verdict high 1.01 2>/dev/null)
[[ $v == *$'\texceeded (95% CI'* ]] || fail "a clearly higher ratio: $v"
v=$(for i in $(seq 30); do echo "1 $((95 + i % 11))"e-2; done | "$R" verdict mid 1.01 2>/dev/null)
[[ $v == *$'\tnot resolved (95% CI'* ]] || fail "a wide spread across 1.01: $v"
[ "$("$R" order 1 2) $("$R" order 2 2) $("$R" order 3 2)" = "0 1 1 0 0 1" ] || fail "order 2 is not ABBA"
firsts=$(for r in $(seq 6); do "$R" order "$r" 3 | cut -d' ' -f1; done | sort | uniq -c | awk '{ print $1 }' | sort -u)
[ "$firsts" = 2 ] || fail "order 3: each condition first in 2 of 6 rounds, got counts $firsts"
if printf '1 2\n1 2\n' | "$R" verdict few 1.01 2>/dev/null; then fail "2 pairs gave a verdict"; fi
if printf '1 2\n0 2\n1 2\n1 2\n1 2\n1 2\n' | "$R" verdict zero 1.01 2>/dev/null; then fail "a zero base was taken"; fi
if printf '1 nan\n1 2\n1 2\n1 2\n1 2\n1 2\n' | "$R" verdict nan 1.01 2>/dev/null; then fail "NaN was taken"; fi
