#!/bin/bash
# trace: through boot: ssh (a private sshd on 127.0.0.1, so the "remote"
# tracefs is this machine's): the remote agent captures the traced
# iteration with its own instance, sends the trace back, and removes the
# instance when its plan ends; the host stores it as a local trace, with
# every load's window samples from the remote side.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sshd.bash"
[ "$(id -u)" = 0 ] || skip "tracefs needs root"
command -v cyclictest >/dev/null || skip "cyclictest is not installed"
start_sshd
cd "$WORK"
cat >s.yaml <<EOF
name: ssh-trace
iterations: 2
trace: {events: sched, iterations: [2]}
variants:
  - {name: remote, boot: ssh, host: 127.0.0.1, port: $port, user: root,
     identity: $WORK/id, workdir: $WORK/remote}
loads:
  - {name: ct, tool: cyclictest, params: {threads: 1, interval_us: 1000, duration_s: 1}}
EOF
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run s.yaml --db s.db --quiet \
	>out 2>err || fail "run: $(tail -5 err)"
assert_eq "$(q s.db "SELECT i.iteration || ' ' || t.path FROM trace t JOIN iteration i ON i.id = t.iteration_id")" \
	"2 runs/1/traces/remote-c1-it2.trace.gz" "the remote trace row"
zcat runs/1/traces/remote-c1-it2.trace.gz >trace.txt || fail "not gzip"
pid=$(q s.db "SELECT pid FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	WHERE i.iteration = 2")
grep -q "^# task ct 0 $pid " trace.txt || fail "no task line of the remote cyclictest ($pid)"
root=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
left=$(ls "$root/instances" | grep '^schedrig-1-' || true)
[ -z "$left" ] || fail "the remote agent left its instance: $left"
"$SCHEDRIG" trace --db s.db --load ct >t.out 2>terr || fail "trace: $(cat terr)"
assert_contains "$(cat t.out)" "ct wakeup_latency_us (us, lower is better), variant remote" "the table"
assert_eq "$(q s.db "SELECT count(*) FROM window_sample w JOIN sample_key k ON k.id = w.key_id
	WHERE k.metric = 'sched_run_ms'")" 2 "the remote window samples"
echo ok
