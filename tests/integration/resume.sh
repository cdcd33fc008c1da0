#!/bin/bash
# kill -9 of the rig in the middle of a run (2 cells x 3 iterations, hackbench
# with its 40 worker processes in the background): no load survives it, not
# even hackbench's workers (grandchildren of the rig); the database is intact;
# `schedrig run --resume RUN` runs exactly the (variant, cell, iteration)
# triples without a complete record, keeps the complete ones untouched, and
# the samples are exact with none stored twice (a unique key forbids it).
# The resumed run is itself killed once and resumed again.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

DB=$WORK/db/results.db
cat >"$WORK/resume.yaml" <<'EOF'
name: resume-me
iterations: 3
warmup_s: 0.2
loads:
  - name: hb
    tool: hackbench
    role: background
    params: {mode: process, ipc: pipe, groups: 1, loops: 10000000}
  - tool: cyclictest
    timeout_s: 30
    params: {threads: 1, interval_us: [1000, 2000], duration_s: 2, mlock: false}
EOF

complete() { q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'"; }

# wait_complete N: until N iterations are complete (at most 30 s).
wait_complete() {
	local i
	for i in $(seq 300); do
		[ "$(complete 2>/dev/null || echo 0)" -ge "$1" ] && return 0
		kill -0 "$RIG_PID" 2>/dev/null || fail "the rig ended before $1 complete iterations: $(cat "$WORK/rig.err")"
		sleep 0.1
	done
	fail "no $1 complete iterations after 30 s"
}

# kill9_mid_iteration: SIGKILL the rig at a random point of the iteration
# after the one just completed, then check that nothing survives it.
kill9_mid_iteration() {
	local n=0 i
	# Wait for hackbench and its 40 workers (grandchildren of the rig).
	for i in $(seq 100); do
		n=$(($(leftovers | grep -c hackbench || true)))
		[ "$n" -ge 41 ] && break
		sleep 0.05
	done
	[ "$n" -ge 41 ] || fail "hackbench should be running with its workers, found $n processes"
	sleep "0.$((RANDOM % 400))"
	kill -KILL "$RIG_PID" 2>/dev/null ||
		fail "the rig ended before kill -9 ($(complete) complete iterations): $(tail -3 "$WORK/rig.err")"
	wait "$RIG_PID" 2>/dev/null || true
	assert_no_leftovers "after kill -9 of the rig"
	assert_integrity "$DB"
}

# 1. Start, kill -9 in iteration 3 (cell 1).
start_rig run --quiet --db "$DB" "$WORK/resume.yaml"
wait_complete 2
kill9_mid_iteration
run=$(q "$DB" 'SELECT max(id) FROM run')
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = $run")" running "status of the killed run"
# Readers see that its rig is gone (the row says running, the pid is dead).
list=$("$SCHEDRIG" list --db "$DB" | awk -v id="$run" '$1 == id { print $NF }')
assert_eq "$list" abandoned "schedrig list status of the killed run"
assert_contains "$("$SCHEDRIG" show --db "$DB" "$run")" "run $run: resume-me (abandoned)
  its schedrig (pid $RIG_PID) is gone; finish it with schedrig run --resume $run" \
	"schedrig show of the killed run"
assert_contains "$("$SCHEDRIG" report --db "$DB" "$run")" \
	"PARTIAL: this run is abandoned; its tables hold the $(complete) complete iteration(s) stored so far" \
	"report of the killed run"
json=$("$SCHEDRIG" compare --db "$DB" --format json "$run")
assert_contains "$json" "\"Partial: run $run is abandoned; its tables hold the iterations complete so far (schedrig run --resume finishes it)\"" \
	"JSON notes of the killed run"
done1=$(complete)
[ "$done1" -ge 2 ] && [ "$done1" -lt 6 ] || fail "complete iterations after kill -9: $done1"
# Only complete iterations are stored (the killed one never committed).
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status != 'complete'")" 0 "incomplete iterations stored"
kept=$(q "$DB" "SELECT group_concat(id || '@' || started_at) FROM iteration ORDER BY id")
kept_samples=$(q "$DB" "SELECT group_concat(load_instance_id || ':' || seq)
	FROM (SELECT * FROM sample ORDER BY load_instance_id, seq)")
kept_last=$(q "$DB" "SELECT max(load_instance_id) FROM sample")

# 2. Resume, killed again after one more iteration.
: >"$WORK/rig.out"
start_rig run --resume "$run" --db "$DB"
wait_complete $((done1 + 1))
list=$("$SCHEDRIG" list --db "$DB" | awk -v id="$run" '$1 == id { print $NF }')
assert_eq "$list" running "schedrig list status while the resumed run goes on"
kill9_mid_iteration
done2=$(complete)
[ "$done2" -gt "$done1" ] && [ "$done2" -lt 6 ] || fail "complete iterations after the first resume: $done2"
assert_eq "$(grep -c ' iteration [0-9]/3:' "$WORK/rig.out")" $((done2 - done1)) \
	"iterations logged by the first resume"

# 3. Resume to the end.
: >"$WORK/rig.out"
start_rig run --resume "$run" --db "$DB"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 0 "exit status of the last resume ($(cat "$WORK/rig.err"))"
assert_no_leftovers "after the last resume"
assert_integrity "$DB"
assert_eq "$(grep -c ' iteration [0-9]/3:' "$WORK/rig.out")" $((6 - done2)) \
	"iterations run by the last resume (only the missing ones)"
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = $run")" complete "status of the resumed run"
assert_eq "$(q "$DB" 'SELECT count(*) FROM run')" 1 "runs (resume adds none)"
assert_eq "$(complete)" 6 "complete iterations"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration")" 6 "iterations"
assert_eq "$(q "$DB" "SELECT count(DISTINCT variant_id || '/' || cell_id || '/' || iteration) FROM iteration")" 6 \
	"distinct (variant, cell, iteration) triples"
assert_eq "$(q "$DB" "SELECT group_concat(c.seq || ':' || i.iteration, ' ') FROM iteration i
	JOIN cell c ON c.id = i.cell_id ORDER BY c.seq, i.iteration")" "0:1 0:2 0:3 1:1 1:2 1:3" "triples"
# Exactly 3 samples (min, avg, max) per cyclictest instance, 6 instances; the
# stopped hackbench yields none.
assert_eq "$(q "$DB" 'SELECT count(*) FROM sample')" 18 "samples"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance WHERE tool = 'cyclictest' AND state = 'ok'")" 6 \
	"cyclictest instances"
assert_eq "$(q "$DB" "SELECT count(*) FROM (SELECT 1 FROM sample GROUP BY load_instance_id, metric, op
	HAVING count(*) > 1)")" 0 "samples stored twice"
assert_complete_iterations_intact "$DB" "$run" 3
# The iterations completed before the kill were not run again.
now=$(q "$DB" "SELECT group_concat(id || '@' || started_at) FROM iteration WHERE id IN
	(SELECT id FROM iteration ORDER BY id LIMIT $done1) ORDER BY id")
assert_eq "$now" "$kept" "iterations completed before kill -9"
now=$(q "$DB" "SELECT group_concat(load_instance_id || ':' || seq) FROM (SELECT * FROM sample
	WHERE load_instance_id <= $kept_last ORDER BY load_instance_id, seq)")
assert_eq "$now" "$kept_samples" "samples stored before kill -9"

# 4. The unique keys refuse a second copy of an iteration or a sample.
rc=0
q "$DB" "INSERT INTO iteration (variant_id, cell_id, iteration, status)
	SELECT variant_id, cell_id, iteration, 'complete' FROM iteration LIMIT 1" 2>"$WORK/uniq.err" || rc=$?
[ "$rc" -ne 0 ] || fail "a second record of an iteration was accepted"
assert_contains "$(cat "$WORK/uniq.err")" "UNIQUE constraint failed" "duplicate iteration"
rc=0
q "$DB" "INSERT INTO sample_value (load_instance_id, seq, key_id, value)
	SELECT load_instance_id, seq, key_id, value FROM sample_value LIMIT 1" \
	2>"$WORK/uniq.err" || rc=$?
[ "$rc" -ne 0 ] || fail "a second copy of a sample was accepted"
assert_contains "$(cat "$WORK/uniq.err")" "UNIQUE constraint failed" "duplicate sample"

# 5. Resuming a complete run says so and exits 0; it runs nothing and
# changes nothing: status, ended_at (whole seconds, hence the sleep) and
# events stay as they are.
ended=$(q "$DB" "SELECT ended_at FROM run WHERE id = $run")
events=$(q "$DB" "SELECT count(*) || ':' || max(id) FROM event WHERE run_id = $run")
sleep 1.1
: >"$WORK/rig.out"
: >"$WORK/rig.err"
start_rig run --resume "$run" --db "$DB"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 0 "exit status of resuming a complete run ($(cat "$WORK/rig.err"))"
assert_eq "$(cat "$WORK/rig.out")" "run $run is complete: nothing to resume" "what resuming a complete run says"
assert_eq "$(cat "$WORK/rig.err")" "" "stderr of resuming a complete run"
assert_eq "$(q "$DB" 'SELECT count(*) FROM sample')" 18 "samples after resuming a complete run"
assert_eq "$(q "$DB" "SELECT status || ' ' || ended_at FROM run WHERE id = $run")" "complete $ended" \
	"status and ended_at after resuming a complete run"
assert_eq "$(q "$DB" "SELECT count(*) || ':' || max(id) FROM event WHERE run_id = $run")" "$events" \
	"events after resuming a complete run"
