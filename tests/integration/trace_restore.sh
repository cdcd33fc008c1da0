#!/bin/bash
# A trace instance never outlives its run unnoticed. Ctrl-C in the middle
# of a traced window: the instance is taken down and its journal row
# marked restored, the iteration stored as interrupted. kill -9 there: the
# instance stays (with tracing on), every run on the machine refuses to
# start naming the database, and schedrig restore takes it down (events
# off, tracing off, removed), after which runs start again.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "tracefs needs root"
command -v cyclictest >/dev/null || skip "cyclictest is not installed"
cd "$WORK"
cat >long.yaml <<'EOF'
name: long-trace
iterations: 1
trace: sched
loads:
  - {name: ct, tool: cyclictest, params: {threads: 1, interval_us: 1000, duration_s: 30}}
EOF

# wait_instance DB: the path of the run's journalled instance once it is there
wait_instance() {
	local p
	for i in $(seq 100); do
		p=$(q "$1" "SELECT path FROM knob WHERE kind = 'trace_instance'" 2>/dev/null || true)
		[ -n "$p" ] && [ -d "$p" ] && [ "$(cat "$p/tracing_on" 2>/dev/null)" = 1 ] &&
			{ echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}

# Ctrl-C
"$SCHEDRIG" run long.yaml --db int.db --quiet >int.out 2>&1 &
pid=$!
inst=$(wait_instance int.db) || { kill -9 $pid; fail "no traced window began"; }
kill -INT $pid
rc=0
wait $pid || rc=$?
assert_eq "$rc" 130 "exit status after SIGINT ($(cat int.out))"
[ ! -e "$inst" ] || fail "Ctrl-C left $inst"
[ -n "$(q int.db "SELECT restored_at FROM knob WHERE kind = 'trace_instance'")" ] ||
	fail "the instance is not marked restored"
assert_eq "$(q int.db "SELECT status FROM iteration")" interrupted "the iteration"

# kill -9
"$SCHEDRIG" run long.yaml --db k.db --quiet >k.out 2>&1 &
pid=$!
inst=$(wait_instance k.db) || { kill -9 $pid; fail "no traced window began"; }
kill -9 $pid
wait $pid 2>/dev/null || true
[ -d "$inst" ] || fail "the instance went with the rig: nothing to restore"
assert_eq "$(cat "$inst/tracing_on")" 1 "a killed rig's instance traces on"
cat >short.yaml <<'EOF'
name: short
iterations: 1
loads:
  - {name: ct, tool: cyclictest, params: {threads: 1, interval_us: 1000, duration_s: 1}}
EOF
rc=0
"$SCHEDRIG" run short.yaml --db other.db --quiet >refused.out 2>&1 || rc=$?
assert_eq "$rc" 1 "a run while the instance is left"
assert_contains "$(cat refused.out)" "schedrig restore --db $WORK/k.db" "the refusal"
"$SCHEDRIG" restore --db k.db >restore.out 2>&1 || fail "restore: $(cat restore.out)"
assert_contains "$(cat restore.out)" "removed the trace instance $inst" "restore"
[ ! -e "$inst" ] || fail "restore left $inst"
[ -n "$(q k.db "SELECT restored_at FROM knob WHERE kind = 'trace_instance'")" ] ||
	fail "restore did not mark the row"
"$SCHEDRIG" restore --db k.db >again.out 2>&1 || fail "restore again: $(cat again.out)"
assert_contains "$(cat again.out)" "nothing to restore" "restore again"
"$SCHEDRIG" run short.yaml --db other.db --quiet >ok.out 2>&1 || fail "run after restore: $(cat ok.out)"
echo ok
