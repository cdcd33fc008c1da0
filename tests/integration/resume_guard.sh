#!/bin/bash
# run --resume only takes over a run of this machine whose rig is gone: a
# run whose rig is alive is refused (two rigs would run the same
# iterations), and so is a run recorded on another host (one run's
# iterations come from one machine). Nothing is written by a refused resume.
# A rig that died but is not reaped yet (a zombie) is gone: its run resumes.
source "$(dirname "$0")/lib.sh"

DB=$WORK/g.db
cat >"$WORK/slow.yaml" <<EOF2
name: slow
iterations: 20
loads:
  - name: fake
    tool: fake
    params: {state_file: $WORK/state, sleep_ms: 500}
EOF2
"$SCHEDRIG" run "$WORK/slow.yaml" --db "$DB" --quiet >"$WORK/out" 2>&1 &
rig=$!
for _ in $(seq 100); do
	[ "$(q "$DB" "SELECT count(*) FROM iteration" 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.1
done
rc=0
"$SCHEDRIG" run --resume 1 --db "$DB" >"$WORK/r.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "exit status of resuming a live run"
assert_contains "$(cat "$WORK/r.out")" "run 1 is still running (schedrig pid $rig): let it end or stop it first" \
	"message of resuming a live run"
assert_eq "$(q "$DB" "SELECT rig_pid FROM run WHERE id = 1")" "$rig" "rig_pid after the refused resume"
kill -INT "$rig"
wait "$rig" || true
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = 1")" interrupted "status after SIGINT"

# The same database as if copied from another machine.
q "$DB" "UPDATE run SET host = 'otherbox' WHERE id = 1"
n=$(q "$DB" "SELECT count(*) FROM iteration")
rc=0
"$SCHEDRIG" run --resume 1 --db "$DB" >"$WORK/r.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "exit status of resuming another host's run"
assert_contains "$(cat "$WORK/r.out")" "run 1 was recorded on host otherbox, not on $(uname -n): resume it there" \
	"message of resuming another host's run"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration")" "$n" "iterations after the refused resume"

# A rig killed whose parent never reaps it: its /proc/PID/stat stays, in state Z.
ZDB=$WORK/z.db
sed -i 's/iterations: 20/iterations: 3/; s/sleep_ms: 500/sleep_ms: 300/' "$WORK/slow.yaml"
sh -c 'exec "$@" >/dev/null 2>&1 & exec sleep 60' sh "$SCHEDRIG" run "$WORK/slow.yaml" \
	--db "$ZDB" --quiet &
reaper=$!
for _ in $(seq 100); do
	[ "$(q "$ZDB" "SELECT count(*) FROM iteration" 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.1
done
zpid=$(q "$ZDB" "SELECT rig_pid FROM run WHERE id = 1")
kill -KILL "$zpid"
for _ in $(seq 50); do
	[ "$(cut -d' ' -f3 "/proc/$zpid/stat" 2>/dev/null)" = Z ] && break
	sleep 0.1
done
assert_eq "$(cut -d' ' -f3 "/proc/$zpid/stat")" Z "the killed rig is a zombie"
assert_eq "$(q "$ZDB" "SELECT status FROM run WHERE id = 1")" running "a killed rig's run stays running"
"$SCHEDRIG" run --resume 1 --db "$ZDB" --quiet >"$WORK/z.out" 2>&1 ||
	fail "resume of a run whose rig is a zombie exited $?: $(cat "$WORK/z.out")"
assert_eq "$(q "$ZDB" "SELECT status FROM run WHERE id = 1")" complete "the zombie's run resumed"
assert_eq "$(q "$ZDB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" 3 \
	"its iterations all complete"
kill "$reaper"
wait "$reaper" 2>/dev/null || true
echo ok
