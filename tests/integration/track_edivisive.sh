#!/bin/bash
# schedrig track's detector against an independent implementation:
# edivisive_check.py (E-divisive means summed directly in python from the
# paper and the rule changepoint.h states, the same splitmix64 stream) on
# fixed series, through schedrig track --values with the same seed,
# permutations and alpha and no minimum change: the same change points,
# the same Q to 1e-9 and the same p exactly, and the same candidate that
# stopped the search. The series (made here by python's own Mersenne
# Twister with fixed seeds, then written to files) are: one step, two
# steps, none, a step inside an outlier-heavy (Laplace) series, a slow
# drift and a short one. About 4 s of CPU (the python sums are O(n^4)).
source "$(dirname "$0")/lib.sh"
CHECK=$TESTS_DIR/integration/edivisive_check.py

python3 - "$WORK" <<'PY'
import math, random, sys
w = sys.argv[1]
def write(name, xs):
    open("%s/%s" % (w, name), "w").write("".join("%.6f\n" % x for x in xs))
r = random.Random(29)
write("step", [100 + r.gauss(0, 1) + (3 if i >= 14 else 0) for i in range(24)])
write("two", [100 + r.gauss(0, 1) + (4 if 8 <= i < 16 else 0) - (3 if i >= 16 else 0)
              for i in range(24)])
write("none", [100 + r.gauss(0, 1) for i in range(24)])
write("laplace", [50 + r.choice((-1, 1)) * r.expovariate(1.5) + (2 if i >= 12 else 0)
                  for i in range(24)])
write("drift", [100 + 0.2 * i + r.gauss(0, 0.5) for i in range(22)])
write("short", [1.0, 1.1, 0.9, 5.0, 5.2])
PY

compared=0
for series in step two none laplace drift short; do
	for seed_perms_alpha in "1 99 0.05" "12345 49 0.1"; do
		set -- $seed_perms_alpha
		want=$(python3 "$CHECK" "$WORK/$series" "$1" "$2" "$3" 2)
		"$SCHEDRIG" track --values "$WORK/$series" --seed "$1" --permutations "$2" \
			--alpha "$3" --min-change 0 --format json >"$WORK/got.json" ||
			fail "track --values $series"
		python3 - "$WORK/got.json" "$want" "$series $*" <<'PY' || fail "$series seed $1: differs"
import json, sys
doc, want, what = json.load(open(sys.argv[1])), sys.argv[2].split("\n"), sys.argv[3]
h = doc["histories"][0]
got = [(c["index"], c["q"], c["p"]) for c in h["change_points"]]
exp = [tuple(float(v) for v in l.split()) for l in want if not l.startswith("rejected")]
assert len(got) == len(exp), (what, got, exp)
for (gi, gq, gp), (ei, eq, ep) in zip(got, exp):
    assert gi == int(ei), (what, got, exp)
    assert abs(gq - eq) <= 1e-9 * max(1, abs(eq)), (what, gq, eq)
    assert gp == ep, (what, gp, ep)
print(what, "->", [g[0] for g in got])
PY
		compared=$((compared + 1))
	done
done
assert_eq "$compared" 12 "series x settings compared"
# The stopping candidate too, for one: python's "rejected" line is what the
# text report names.
want=$(python3 "$CHECK" "$WORK/none" 1 99 0.05 2 | sed -n 's/^rejected //p')
out=$("$SCHEDRIG" track --values "$WORK/none" --seed 1 --permutations 99 --alpha 0.05 \
	--min-change 0)
idx=${want%% *}
p=$(awk '{printf "%.3g", $3}' <<<"$want")
assert_contains "$out" "no change point: the likeliest, between line$idx and line$((idx + 1)), has p $p > alpha 0.05" \
	"the candidate that stopped the search"
