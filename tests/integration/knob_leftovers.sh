#!/bin/bash
# Knob changes a killed run left behind are seen host-wide (root needed; the
# knob is kernel.sched_autogroup_enabled): run A sets it and is killed with
# -9; then every run on the machine refuses, without knobs on A's database,
# and with or without knobs on another database, naming A's database and
# `schedrig restore --db A` (without the host-wide record, a run on another
# database would journal the changed value as the original one). A copy of
# A's database alone still refuses a run without knobs. `schedrig restore
# --db A` puts the value back and removes the record; then runs work again,
# journalling the real original value. While a run has the knob changed,
# a run without knobs and `schedrig restore` are refused too.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

AG=/proc/sys/kernel/sched_autogroup_enabled
if [ "$(id -u)" -ne 0 ] || [ ! -w "$AG" ]; then
	skip "needs root and a writable $AG"
fi
REC=/run/lock/schedrig-knobs.pending
[ -w /run/lock ] || REC=/tmp/schedrig-knobs.pending
[ ! -e "$REC" ] || fail "$REC exists: some run left knobs changed on this machine ($(cat "$REC"))"
orig=$(cat "$AG")
want=$((1 - orig))
# Whatever happens, the host gets its value back, and loses our record.
trap 'kill_leftovers; echo "$orig" >"$AG"; ! grep -qs "^db $WORK/" "$REC" || rm -f "$REC"; rm -rf "$WORK"' EXIT

A=$WORK/a.db
B=$WORK/b.db
cat >"$WORK/long.yaml" <<EOF
name: knobs-long
iterations: 1
variants:
  - name: tuned
    sysctl: {kernel.sched_autogroup_enabled: $want}
loads:
  - tool: wakeup-lat
    params: {runtime_s: 30}
EOF
cat >"$WORK/knobs.yaml" <<EOF
name: knobs-short
iterations: 1
variants:
  - name: tuned
    sysctl: {kernel.sched_autogroup_enabled: $want}
loads:
  - tool: wakeup-lat
    params: {runtime_s: 1}
EOF
cat >"$WORK/plain.yaml" <<EOF
name: plain
iterations: 1
loads:
  - tool: wakeup-lat
    params: {runtime_s: 1}
EOF

# wait_value VALUE: until autogroup reads VALUE (10 s at most).
wait_value() {
	for _ in $(seq 100); do
		[ "$(cat "$AG")" = "$1" ] && return 0
		kill -0 "$RIG_PID" 2>/dev/null || fail "the rig ended: $(cat "$WORK/rig.err")"
		sleep 0.1
	done
	fail "autogroup never read $1"
}

# refused NAME DB CONFIG EXPECTED: `schedrig run CONFIG --db DB` exits 1 with
# EXPECTED in its stderr, and leaves the knob as it was.
refused() {
	local rc=0 before
	before=$(cat "$AG")
	"$SCHEDRIG" run "$3" --db "$2" --quiet >"$WORK/$1.out" 2>"$WORK/$1.err" || rc=$?
	assert_eq "$rc" 1 "$1: exit status ($(cat "$WORK/$1.err"))"
	assert_contains "$(cat "$WORK/$1.err")" "$4" "$1: message"
	assert_eq "$(cat "$AG")" "$before" "$1: autogroup"
}

# 1. A run holding the knob changed: a run without knobs and schedrig restore
#    are refused; SIGINT restores, and the record goes with the change.
start_rig run "$WORK/long.yaml" --db "$A" --quiet
wait_value "$want"
[ -e "$REC" ] || fail "no host-wide record while the knob is changed"
refused live "$B" "$WORK/plain.yaml" \
	"schedrig: another schedrig (pid $RIG_PID) is changing kernel knobs on this machine now"
rc=0
"$SCHEDRIG" restore --db "$A" >"$WORK/live-restore.out" 2>"$WORK/live-restore.err" || rc=$?
assert_eq "$rc" 1 "restore while the run has the knob changed"
assert_contains "$(cat "$WORK/live-restore.err")" "another schedrig (pid $RIG_PID) has scheduler knobs changed" \
	"restore while the run has the knob changed"
assert_eq "$(cat "$AG")" "$want" "autogroup after the refused restore"
kill -INT "$RIG_PID"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 130 "exit status after SIGINT ($(cat "$WORK/rig.err"))"
assert_eq "$(cat "$AG")" "$orig" "autogroup after SIGINT"
[ ! -e "$REC" ] || fail "record left after the run restored: $(cat "$REC")"

# 2. kill -9 while the knob is changed: the value and the record stay.
start_rig run "$WORK/long.yaml" --db "$A" --quiet
wait_value "$want"
sleep 0.5
killed=$RIG_PID
kill -KILL "$RIG_PID"
wait "$RIG_PID" 2>/dev/null || true
assert_no_leftovers "after kill -9 of the rig"
assert_eq "$(cat "$AG")" "$want" "autogroup after kill -9 (nobody restored it)"
run_a=$(q "$A" "SELECT max(id) FROM run")
assert_eq "$(cat "$REC")" "pid $killed
run $run_a
boot $(cat /proc/sys/kernel/random/boot_id)
db $A" "the host-wide record"
sqlite3 "$A" ".backup '$WORK/copy.db'"
msg="schedrig: run $run_a (pid $killed) of $A left kernel knobs changed on this machine (killed, or its restore failed): run 'schedrig restore --db $A' first"

# 3. Every run refuses: on A without knobs, on B without and with knobs.
runs_a=$(q "$A" "SELECT count(*) FROM run")
refused same-db "$A" "$WORK/plain.yaml" "$msg"
assert_eq "$(q "$A" "SELECT count(*) FROM run")" "$runs_a" "runs in A after the refused run"
refused other-db "$B" "$WORK/plain.yaml" "$msg"
refused other-db-knobs "$B" "$WORK/knobs.yaml" "$msg"
assert_eq "$(q "$B" "SELECT count(*) FROM run")" 0 "runs in B after the refused runs"
assert_eq "$(q "$B" "SELECT count(*) FROM knob")" 0 "knob rows in B after the refused runs"
# ... and so does run --resume of the killed run, printing no table.
rc=0
"$SCHEDRIG" run --resume "$run_a" --db "$A" >"$WORK/resume.out" 2>"$WORK/resume.err" || rc=$?
assert_eq "$rc" 1 "exit status of the refused resume"
assert_eq "$(cat "$WORK/resume.err")" "$msg" "message of the refused resume"
assert_eq "$(cat "$WORK/resume.out")" "" "stdout of the refused resume"

# restore of another database says which one blocks the runs.
"$SCHEDRIG" restore --db "$B" >/dev/null 2>"$WORK/restore-b.err" || true
assert_eq "$(cat "$WORK/restore-b.err")" "schedrig restore: runs on this machine still refuse: run $run_a of $A left kernel knobs changed; run 'schedrig restore --db $A'" \
	"restore of B while A's record is there"

# 4. schedrig restore --db A puts the value back and removes the record.
out=$("$SCHEDRIG" restore --db "$A") || fail "schedrig restore failed: $out"
assert_contains "$out" "restored $AG = $orig (was set to $want)" "restore output"
assert_contains "$out" "the host-wide record of this database's knob changes is removed" \
	"restore output"
assert_eq "$(cat "$AG")" "$orig" "autogroup after schedrig restore"
[ ! -e "$REC" ] || fail "record left after schedrig restore: $(cat "$REC")"

# 5. The same-database check holds for a run without knobs on its own: the
#    copy of A still journals the change as unrestored.
refused copy "$WORK/copy.db" "$WORK/plain.yaml" \
	"schedrig: $WORK/copy.db holds 1 knob change(s) a killed run did not restore (e.g. $AG, old value $orig); run 'schedrig restore --db $WORK/copy.db' first"

# 6. Both runs work again, and B journals the real original value.
rc=0
"$SCHEDRIG" run "$WORK/plain.yaml" --db "$B" --quiet >"$WORK/b1.out" 2>"$WORK/b1.err" || rc=$?
assert_eq "$rc" 0 "run without knobs on B ($(cat "$WORK/b1.err"))"
rc=0
"$SCHEDRIG" run "$WORK/knobs.yaml" --db "$B" --quiet >"$WORK/b2.out" 2>"$WORK/b2.err" || rc=$?
assert_eq "$rc" 0 "run with knobs on B ($(cat "$WORK/b2.err"))"
assert_eq "$(q "$B" "SELECT old_value || ' ' || applied_value || ' ' || (restored_at IS NOT NULL) FROM knob")" \
	"$orig $want 1" "B's journal: the real original value, restored"
rc=0
"$SCHEDRIG" run "$WORK/plain.yaml" --db "$A" --quiet >"$WORK/a1.out" 2>"$WORK/a1.err" || rc=$?
assert_eq "$rc" 0 "run without knobs on A ($(cat "$WORK/a1.err"))"
assert_eq "$(cat "$AG")" "$orig" "autogroup at the end"
[ ! -e "$REC" ] || fail "record left at the end: $(cat "$REC")"
echo ok
