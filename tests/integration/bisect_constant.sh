#!/bin/bash
# schedrig bisect where points do not vary (fake spread_pct 0): Welch's t is
# undefined where neither side varies; the values decide (equal: not
# different, p 1; different: p 0), and where a t is infinite the nearer end
# is the one whose mean is nearer. bisect_check.py recomputes every
# p-value and verdict under that rule.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

# 1. Good end 100 and p1 101 constant, bad end 200 ± 5 %: p1 differs from
# both (p 0 against the good end, t infinite) but sits next to the good end.
series zv 100:0 101:0 200:5
out=$("$SCHEDRIG" bisect zv.yaml --good p0 --bad p2 --db "$DB" 2>&1) ||
	fail "bisect exited $?: $out"
assert_contains "$out" "point 1 p1: good (n 3, 101.0 ± 0.0, p vs good 0, vs bad" \
	"p1 is next to the good end; mean and CI with the same decimals"
assert_contains "$out" "First bad point: p2 (k 2 of 2)" "the move is at p2"
assert_contains "$out" "where a t is infinite the mean nearer that end's" "the rule says how"
assert_eq "$(q "$DB" "SELECT p_good FROM bisect_point WHERE bisection_id = 1 AND k = 1")" 0.0 \
	"p vs the good end: both constant, different"
check "$DB" 1

# 2. Nothing varies anywhere: every t against a different end is infinite,
# the means decide; the move is at p3.
series flat 100:0 101:0 102:0 120:0 121:0
out=$("$SCHEDRIG" bisect flat.yaml --good p0 --bad p4 --db "$DB" 2>&1) ||
	fail "bisect of constant points exited $?: $out"
assert_contains "$out" "First bad point: p3 (k 3 of 4)" "the move is at p3"
assert_eq "$(measured "$DB" 2)" "0 4 2 3" "points measured"
check "$DB" 2
