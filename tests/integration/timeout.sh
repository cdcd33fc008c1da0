#!/bin/bash
# A load that hangs: the measured cyclictest of iteration 2 (or 3, on a busy
# machine) of 4 is stopped with SIGSTOP as soon as it runs. The rig kills it
# at its timeout_s (3 s), records it as `timeout` without samples, stops the
# background hackbench, goes on with the next iteration, and exits 1 (a
# failure was recorded).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

DB=$WORK/db/results.db
cat >"$WORK/hang.yaml" <<'EOF'
name: hang
iterations: 4
warmup_s: 0.2
loads:
  - name: hb
    tool: hackbench
    role: background
    repeat: true
    params: {mode: process, ipc: pipe, groups: 1, loops: 300}
  - tool: cyclictest
    timeout_s: 3
    params: {threads: 1, interval_us: 1000, duration_s: 1, mlock: false}
EOF

start_rig run --db "$DB" "$WORK/hang.yaml"
# Wait for iteration 1 to be stored, then for the next cyclictest.
stopped=
for i in $(seq 600); do
	if [ "$(q "$DB" 'SELECT count(*) FROM iteration' 2>/dev/null || echo 0)" -ge 1 ]; then
		stopped=$(leftovers | awk '$2 == "cyclictest" && !n { print $1; n = 1 }')
		[ -n "$stopped" ] && break
	fi
	kill -0 "$RIG_PID" 2>/dev/null || fail "the rig ended early: $(cat "$WORK/rig.err")"
	sleep 0.05
done
[ -n "$stopped" ] || fail "no cyclictest after iteration 1 seen"
kill -STOP "$stopped"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 1 "exit status ($(cat "$WORK/rig.err"))"
assert_no_leftovers "after the timeout"
assert_integrity "$DB"
[ ! -e "/proc/$stopped" ] || fail "the stopped cyclictest $stopped is still there"

# The stopped instance: state timeout, killed by SIGKILL at 3 s.
k=$(q "$DB" "SELECT i.iteration FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	WHERE li.pid = $stopped")
case "$k" in 2 | 3) ;; *) fail "the stopped cyclictest belongs to iteration '$k', not 2 or 3" ;; esac
row=$(q "$DB" "SELECT i.status, li.state, li.reason, li.term_signal
	FROM load_instance li JOIN iteration i ON i.id = li.iteration_id WHERE li.pid = $stopped")
assert_eq "$row" "failed|timeout|killed after timeout_s=3|9" "the stopped instance"
elapsed=$(q "$DB" "SELECT elapsed_s FROM load_instance WHERE pid = $stopped")
awk -v e="$elapsed" 'BEGIN { exit !(e >= 3 && e < 4.5) }' ||
	fail "the stopped instance was killed after ${elapsed} s, not at its timeout_s=3"
assert_eq "$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.pid = $stopped")" 0 "samples of the timed-out instance"
# The background hackbench of that iteration was stopped, not left running.
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	WHERE i.iteration = $k AND li.name = 'hb' AND li.state NOT IN ('ok', 'stopped', 'warmup')")" 0 \
	"hackbench instances of iteration $k neither ok, stopped nor warmup (a run ending in the 0.2 s warm-up)"
# The run went on: every other iteration complete with its samples.
want=
for i in 1 2 3 4; do
	[ "$i" = "$k" ] && want="$want $i:failed" || want="$want $i:complete"
done
assert_eq "$(q "$DB" "SELECT group_concat(iteration || ':' || status, ' ') FROM iteration ORDER BY iteration")" \
	"${want# }" "iterations"
run=$(q "$DB" 'SELECT max(id) FROM run')
assert_complete_iterations_intact "$DB" "$run" 3
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = $run")" failed "run status"
assert_contains "$(q "$DB" "SELECT message FROM event WHERE run_id = $run AND kind = 'failure'")" \
	"iteration $k load cyclictest: timeout: killed after timeout_s=3" "failure event"
assert_contains "$(cat "$WORK/rig.out")" "iteration 4/4: " "iteration 4 logged"
