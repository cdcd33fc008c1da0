#!/bin/bash
# One schedrig walks a bisection: --resume of a bisection that is still
# being walked is refused, naming the walker's pid, and changes nothing.
# --resume runs the steps from the directory the bisection was begun in,
# so the config's relative paths (here the fake load's state files) mean
# what they meant: resumed from another directory it finds the same point
# (bisect_check.py checks every sample against the seeds). A step run still
# going in another schedrig stops the walk without a verdict; a walker that
# is a zombie is gone.
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
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "the same answer from another directory"
assert_eq "$(q "$DB" "SELECT count(*) FROM bisect_point WHERE verdict = 'skip'")" 0 "no point skipped"
[ ! -e "$WORK/elsewhere/st" ] || fail "a step ran in the resuming directory"
check "$DB" 1

# A step whose run is still going in another schedrig (run --resume of it,
# started by hand) is not the point's failure: the walker stops, records no
# verdict and says the run's message; a later --resume finds the same point.
DB2=$WORK/db/c.db
SLEEP_MS=400 series conc 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
env --default-signal=INT "$SCHEDRIG" bisect conc.yaml --good p0 --bad p8 --db "$DB2" \
	>"$WORK/c1.out" 2>&1 &
rig=$!
for i in $(seq 600); do
	[ "$(q "$DB2" "SELECT count(*) FROM run WHERE id = 3" 2>/dev/null)" = 1 ] && break
	sleep 0.05
done
kill -INT "$rig"
wait "$rig" || true
assert_eq "$(q "$DB2" "SELECT status FROM run WHERE id = 3")" interrupted "p0's second run after SIGINT"
"$SCHEDRIG" run --resume 3 --db "$DB2" --quiet >"$WORK/manual.out" 2>&1 &
manual=$!
for i in $(seq 200); do
	[ "$(q "$DB2" "SELECT rig_pid FROM run WHERE id = 3")" = "$manual" ] && break
	sleep 0.05
done
rc=0
out=$("$SCHEDRIG" bisect --resume --db "$DB2" 2>&1) || rc=$?
assert_eq "$rc" 1 "a step run still going elsewhere: exit status ($out)"
assert_contains "$out" "point 0 p0: the run did not start: schedrig: run 3 is still running (schedrig pid $manual)" \
	"the run's message"
assert_eq "$(q "$DB2" "SELECT count(*) FROM bisect_point WHERE k = 0 AND verdict IS NOT NULL")" 0 \
	"no verdict of p0"
assert_eq "$(q "$DB2" "SELECT status FROM bisection")" failed "the bisection stopped"
wait "$manual" || fail "the run --resume by hand exited $?: $(cat "$WORK/manual.out")"
out=$("$SCHEDRIG" bisect --resume --db "$DB2" 2>&1) || fail "the later resume exited $?: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "the same answer after the run ended"
assert_eq "$(q "$DB2" "SELECT count(*) FROM bisect_point WHERE verdict = 'skip'")" 0 "no point skipped"
check "$DB2" 1

# A walker killed but not reaped yet (a zombie: its parent never waits) is
# gone: --resume takes the bisection over.
DB3=$WORK/db/z.db
SLEEP_MS=100 series zomb 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
sh -c 'exec "$@" >/dev/null 2>&1 & exec sleep 120' sh "$SCHEDRIG" bisect zomb.yaml --good p0 \
	--bad p8 --db "$DB3" &
reaper=$!
for i in $(seq 600); do
	[ "$(q "$DB3" "SELECT count(*) FROM run WHERE id = 3" 2>/dev/null)" = 1 ] && break
	sleep 0.05
done
walker=$(q "$DB3" "SELECT rig_pid FROM bisection")
kill -KILL "$walker"
for i in $(seq 100); do
	[ "$(q "$DB3" "SELECT count(*) FROM run WHERE status = 'running'")" = 0 ] &&
		[ "$(cut -d' ' -f3 "/proc/$walker/stat" 2>/dev/null)" = Z ] && break
	sleep 0.1
done
assert_eq "$(cut -d' ' -f3 "/proc/$walker/stat")" Z "the killed walker is a zombie"
out=$("$SCHEDRIG" bisect --resume --db "$DB3" 2>&1) || fail "resume after a zombie walker exited $?: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "the zombie's bisection resumed"
check "$DB3" 1
kill "$reaper"
wait "$reaper" 2>/dev/null || true
