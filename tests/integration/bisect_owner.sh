#!/bin/bash
# One schedrig walks a bisection: --resume of a bisection that is still
# being walked is refused, naming the walker's pid, and changes nothing.
# --resume runs the steps from the directory the bisection was begun in,
# so the config's relative paths (here the fake load's state files) mean
# what they meant: resumed from another directory it finds the same point
# (bisect_check.py checks every sample against the seeds).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

SLEEP_MS=300 series rel 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
# state files relative to the directory the bisection runs in
sed -i "s|state_file: $WORK/|state_file: st/|" rel.yaml
mkdir -p rig/st elsewhere
decided() { q "$DB" "SELECT count(*) FROM bisect_point WHERE verdict IS NOT NULL" 2>/dev/null || echo 0; }
(cd rig && exec env --default-signal=INT "$SCHEDRIG" bisect ../rel.yaml --good p0 --bad p8 \
	--db "$DB" >"$WORK/first.out" 2>&1) &
rig=$!
for i in $(seq 600); do
	[ "$(decided)" -ge 3 ] && break
	kill -0 "$rig" 2>/dev/null || fail "bisect ended early: $(cat "$WORK/first.out")"
	sleep 0.05
done
[ "$(decided)" -ge 3 ] || fail "3 points were never decided"
assert_eq "$(q "$DB" "SELECT cwd FROM bisection")" "$WORK/rig" "the directory is stored"
runs=$(q "$DB" "SELECT count(*) FROM run")
rc=0
out=$(cd elsewhere && "$SCHEDRIG" bisect --resume 1 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "a second walker: exit status ($out)"
assert_contains "$out" "bisection 1 is running (pid $rig)" "a second walker is refused"
assert_eq "$(q "$DB" "SELECT status || ' ' || rig_pid FROM bisection")" "running $rig" \
	"the bisection keeps its walker"
kill -0 "$rig" 2>/dev/null || fail "the first walker ended: $(cat "$WORK/first.out")"
[ "$(q "$DB" "SELECT count(*) FROM run")" -le $((runs + 1)) ] || fail "the refused walker ran a step"

kill -INT "$rig"
rc=0
wait "$rig" || rc=$?
assert_eq "$rc" 130 "exit status after SIGINT"
assert_eq "$(q "$DB" "SELECT status FROM bisection")" interrupted "bisection status"
out=$(cd elsewhere && "$SCHEDRIG" bisect --resume 1 --db "$DB" 2>&1) ||
	fail "resume from another directory exited $?: $out"
assert_contains "$out" "First bad point: p5 (k 5 of 8)" "the same answer from another directory"
assert_eq "$(q "$DB" "SELECT count(*) FROM bisect_point WHERE verdict = 'skip'")" 0 "no point skipped"
[ ! -e "$WORK/elsewhere/st" ] || fail "a step ran in the resuming directory"
check "$DB" 1
