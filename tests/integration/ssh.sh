#!/bin/bash
# boot: ssh end to end against a private OpenSSH sshd on 127.0.0.1 (a free
# high port, a generated host key, an authorized key, everything in the
# test's temp dir; killed on exit). A tiny hackbench + cyclictest plan runs
# through `boot: ssh` as root@127.0.0.1: samples are stored under the ssh
# variant with this machine's kernel release and the requested and applied
# attributes. Then a known_hosts holding another key for the server, with
# strict checking: that variant fails with a clear message (exit 1) and the
# next (local) variant still runs. No sshd, agent or load process is left.
# The first run has monitors: the agent's series are stored per iteration.
# Needs openssh-server, openssh-client, rt-tests (scripts/install-deps).
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/sshd.bash"
for need in hackbench cyclictest; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done
start_sshd
# The same server as seen with a known_hosts holding another key.
ssh-keygen -q -t ed25519 -N '' -f "$WORK/other_host_key"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$WORK/other_host_key.pub")" >"$WORK/wrong_known_hosts"
printf 'UserKnownHostsFile %s\nGlobalKnownHostsFile /dev/null\n' "$WORK/wrong_known_hosts" \
	>"$WORK/wrong_ssh_config"

loads() {
	cat <<EOF2
loads:
  - name: hackbench
    tool: hackbench
    role: background
    repeat: true
    params: {mode: process, ipc: pipe, groups: 1, loops: 100}
    sched: {nice: 5}
  - name: cyclictest
    tool: cyclictest
    role: measured
    timeout_s: 30
    params: {threads: 1, interval_us: 1000, duration_s: 1}
    sched: {policy: other, nice: -2}
EOF2
}
{
	cat <<EOF2
name: ssh-tiny
description: hackbench + cyclictest through boot ssh on 127.0.0.1
iterations: 2
warmup_s: 0.3
monitors: {interval_ms: 200}
variants:
  - {name: over-ssh, boot: ssh, host: 127.0.0.1, port: $port, user: root,
     identity: $WORK/id, workdir: $WORK/remote}
EOF2
	loads
} >"$WORK/ssh.yaml"

DB=$WORK/ssh.db
set +e
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run "$WORK/ssh.yaml" --db "$DB" \
	>"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
cat "$WORK/out" "$WORK/err"
assert_eq "$rc" 0 "exit status of the ssh run"

release=$(uname -r)
assert_eq "$(q "$DB" "SELECT kernel_release FROM variant WHERE name='over-ssh'")" "$release" \
	"kernel release stored for the ssh variant"
n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id WHERE v.name = 'over-ssh' AND s.metric = 'max_latency'")
[ "$n" -ge 2 ] || fail "expected >= 2 cyclictest max_latency samples under over-ssh, got $n"
req=$(q "$DB" "SELECT li.sched_requested FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	JOIN variant v ON v.id = i.variant_id WHERE v.name = 'over-ssh' AND li.name = 'cyclictest' LIMIT 1")
app=$(q "$DB" "SELECT li.sched_applied FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	JOIN variant v ON v.id = i.variant_id WHERE v.name = 'over-ssh' AND li.name = 'cyclictest' LIMIT 1")
assert_contains "$req" "nice=-2" "requested attributes of cyclictest"
assert_contains "$app" "nice=-2" "applied attributes of cyclictest"
# Monitors sampled by the agent where the variant ran ("series" lines),
# stored with each iteration: per-CPU utilisation for every CPU, context
# switches in both iterations, per-task series of the loads' processes.
NCPU=$(grep -c '^cpu[0-9]' /proc/stat)
for it in 1 2; do
	n=$(q "$DB" "SELECT count(DISTINCT s.cpu) FROM series s JOIN iteration i ON i.id = s.iteration_id
		JOIN variant v ON v.id = i.variant_id WHERE v.name = 'over-ssh' AND i.iteration = $it
		AND s.monitor = 'stat' AND s.key = 'user_pct' AND s.cpu IS NOT NULL")
	assert_eq "$n" "$NCPU" "CPUs with stat series of over-ssh iteration $it"
	n=$(q "$DB" "SELECT count(*) FROM series s JOIN iteration i ON i.id = s.iteration_id
		JOIN variant v ON v.id = i.variant_id WHERE v.name = 'over-ssh' AND i.iteration = $it
		AND s.monitor = 'stat' AND s.key = 'ctxt_per_s' AND s.value > 0")
	[ "$n" -ge 1 ] || fail "no positive ctxt_per_s point of over-ssh iteration $it"
done
n=$(q "$DB" "SELECT count(*) FROM series s JOIN iteration i ON i.id = s.iteration_id
	JOIN variant v ON v.id = i.variant_id JOIN load_instance li ON li.iteration_id = i.id
	AND li.pid = s.tgid WHERE v.name = 'over-ssh' AND li.name = 'cyclictest'
	AND s.monitor = 'sched' AND s.key = 'nr_switches'")
[ "$n" -ge 2 ] || fail "expected per-task sched series of cyclictest under over-ssh, got $n"
[ -x "$WORK/remote/bin/schedrig-agent" ] || fail "schedrig-agent was not copied into the workdir"
[ ! -e "$WORK/remote/plan-over-ssh.json" ] || fail "the plan file was left in the workdir"

# run --resume of an ssh variant: the agent's plan holds only what is not
# complete (iteration 2, made to look failed), not iteration 1 again.
q "$DB" "UPDATE iteration SET status = 'failed' WHERE iteration = 2; UPDATE run SET status = 'interrupted'"
first=$(q "$DB" "SELECT id || ' ' || started_at FROM iteration WHERE iteration = 1")
set +e
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run --resume 1 --db "$DB" \
	>"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
assert_eq "$rc" 0 "exit status of the resumed ssh run ($(cat "$WORK/err"))"
assert_eq "$(q "$DB" "SELECT group_concat(iteration || ':' || status) FROM (SELECT * FROM iteration ORDER BY iteration)")" \
	"1:complete,2:complete" "iterations after the resume"
assert_eq "$(q "$DB" "SELECT id || ' ' || started_at FROM iteration WHERE iteration = 1")" "$first" \
	"iteration 1 kept as it was"
assert_eq "$(q "$DB" "SELECT status FROM run")" complete "status of the resumed run"

# Adaptive iterations: the agent gets its whole plan, so an ssh variant runs
# every cell to max, and a note under the tables says so.
sed 's/^iterations: 2$/iterations: {min: 2, max: 3, ci_pct: 0.001}/' "$WORK/ssh.yaml" >"$WORK/adaptive.yaml"
grep -q "ci_pct: 0.001" "$WORK/adaptive.yaml" || fail "no adaptive config made"
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run "$WORK/adaptive.yaml" \
	--db "$WORK/adaptive.db" >"$WORK/out" 2>"$WORK/err" || fail "adaptive ssh run: $(cat "$WORK/err")"
assert_eq "$(q "$WORK/adaptive.db" "SELECT count(*) FROM iteration WHERE status = 'complete'")" 3 \
	"iterations of the adaptive ssh run (max)"
assert_contains "$("$SCHEDRIG" compare --db "$WORK/adaptive.db")" \
	"Iterations: variant over-ssh: boot: ssh runs every cell to max (3 iterations); adaptive stopping applies to boot: local variants" \
	"note of the adaptive ssh run"

# Wrong host key, strict checking: a clear variant failure; local still runs.
{
	cat <<EOF2
name: ssh-badkey
iterations: 1
warmup_s: 0.3
variants:
  - {name: badkey, boot: ssh, host: 127.0.0.1, port: $port, user: root,
     identity: $WORK/id, workdir: $WORK/remote}
  - {name: here, boot: local}
EOF2
	loads
} >"$WORK/badkey.yaml"
set +e
SCHEDRIG_SSH_CONFIG=$WORK/wrong_ssh_config timeout 120 "$SCHEDRIG" run "$WORK/badkey.yaml" \
	--db "$DB" >"$WORK/out2" 2>"$WORK/err2"
rc=$?
set -e
cat "$WORK/out2" "$WORK/err2"
assert_eq "$rc" 1 "exit status with a wrong host key"
assert_contains "$(cat "$WORK/err2")" "variant badkey: ssh root@127.0.0.1:$port: connecting failed: Host key verification failed." \
	"wrong host key message"
n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id WHERE v.name = 'here' AND s.metric = 'max_latency'")
[ "$n" -ge 1 ] || fail "the local variant after the failed one stored no samples"

# Processes of this test: anything started in an ssh session of this sshd
# (the agent and its loads carry SSH_CONNECTION with the port), and anything
# naming the temp dir (the agent binary, the client's control master). Other
# tests may run loads at the same time, so a global pgrep would not do.
leftovers() {
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = $$ ] || [ "$pid" = "$SSHD_PID" ] && continue
		if tr '\0' '\n' <"$p/environ" 2>/dev/null |
			grep -q "^SSH_CONNECTION=.* 127\.0\.0\.1 $port\$" ||
			tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$WORK/"; then
			echo "$pid $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)"
		fi
	done
}
# kexec: a kernel that is not a bzImage fails the variant before anything
# is copied or loaded (a real kexec would reboot this machine: not here).
printf 'not a kernel\n' >"$WORK/not-a-bzImage"
sed -e "s|workdir: $WORK/remote}|workdir: $WORK/remote, kexec: {kernel: $WORK/not-a-bzImage}}|" \
	-e 's/^name: ssh-tiny/name: ssh-kexec/' "$WORK/ssh.yaml" >"$WORK/kexec.yaml"
set +e
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 60 "$SCHEDRIG" run "$WORK/kexec.yaml" --db "$DB" \
	>"$WORK/out4" 2>"$WORK/err4"
rc=$?
set -e
cat "$WORK/out4" "$WORK/err4"
assert_eq "$rc" 1 "exit status with a bad kexec kernel"
assert_contains "$(cat "$WORK/err4")" "variant over-ssh: kexec kernel $WORK/not-a-bzImage: not a readable bzImage" \
	"bad kexec kernel message"

# Ctrl-C in the middle of an iteration: the rig closes the session, the
# agent stops its loads (--watch-stdin) and the rig exits 130.
sed -e 's/duration_s: 1}/duration_s: 30}/' -e 's/timeout_s: 30/timeout_s: 60/' \
	-e 's/^name: ssh-tiny/name: ssh-interrupt/' "$WORK/ssh.yaml" >"$WORK/int.yaml"
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config "$SCHEDRIG" run "$WORK/int.yaml" --db "$DB" \
	>"$WORK/out3" 2>"$WORK/err3" &
rig=$!
# Up to 60 s: ssh, the workdir checks and the copy take several seconds on a
# busy machine of 2 CPUs (the agent was ready after 5.5 s at load average 30).
for _ in $(seq 600); do
	grep -q "agent ready" "$WORK/out3" && break
	sleep 0.1
done
grep -q "agent ready" "$WORK/out3" || { cat "$WORK/out3" "$WORK/err3"; fail "no agent under way"; }
sleep 1.5
[ -n "$(leftovers)" ] || fail "no remote agent or load seen while running"
kill -INT "$rig"
set +e
wait "$rig"
rc=$?
set -e
cat "$WORK/out3" "$WORK/err3"
assert_eq "$rc" 130 "exit status after SIGINT"
for _ in $(seq 100); do
	[ -z "$(leftovers)" ] && break
	sleep 0.1
done

sleep 0.5
left=$(leftovers)
[ -z "$left" ] || fail "processes left behind: $left"
kill "$SSHD_PID"
wait "$SSHD_PID" 2>/dev/null || true
SSHD_PID=
if pgrep -f "sshd -D -e -f $WORK/sshd_config" >/dev/null; then
	fail "sshd is still running"
fi
echo "ssh: ok"
