#!/bin/bash
# Bisect verdicts that survive review (issue 26), end to end with the fake
# load: the issue's gradual drift (means 100..108 over p0..p8, spread 1 %)
# names no point but the span; a clean 3 % step is confirmed; an end that
# moves while the bisection runs (the fake's own draws: a seed whose first
# five draws are low and next five high) blames no patch; a step below
# --min-effect-pct is no regression; --rule mann-whitney and --rule range
# decide and state their test; a rule the config's iterations cannot decide
# by is refused before anything runs. Every sample, p-value, alpha, verdict
# and check re-derived by bisect_check.py.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/v.db

# 1. The issue's gradual drift: p2, p4, p6 differ from both ends; no point
# is named (exit 1), the span is.
series grad 100:1 101:1 102:1 103:1 104:1 105:1 106:1 107:1 108:1
rc=0
out=$("$SCHEDRIG" bisect grad.yaml --good p0 --bad p8 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "gradual drift: no patch named ($out)"
assert_eq "$(q "$DB" "SELECT result FROM bisection WHERE id = 1")" \
	"No single first bad point: gradual change over p1..p7 (between both ends: p2, p4, p6)" \
	"gradual drift: the span"
! grep -q '^First bad point' <<<"$out" || fail "gradual drift: a point was named: $out"
assert_contains "$out" "point 4 p4: between (n 5," "a point between both ends"
assert_eq "$(q "$DB" "SELECT group_concat(what || ' ' || outcome, ', ') FROM (SELECT * FROM bisect_check WHERE bisection_id = 1 ORDER BY seq)")" \
	"good end held, bad end held" "gradual drift: the drift guard measured the ends again"
check "$DB" 1
show=$("$SCHEDRIG" bisect --show 1 --db "$DB" 2>&1) || fail "--show of the gradual drift: $show"
assert_contains "$show" "Columns: p0 good end, p1 last like good, p7 first like bad, p8 bad end" \
	"--show: the span's ends as columns"

# 2. A clean step of 3 % (about 5 sigma of the fake's 1 % spread) at p5: confirmed.
series small 100:1 100:1 100:1 100:1 100:1 103:1 103:1 103:1 103:1
out=$("$SCHEDRIG" bisect small.yaml --good p0 --bad p8 --db "$DB" 2>&1) ||
	fail "a clean 3 % step exited $?: $out"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = 2")" \
	"First bad point: p5 (confirmed: p4 -> p5 +3.25 %, Welch's t-test p = 0.000117 (alpha 0.003852) over 5 + 5 fresh interleaved iterations; the ends held; k 5 of 8)" \
	"a clean step is confirmed"
check "$DB" 2

# 3. The same step below --min-effect-pct 5: no regression to bisect.
rm -f small-p*.state
rc=0
out=$("$SCHEDRIG" bisect small.yaml --good p0 --bad p8 --min-effect-pct 5 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "below the minimum effect: exit status ($out)"
assert_contains "$out" "less than the minimum effect 5 %" "below the minimum effect: said so"
assert_eq "$(q "$DB" "SELECT status || ' ' || min_effect_pct FROM bisection WHERE id = 3")" \
	"refused 5.0" "the minimum effect stored"
check "$DB" 3

# 4. The good end's fake draws (seed 238047: draws 0..4 below -0.24, 5..9
# above 0.61, computed here) put its walk samples near 93 and its confirm
# rounds near 108 (spread 10 %): it moved, and no patch is blamed although
# the confirm shows the step.
draws=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import bisect_check as b
d = [b.draw(238047, i) for i in range(10)]
print(max(d[:5]) < -0.2 and min(d[5:]) > 0.6)' "$TESTS_DIR/integration")
assert_eq "$draws" True "seed 238047 draws low, then high"
cat >moved.yaml <<YAML
name: moved
iterations: {min: 3, max: 6, ci_pct: 50}
warmup_s: 0
loads:
  - {name: f, tool: fake, params: {mean: 100, spread_pct: 1, seed: 1}}
bisect:
  points:
    - {name: p0, params: {f: {mean: 100, spread_pct: 10, seed: 238047, state_file: $WORK/moved-p0.state}}}
    - {name: p1, params: {f: {mean: 130, spread_pct: 1, seed: 11, state_file: $WORK/moved-p1.state}}}
YAML
rc=0
out=$("$SCHEDRIG" bisect moved.yaml --good p0 --bad p1 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "a moved end: no patch named ($out)"
assert_contains "$out" "good end p0 -> p0: moved (+16.4 %" "the drift guard"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = 4")" \
	"; the good end p0 moved while the bisection ran (+16.4 % from its first measurement, Welch's t-test p = 2.11e-05), so no patch is blamed" \
	"a moved end: said so"
SPECS=(100:10:238047 130:1:11)
check "$DB" 4

# 5. The other rules on a clean 20 % step: each decides, states its test,
# and needs more iterations (their smallest p at 3 vs 3 is 0.1).
for rule in mann-whitney range; do
	rm -f shift-p*.state
	series shift 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
	out=$("$SCHEDRIG" bisect shift.yaml --good p0 --bad p8 --rule "$rule" --db "$DB" 2>&1) ||
		fail "--rule $rule exited $?: $out"
	id=$(q "$DB" "SELECT max(id) FROM bisection")
	assert_eq "$(q "$DB" "SELECT rule FROM bisection WHERE id = $id")" "$rule" "--rule $rule stored"
	assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = $id")" \
		"First bad point: p5 (confirmed: p4 -> p5 +20.7 %" "--rule $rule: the step"
	check "$DB" "$id"
done
assert_contains "$out" "each point tested against both ends by range separation as lkp-tests bisects by" \
	"the range rule stated"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE rule = 'mann-whitney'")" \
	"Mann-Whitney U test p = 0.00216" "the Mann-Whitney p"

# 6. Refused before anything runs: a rule the iterations cannot decide by,
# and the rule's options where the bisection has its own.
sed 's/{min: 3, max: 6, ci_pct: 50}/4/' shift.yaml >four.yaml
rc=0
err=$("$SCHEDRIG" bisect four.yaml --good p0 --bad p8 --rule range --db "$WORK/u.db" 2>&1) || rc=$?
assert_eq "$rc" 2 "an infeasible rule: exit status ($err)"
assert_contains "$err" "--rule range: with at most 4 iterations a side its smallest p is 0.02857" \
	"an infeasible rule: why"
rc=0
err=$("$SCHEDRIG" bisect --resume 1 --rule range --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "--resume --rule: exit status"
assert_contains "$err" "--rule and --min-effect-pct are the bisection's own" "--resume --rule"
rc=0
err=$("$SCHEDRIG" bisect shift.yaml --good p0 --bad p8 --rule ttest --db "$WORK/u.db" 2>&1) || rc=$?
assert_eq "$rc" 2 "an unknown rule: exit status"
assert_contains "$err" "--rule is welch, mann-whitney or range, not 'ttest'" "an unknown rule"
help=$("$SCHEDRIG" bisect --help)
assert_contains "$help" "--min-effect-pct P  a difference below P % of the mean is no change" \
	"--help: the minimum effect"
assert_contains "$help" "(default: 10 for a max or a percentile from p99 up," "--help: its defaults"
