#!/bin/bash
# The fake load the bisect tests check against (bisect_check.py): a run
# stopped while it sleeps (SIGTERM, the load's stop signal, or SIGINT) takes
# no draw, so the next run prints draw 0; a run that finishes takes the
# next one. Expected values: the LCG of bisect_check.py, computed in python.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
S=$WORK/fake.state
expect() {
	python3 -c "import sys; sys.path.insert(0, '$TESTS_DIR/integration'); import bisect_check as b
print('%.6f' % (100 * (1 + 0.01 * b.draw(7, $1))))"
}
for sig in TERM INT; do
	env --default-signal=INT "$SCHEDRIG" load fake --seed 7 --state_file "$S" --sleep_ms 5000 >"$WORK/killed.out" 2>&1 &
	pid=$!
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null || true
	assert_eq "$(cat "$WORK/killed.out")" "" "SIG$sig while it sleeps: nothing printed"
	[ ! -s "$S" ] || assert_eq "$(cat "$S")" 0 "SIG$sig while it sleeps: no draw taken"
done
out=$("$SCHEDRIG" load fake --seed 7 --state_file "$S") || fail "fake exited $?"
assert_contains "$out" "run=0" "the first finished run takes draw 0"
assert_contains "$out" "value 0 $(expect 0)" "draw 0 of seed 7"
out=$("$SCHEDRIG" load fake --seed 7 --state_file "$S") || fail "fake exited $?"
assert_contains "$out" "value 0 $(expect 1)" "then draw 1"
assert_eq "$(cat "$S")" 2 "two draws counted"
# A count left longer than the new one (a stale tail) reads as its first line.
printf '5\n99999\n' >"$S"
out=$("$SCHEDRIG" load fake --seed 7 --state_file "$S") || fail "fake exited $?"
assert_contains "$out" "run=5" "the first line counts"
assert_eq "$(cat "$S")" 6 "the file cut to the new count"
