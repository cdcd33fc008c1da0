#!/bin/bash
# schedrig bisect around points it cannot decide: a noisy point (different
# from neither end) gets more iterations at the next look up to the
# config's max, then is skipped; next to the step that leaves a range, and
# a range around a point that stayed ambiguous names no patch (the change
# may be spread over it). A point whose load fails is skipped with the
# failure, stepped around, and the step is still found and confirmed.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

# 1. p4 is noisy (mean 110, spread 50 %): measured first (the middle),
# exactly to the looks fixed in advance whatever its CI (the config's
# ci_pct: 50 would stop it at 5): ambiguous at 3, 2 more, ambiguous at 5,
# 1 more to max 6, still ambiguous: skip. Then 3 good, 5 bad: the change is in
# (p3, p5], but p4 stayed ambiguous: no patch named (exit 1).
series noisy 100:1 100:1 100:1 100:1 110:50 120:1 120:1 120:1 120:1
rc=0
out=$("$SCHEDRIG" bisect noisy.yaml --good p0 --bad p8 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "an ambiguous point in the range: exit status ($out)"
assert_contains "$out" "point 4 p4: ambiguous after 3 iteration(s)" "the first look at min"
assert_contains "$out" "point 4 p4: ambiguous after 5 iteration(s)" "more iterations"
assert_contains "$out" "alpha 0.003661): 1 more" "up to max 6, at the next look"
assert_contains "$out" "point 4 p4: skip (n 6," "skipped after 6"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = 1")" \
	"No single first bad point: the change is in p3..p5, but p4 stayed ambiguous (it differs from neither end at its alpha); the confirm shows p3 -> p5 +20.1 %" \
	"the range is no answer"
assert_eq "$(q "$DB" "SELECT count(*) FROM bisect_run WHERE k = 4")" 3 "three runs of p4"
assert_eq "$(q "$DB" "SELECT group_concat(r.iterations) FROM bisect_run b JOIN run r ON r.id = b.run_id
	WHERE b.k = 4 ORDER BY b.attempt")" "3,2,1" "the runs measure to the looks 3, 5, 6"
assert_eq "$(q "$DB" "SELECT verdict || ' ' || n FROM bisect_point WHERE k = 4")" "skip 6" "p4 stored"
check "$DB" 1

# 2. p4's fake load cannot create its state file: every iteration fails,
# p4 is skipped with the reason, and the move at p6 is still found.
series failing 100:1 100:1 100:1 100:1 fail 100:1 120:1 120:1 120:1
out=$("$SCHEDRIG" bisect failing.yaml --good p0 --bad p8 --db "$DB" 2>&1) ||
	fail "bisect exited $?: $out"
assert_contains "$out" "point 4 p4: skip: run " "a failed point is skipped"
assert_contains "$out" "load f: failed" "with the load's failure"
assert_contains "$(q "$DB" "SELECT result FROM bisection WHERE id = 2")" \
	"First bad point: p6 (confirmed: p5 -> p6" "found around the failed point"
assert_eq "$(q "$DB" "SELECT count(*) FROM bisect_run WHERE bisection_id = 2 AND k = 4")" 1 \
	"a failed point is not measured again"
check "$DB" 2
# --show checks each reason against what the samples (and the failed
# run) give: the ones the rig wrote pass and are printed.
for id in 1 2; do
	show=$("$SCHEDRIG" bisect --show "$id" --db "$DB" 2>&1) || fail "--show $id: $show"
	assert_contains "$show" "Notes:" "--show $id prints the reason"
done
assert_contains "$("$SCHEDRIG" bisect --show 1 --db "$DB")" \
	"p4: ambiguous after 6 iteration(s) (the config's max): neither end's rule" \
	"the ambiguity's reason"
assert_contains "$("$SCHEDRIG" bisect --show 2 --db "$DB")" "p4: run " "the failure's reason"
