#!/bin/bash
# How a trace fails, always out loud. An event this kernel lacks: check-config
# and run refuse before anything runs (exit 2), naming the event's file,
# and no database is made. Not root: refused, saying why. A buffer too small
# for the event rate (64 KiB per CPU under hackbench): the run goes on, the
# lost events are counted in the trace row, a warning event names the
# trace file and the count, and schedrig trace says under its tables how
# many events the trace lost.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "tracefs needs root"
command -v hackbench >/dev/null || skip "hackbench is not installed"
cd "$WORK"
cat >bad.yaml <<'EOF'
name: bad-event
iterations: 1
trace: {events: [sched_switch, sched_no_such_event]}
loads:
  - {name: hb, tool: hackbench, params: {groups: 1, loops: 10}}
EOF
rc=0
"$SCHEDRIG" check-config bad.yaml >cc.out 2>&1 || rc=$?
assert_eq "$rc" 2 "check-config of a missing event"
assert_contains "$(cat cc.out)" "trace: this kernel has no trace event sched:sched_no_such_event" "check-config"
assert_contains "$(cat cc.out)" "events/sched/sched_no_such_event is absent" "the file named"
rc=0
"$SCHEDRIG" run bad.yaml --db bad.db >run.out 2>&1 || rc=$?
assert_eq "$rc" 2 "run of a missing event"
[ ! -e bad.db ] || fail "a refused run made a database"

if command -v setpriv >/dev/null; then
	chmod 755 "$WORK"
	rc=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$SCHEDRIG" check-config \
		"$WORK/bad.yaml" >user.out 2>&1 || rc=$?
	assert_eq "$rc" 2 "check-config as nobody"
	assert_contains "$(cat user.out)" "trace: capturing a trace needs root" "as nobody"
fi

cat >small.yaml <<'EOF'
name: small-buffer
iterations: 1
trace: {events: [sched_switch, sched_waking, sched_wakeup], buffer_kb: 64}
loads:
  - {name: hb, tool: hackbench, params: {groups: 4, loops: 800}}
EOF
"$SCHEDRIG" run small.yaml --db s.db --quiet >s.out 2>s.err || fail "run: $(cat s.err)"
lost=$(q s.db "SELECT lost_events FROM trace")
[ "${lost:-0}" -gt 0 ] || fail "64 KiB per CPU lost nothing under hackbench (lost '$lost'); the test needs an overrun"
msg=$(q s.db "SELECT message FROM event WHERE kind = 'warning'")
assert_contains "$msg" "trace runs/1/traces/running-c1-it1.trace.gz lost $lost event(s)" "the warning event"
assert_contains "$msg" "raise trace: buffer_kb, now 64 KiB per CPU" "the advice"
assert_contains "$(cat s.err)" "lost $lost event(s)" "the warning on stderr"
"$SCHEDRIG" trace --db s.db >t.out 2>t.err || fail "trace: $(cat t.err)"
note=$(grep '^Lost: ' t.out || true)
assert_contains "$note" "event(s) lost" "the Lost note"
n=$(echo "$note" | sed -n 's/.*iteration 1: \([0-9]*\) event(s) lost.*/\1/p')
assert_eq "$n" "$lost" "the lost events the note says"
echo ok
