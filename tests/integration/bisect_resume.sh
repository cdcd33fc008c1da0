#!/bin/bash
# schedrig bisect --resume after an interrupt: SIGINT in the middle of a
# step (its run is passed the signal and kept as interrupted); the resumed
# bisection measures nothing that was finished (the complete runs keep
# their iterations, no new run for them), finishes the interrupted run with
# run --resume (its complete iterations kept), and finds the same point as
# an uninterrupted one. kill -9 of the bisection mid-step: its run stops
# too (nothing left running), and --resume finishes the bisection.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

SLEEP_MS=300 series slow 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
decided() { q "$DB" "SELECT count(*) FROM bisect_point WHERE verdict IS NOT NULL" 2>/dev/null || echo 0; }
# complete iterations of the run of the step in flight (the 6th run: p6,
# after the ends' two runs each and p4's)
in_flight() {
	q "$DB" "SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id
		WHERE v.run_id = 6 AND i.status = 'complete'" 2>/dev/null || echo 0
}

mkdir rig
(cd rig && exec env --default-signal=INT "$SCHEDRIG" bisect ../slow.yaml --good p0 --bad p8 \
	--db "$DB" >"$WORK/first.out" 2>&1) &
rig=$!
for i in $(seq 600); do
	[ "$(decided)" -ge 3 ] && [ "$(in_flight)" -ge 1 ] && break
	kill -0 "$rig" 2>/dev/null || fail "bisect ended early: $(cat "$WORK/first.out")"
	sleep 0.05
done
[ "$(in_flight)" -ge 1 ] || fail "the 6th run never completed an iteration"
kill -INT "$rig"
rc=0
wait "$rig" || rc=$?
assert_eq "$rc" 130 "exit status after SIGINT"
assert_contains "$(cat "$WORK/first.out")" "schedrig bisect --resume 1 continues it" "says how to resume"
assert_eq "$(q "$DB" "SELECT status FROM bisection")" interrupted "bisection status"
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = 6")" interrupted "the step's run"
assert_none_left "$WORK/rig" "after the interrupt"
before=$(q "$DB" "SELECT group_concat(id) FROM (SELECT id FROM iteration WHERE status = 'complete' ORDER BY id)")
runs_before=$(q "$DB" "SELECT count(*) FROM run")

out=$("$SCHEDRIG" bisect --resume --db "$DB" 2>&1) || fail "resume exited $?: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "the same answer"
assert_eq "$(q "$DB" "SELECT count(*) FROM run")" 28 "one run per measurement, the interrupted one resumed"
assert_eq "$runs_before" 6 "6 runs before the resume"
after=$(q "$DB" "SELECT group_concat(id) FROM (SELECT id FROM iteration WHERE status = 'complete'
	AND id <= $(q "$DB" "SELECT max(id) FROM iteration WHERE id IN (${before})") ORDER BY id)")
assert_eq "$after" "$before" "every complete iteration kept, none measured again"
assert_eq "$(q "$DB" "SELECT group_concat(n, ' ') FROM (SELECT count(*) n FROM iteration i JOIN variant v
	ON v.id = i.variant_id WHERE v.run_id <= 5 AND i.status = 'complete' GROUP BY v.run_id ORDER BY v.run_id)")" \
	"3 3 2 2 3" "the finished runs (the ends, their top-ups, p4): their iterations, no more"
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = 6")" complete "the interrupted run finished"
assert_eq "$(q "$DB" "SELECT count(*) FROM bisect_run WHERE run_id = 6")" 1 "and stayed the step's run"
assert_eq "$(measured "$DB" 1)" "0 8 4 6 5" "points measured"
check "$DB" 1

# kill -9 of the bisection while a step runs: the run gets SIGTERM
# (PR_SET_PDEATHSIG), stops as interrupted, and nothing is left running.
SLEEP_MS=300 series killed 100:1 100:1 100:1 120:1 120:1
(cd rig && exec "$SCHEDRIG" bisect ../killed.yaml --good p0 --bad p4 --db "$DB" \
	>"$WORK/killed.out" 2>&1) &
rig=$!
running() { q "$DB" "SELECT count(*) FROM run WHERE status = 'running'" 2>/dev/null || echo 0; }
for i in $(seq 600); do
	[ "$(running)" -ge 1 ] && break
	sleep 0.05
done
[ "$(running)" -ge 1 ] || fail "no step of bisection 2 started: $(cat "$WORK/killed.out")"
kill -KILL "$rig"
wait "$rig" 2>/dev/null || true
assert_none_left "$WORK/rig" "after kill -9 of the bisection"
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = (SELECT max(id) FROM run)")" interrupted \
	"the step's run stopped as interrupted"
out=$("$SCHEDRIG" bisect --resume 2 --db "$DB" 2>&1) || fail "resume after kill -9 exited $?: $out"
assert_contains "$out" "First bad point: p3 (confirmed: p2 -> p3" "found after kill -9 and resume"
