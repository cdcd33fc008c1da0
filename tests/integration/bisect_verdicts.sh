#!/bin/bash
# Bisect verdicts that survive review (issue 26), end to end with the fake
# load: the issue's gradual drift (means 100..108 over p0..p8, spread 1 %)
# names no point but the span; a clean 3 % step is confirmed; an end that
# moves while the bisection runs (the fake's own draws: a seed whose first
# five draws are low and next five high) blames no patch; a step below
# --min-effect-pct is no regression; --rule mann-whitney and --rule range
# decide and state their test; a rule the config's iterations cannot decide
# by is refused before anything runs; the looks are at counts fixed in
# advance whatever the config's CI stop (welch with max 4: looks 3, 4); a
# long point name keeps the checks table aligned; a point beyond an end
# makes the series not monotone. Every sample, p-value, alpha, verdict
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
# The table's p1 and p7 are walk runs (the confirm measured only the ends):
# only the confirm's rounds are noted interleaved, the walk runs blocked.
confirm_ids=$(q "$DB" "SELECT group_concat(run_id, ' ') FROM (SELECT run_id FROM bisect_run
	WHERE bisection_id = 1 AND phase = 'confirm' ORDER BY run_id)")
listed=$(python3 -c '
import re, sys
m = re.search(r"^Order \(runs? ([0-9, -]+)\): interleaved$", sys.stdin.read(), re.M)
ids = []
for part in (m.group(1).split(", ") if m else []):
    a, _, b = part.partition("-")
    ids += range(int(a), int(b or a) + 1)
print(" ".join(map(str, ids)))' <<<"$show")
assert_eq "$listed" "$confirm_ids" "interleaved: the confirm's rounds only"
assert_contains "$show" "blocked (a walk run: its point's iterations together)" "the walk runs: blocked"
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

# 7. Looks at iteration counts fixed in advance, whatever the config's CI
# stop: with iterations {min: 3, max: 4, ci_pct: 0.001} (a CI no 3 or 4
# samples of a 1 % spread reach, so an adaptive run goes on to its max) the
# rule is welch's default and accepted (two looks: 3, 4), every point's
# first walk run measures exactly 3 iterations and a top-up 1, the rule
# printed says so, and the independent check agrees.
rm -f shift-p*.state
series shift 100:1 100:1 100:1 100:1 100:1 103:1 103:1 103:1 103:1
sed -i 's/{min: 3, max: 6, ci_pct: 50}/{min: 3, max: 4, ci_pct: 0.001}/' shift.yaml
out=$("$SCHEDRIG" bisect shift.yaml --good p0 --bad p8 --db "$DB" 2>&1) || [ $? = 1 ] ||
	fail "welch with max 4: $out"
id=$(q "$DB" "SELECT max(id) FROM bisection")
assert_eq "$(q "$DB" "SELECT status FROM bisection WHERE id = $id")" complete "welch with max 4 ran"
counts=$(q "$DB" "SELECT DISTINCT (br.attempt = 1) || ':' || (SELECT count(*) FROM iteration i
		JOIN variant v ON i.variant_id = v.id WHERE v.run_id = br.run_id)
	FROM bisect_run br WHERE br.bisection_id = $id AND br.phase = 'walk' ORDER BY 1")
assert_eq "$(tr '\n' ' ' <<<"$counts")" "0:1 1:3 " "walk runs: 3 iterations first, then 1 (the looks 3, 4)"
assert_contains "$out" "at most 2 look(s) at iteration counts fixed in advance (3, 4; each run measures exactly to its look's count" \
	"the looks stated"
check "$DB" "$id"

# 8. Long point names: the checks table's columns still line up (their
# widths are computed): every row's "n A/B" starts in one column.
cat >long.yaml <<YAML
name: long
iterations: {min: 3, max: 6, ci_pct: 50}
warmup_s: 0
loads:
  - {name: f, tool: fake, params: {mean: 100, spread_pct: 1, seed: 1}}
bisect:
  points:
    - {name: vanilla-6.12-with-a-long-name, params: {f: {seed: 10, state_file: $WORK/long-p0.state}}}
    - {name: patched-6.12-with-a-longer-name, params: {f: {mean: 120, seed: 11, state_file: $WORK/long-p1.state}}}
YAML
out=$("$SCHEDRIG" bisect long.yaml --good vanilla-6.12-with-a-long-name \
	--bad patched-6.12-with-a-longer-name --db "$DB" 2>&1) || fail "long names: $out"
cols=$(awk '/^Checks after the walk/ { on = 1; next } on && /^  / { print index($0, " n ") } on && !/^  / { on = 0 }' \
	<<<"$out" | sort -u | wc -l)
checks=$(awk '/^Checks after the walk/ { on = 1; next } on && /^  / { n++ } on && !/^  / { on = 0 } END { print n }' <<<"$out")
[ "$checks" -ge 3 ] || fail "long names: $checks check rows: $out"
assert_eq "$cols" 1 "long names: the checks' n column lines up"

# 9. A point faster than both ends (p4 at 80 between ends at 100 and 120):
# beyond an end, the series is not monotone, no patch is blamed and nothing
# is called gradual; the independent check classifies it alike.
series beyond 100:1 100:1 100:1 100:1 80:1 120:1 120:1 120:1 120:1
rc=0
out=$("$SCHEDRIG" bisect beyond.yaml --good p0 --bad p8 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "beyond an end: no patch named ($out)"
id=$(q "$DB" "SELECT max(id) FROM bisection")
assert_eq "$(q "$DB" "SELECT verdict || ': ' || reason FROM bisect_point WHERE bisection_id = $id AND k = 4")" \
	"beyond: beyond an end (not monotone): it differs from both ends, outside the interval between them" \
	"p4 beyond an end"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = $id")" \
	"No single first bad point: not monotone over p" "the result: not monotone"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = $id")" "(beyond an end: p4" \
	"the result names the point beyond"
! grep -q 'gradual' <<<"$(q "$DB" "SELECT result FROM bisection WHERE id = $id")" ||
	fail "beyond an end called gradual"
check "$DB" "$id"
