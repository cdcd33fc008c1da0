#!/bin/bash
# One run measures on a machine at a time: a second `schedrig run` waits for
# the first to end, saying for whom, and starts its iterations after the
# first has ended; --wait-s bounds the wait (nothing recorded when it runs
# out); --concurrent runs beside it and its provenance says with whom.
# The first run measures until the test has seen all that (it is then
# interrupted), so a loaded machine cannot end it too soon.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

cat >"$WORK/slow.yaml" <<EOF
name: slow
iterations: 1000
loads:
  - {tool: fake, params: {sleep_ms: 200}}
EOF
cat >"$WORK/quick.yaml" <<EOF
name: quick
iterations: 1
loads:
  - tool: fake
EOF
A=$WORK/a.db
B=$WORK/b.db
wait_started() { # DB: until the first run of DB has an iteration (60 s at most)
	for _ in $(seq 600); do
		[ "$(q "$1" "SELECT count(*) FROM iteration" 2>/dev/null || echo 0)" -ge 1 ] && return 0
		sleep 0.1
	done
	fail "the first run did not start: $(cat "$WORK/rig.err")"
}

start_rig run "$WORK/slow.yaml" --db "$A" --quiet
wait_started "$A"
# --wait-s 0: refused at once, nothing recorded.
rc=0
"$SCHEDRIG" run "$WORK/quick.yaml" --db "$B" --wait-s 0 >"$WORK/b0.out" 2>&1 || rc=$?
assert_eq "$rc" "1" "exit status when the wait runs out ($(cat "$WORK/b0.out"))"
assert_contains "$(cat "$WORK/b0.out")" "another run measures on this machine (pid $RIG_PID db $A" "who measures"
assert_contains "$(cat "$WORK/b0.out")" "gave up waiting" "why nothing ran"
assert_eq "$(q "$B" "SELECT count(*) FROM run")" "0" "no run recorded after giving up"
# --concurrent: beside it, and said so.
"$SCHEDRIG" run "$WORK/quick.yaml" --db "$B" --concurrent --quiet >"$WORK/bc.out" 2>&1 ||
	fail "concurrent run: $(cat "$WORK/bc.out")"
kill -0 "$RIG_PID" 2>/dev/null || fail "the first run ended before the concurrent one: no test"
assert_eq "$(q "$B" "SELECT message FROM event WHERE kind = 'provenance' AND message LIKE 'concurrent:%'")" \
	"concurrent: run with --concurrent: it did not wait for other runs measuring on this machine; when it began, another was measuring: pid $RIG_PID db $A" \
	"the concurrent run's provenance"
# Without: it waits, says so, and measures after the first has ended.
"$SCHEDRIG" run "$WORK/quick.yaml" --db "$B" --quiet >"$WORK/b.out" 2>&1 &
WAITER=$!
want="another run measures on this machine (pid $RIG_PID db $A): waiting for it to end"
for _ in $(seq 600); do
	grep -qF "$want" "$WORK/b.out" && break
	kill -0 "$WAITER" 2>/dev/null || break
	sleep 0.1
done
assert_contains "$(cat "$WORK/b.out")" "$want" "the waiting message"
kill -0 "$RIG_PID" 2>/dev/null || fail "the first run ended before the waiting one waited: no test"
kill -INT "$RIG_PID"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" "130" "the first run interrupted by SIGINT ($(cat "$WORK/rig.err"))"
wait "$WAITER" || fail "waiting run: $(cat "$WORK/b.out")"
a_end=$(q "$A" "SELECT max(ended_at) FROM iteration")
b_start=$(q "$B" "SELECT min(i.started_at) FROM iteration i JOIN variant v ON v.id = i.variant_id WHERE v.run_id = 2")
[[ "$b_start" > "$a_end" || "$b_start" == "$a_end" ]] ||
	fail "the waiting run began measuring at $b_start, before the first ended at $a_end"
assert_eq "$(q "$B" "SELECT count(*) FROM event WHERE run_id = 2 AND message LIKE 'concurrent:%'")" "0" \
	"no concurrent note on the run that waited"
echo ok
