#!/bin/bash
# schedrig bisect where points do not vary (fake spread_pct 0): Welch's t is
# undefined where neither side varies; the values decide (equal: not
# different, p 1; different: p 0), and a difference below the minimum
# effect (1 %) is no change even at p 0. bisect_check.py recomputes every
# p-value, verdict and check under that rule.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

# 1. Good end 1000 and p1 1005 constant, bad end 2000 ± 5 %: p1 differs from
# the good end at p 0 (t infinite), by 0.5 %: no change; it is good.
series zv 1000:0 1005:0 2000:5
out=$("$SCHEDRIG" bisect zv.yaml --good p0 --bad p2 --db "$DB" 2>&1) ||
	fail "bisect exited $?: $out"
assert_contains "$out" "point 1 p1: good (n 3, 1005 ± 0, p vs good 0, vs bad" \
	"p1 is like the good end; mean and CI with the same decimals"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = 1")" \
	"First bad point: p2 (confirmed: p1 -> p2 +" "the move is at p2"
assert_contains "$out" "where neither side varies t is undefined: equal values p = 1, different p = 0" \
	"the rule says how"
assert_eq "$(q "$DB" "SELECT p_good FROM bisect_point WHERE bisection_id = 1 AND k = 1")" 0.0 \
	"p vs the good end: both constant, different"
assert_eq "$(q "$DB" "SELECT p || ' ' || outcome FROM bisect_check WHERE bisection_id = 1 AND what = 'last good'")" \
	"0.0 same" "the confirm: p1 again like the good end, p 0 below the minimum effect"
check "$DB" 1

# 2. Nothing varies anywhere: p2 (0.4 % above the good end) is good, p3
# (0.17 % below the bad end) bad; the move is at p3.
series flat 1000:0 1002:0 1004:0 1200:0 1202:0
out=$("$SCHEDRIG" bisect flat.yaml --good p0 --bad p4 --db "$DB" 2>&1) ||
	fail "bisect of constant points exited $?: $out"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = 2")" \
	"First bad point: p3 (confirmed: p2 -> p3 +19.5 %, Welch's t-test p = 0" "the move is at p3"
assert_eq "$(measured "$DB" 2)" "0 4 2 3" "points measured"
assert_eq "$(q "$DB" "SELECT group_concat(outcome, ' ') FROM (SELECT * FROM bisect_check WHERE bisection_id = 2 ORDER BY seq)")" \
	"step held held same same" "the checks: constant ends held (p 1)"
check "$DB" 2
