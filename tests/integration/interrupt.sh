#!/bin/bash
# SIGINT, SIGTERM and SIGHUP at random points of a small run (hackbench
# repeating in the background, cyclictest measured): 22 single signals, then
# 3 bursts of signals during the cleanup. After each: exit status 128+N of the
# first signal, no process of the run left, the variant's sysctl knob
# restored, PRAGMA integrity_check ok, the run marked interrupted, and every
# complete iteration with all its samples.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

DB=$WORK/db/results.db
# A knob the variant changes and the rig must restore, whatever happens:
# the shortest SCHED_DEADLINE period (only deadline admission notices it).
KNOB=/proc/sys/kernel/sched_deadline_period_min_us
# The knob is machine-wide: runs of this test on one machine take turns.
exec 9>/tmp/schedrig-test-interrupt.lock
flock -w 600 9 || fail "another interrupt test holds /tmp/schedrig-test-interrupt.lock"
KNOB_WAS=$(cat "$KNOB")
trap 'kill_leftovers; echo "$KNOB_WAS" >"$KNOB"; rm -rf "$WORK"' EXIT
assert_knob_restored() {
	assert_eq "$(cat "$KNOB")" "$KNOB_WAS" "$1: kernel.sched_deadline_period_min_us restored"
}
cat >"$WORK/small.yaml" <<'EOF'
name: interrupt-me
iterations: 3
warmup_s: 0.2
variants:
  - name: dlmin
    sysctl: {kernel.sched_deadline_period_min_us: 250}
loads:
  - name: hb
    tool: hackbench
    role: background
    repeat: true
    params: {mode: process, ipc: pipe, groups: 1, loops: 300}
  - tool: cyclictest
    timeout_s: 30
    params: {threads: 1, interval_us: 1000, duration_s: 1, mlock: false}
EOF

# Reference: the run undisturbed, 3 samples per cyclictest instance; the
# knob is 250 while it runs.
[ "$KNOB_WAS" != 250 ] || fail "$KNOB is 250 already: the test could not see a change"
start_rig run --quiet --db "$DB" "$WORK/small.yaml"
seen=
for i in $(seq 200); do
	[ "$(cat "$KNOB")" = 250 ] && seen=1 && break
	sleep 0.02
done
[ -n "$seen" ] || fail "the variant's sysctl was never applied"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 0 "undisturbed run exit status ($(tail -3 "$WORK/rig.err"))"
assert_knob_restored "undisturbed run"
ref=$(q "$DB" 'SELECT max(id) FROM run')
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = $ref")" complete "undisturbed run status"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" 3 "complete iterations"
K=$(q "$DB" "SELECT count(*) / 3 FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.tool = 'cyclictest'")
assert_eq "$K" 3 "cyclictest samples per iteration (min, avg, max)"
assert_complete_iterations_intact "$DB" "$ref" "$K"
assert_no_leftovers "undisturbed run"

# One interrupted run: signal SIG after DELAY_MS ms; with BURST, keep
# signalling (INT, TERM, HUP) every 20 ms until the rig is gone.
interrupted=0
# With FROM=recorded, DELAY_MS counts from the moment the run is recorded in
# the database (so the signal lands inside a run, whatever the machine's
# speed); with FROM=start, from the rig's start (the signal may land before
# anything is recorded).
interrupt_once() {
	local sig=$1 delay_ms=$2 from=$3 burst=${4:-} before after run status rc=0 want i
	before=$(q "$DB" 'SELECT coalesce(max(id), 0) FROM run')
	start_rig run --quiet --db "$DB" "$WORK/small.yaml"
	if [ "$from" = recorded ]; then
		for i in $(seq 600); do
			[ "$(q "$DB" 'SELECT coalesce(max(id), 0) FROM run' 2>/dev/null || echo "$before")" != "$before" ] && break
			kill -0 "$RIG_PID" 2>/dev/null || break
			sleep 0.01
		done
	fi
	sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
	if ! kill -s "$sig" "$RIG_PID" 2>/dev/null; then
		wait "$RIG_PID" || rc=$?
		fail "the rig ended (status $rc) before SIG$sig at ${delay_ms} ms after the $from: $(tail -3 "$WORK/rig.err")"
	fi
	if [ -n "$burst" ]; then
		# Let the first signal be read first (pending signals are read
		# lowest number first), then keep signalling through the cleanup.
		sleep 0.1
		while kill -0 "$RIG_PID" 2>/dev/null; do
			for s in INT TERM HUP; do
				kill -s "$s" "$RIG_PID" 2>/dev/null || true
				sleep 0.02
			done
		done
	fi
	wait "$RIG_PID" || rc=$?
	want=$((128 + $(kill -l "$sig")))
	local what="SIG$sig at ${delay_ms} ms after the $from${burst:+ with a burst}"
	assert_no_leftovers "$what"
	assert_knob_restored "$what"
	assert_integrity "$DB"
	after=$(q "$DB" 'SELECT coalesce(max(id), 0) FROM run')
	if [ "$after" = "$before" ]; then
		# Signalled before the run was recorded: the default action ended
		# the rig before it blocked the signal, and it had started nothing.
		[ "$from" = start ] || fail "$what: no run recorded although the signal waited for one"
		assert_eq "$rc" "$want" "$what: exit status"
		return
	fi
	run=$after
	status=$(q "$DB" "SELECT status FROM run WHERE id = $run")
	assert_eq "$rc" "$want" "$what: exit status (run status $status; $(tail -2 "$WORK/rig.err"))"
	assert_eq "$status" interrupted "$what: run status"
	assert_complete_iterations_intact "$DB" "$run" "$K"
	assert_eq "$(q "$DB" "SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id
		WHERE v.run_id = $run AND i.status NOT IN ('complete', 'interrupted')")" 0 \
		"$what: iterations neither complete nor interrupted"
	interrupted=$((interrupted + 1))
}

sigs=(INT TERM HUP)
at_start=0
for i in $(seq 0 21); do
	# Some right at the start, most at a random point of the recorded run
	# (which lasts about 3.5 s after it is recorded).
	if [ $((i % 5)) -eq 0 ]; then
		interrupt_once "${sigs[$((i % 3))]}" $((RANDOM % 60)) start
		at_start=$((at_start + 1))
	else
		interrupt_once "${sigs[$((i % 3))]}" $((RANDOM % 2500)) recorded
	fi
done
# A second (third, ...) signal during the cleanup does not abandon it.
for i in 0 1 2; do
	interrupt_once "${sigs[$i]}" $((300 + RANDOM % 2000)) recorded burst
done
[ "$interrupted" -ge $((25 - at_start)) ] ||
	fail "only $interrupted of $((25 - at_start)) signals sent after a run was recorded interrupted it"
echo "$interrupted runs interrupted and cleaned up, $((25 - interrupted)) signalled before recording a run"
