#!/bin/bash
# sched: cpus: of a boot: ssh variant cannot be checked against the remote's
# CPUs up front (check-config and --dry-run accept a list beyond this
# machine's); on the remote a list naming a CPU it lacks fails the load,
# recorded with a reason naming the list: whether none of its CPUs is there
# (sched_setaffinity refuses) or only some are (the kernel would run the
# load on the rest: not what the config asked for). A list the remote has
# runs. Against a private sshd on 127.0.0.1 (as ssh.sh), so the remote has
# this machine's CPUs.
source "$(dirname "$0")/lib.sh"

for need in /usr/sbin/sshd ssh ssh-keygen; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done

SSHD_PID=
cleanup() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null || true
		wait "$SSHD_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$WORK/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$WORK/id"
cp "$WORK/id.pub" "$WORK/authorized_keys"
mkdir -p /run/sshd # privilege separation directory
cat >"$WORK/sshd_config" <<EOF2
ListenAddress 127.0.0.1
Port $port
HostKey $WORK/host_key
PidFile $WORK/sshd.pid
UsePAM no
PermitRootLogin yes
PasswordAuthentication no
KbdInteractiveAuthentication no
AuthorizedKeysFile $WORK/authorized_keys
StrictModes no
MaxSessions 20
MaxStartups 50
EOF2
/usr/sbin/sshd -D -e -f "$WORK/sshd_config" 2>"$WORK/sshd.log" &
SSHD_PID=$!
for _ in $(seq 50); do
	(echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
	sleep 0.1
done
(echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null || { cat "$WORK/sshd.log"; fail "sshd did not start"; }

# The client trusts the generated host key through an ssh_config the rig
# is pointed at (SCHEDRIG_SSH_CONFIG); the user's known_hosts stays untouched.
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$WORK/host_key.pub")" >"$WORK/known_hosts"
printf 'UserKnownHostsFile %s\nGlobalKnownHostsFile /dev/null\n' "$WORK/known_hosts" >"$WORK/ssh_config"

NCPU=$(nproc --all)
cat >"$WORK/cpus.yaml" <<EOF2
name: ssh-cpus
iterations: 1
variants:
  - {name: over-ssh, boot: ssh, host: 127.0.0.1, port: $port, user: root,
     identity: $WORK/id, workdir: $WORK/remote}
loads:
  - name: none-there
    tool: fake
    sched: {cpus: "$NCPU-$((NCPU + 1))"}
  - name: some-there
    tool: fake
    sched: {cpus: "0-$NCPU"}
  - name: all-there
    tool: fake
    sched: {cpus: "0-$((NCPU - 1))"}
EOF2
"$SCHEDRIG" check-config "$WORK/cpus.yaml" >"$WORK/out" 2>&1 || fail "check-config: $(cat "$WORK/out")"
"$SCHEDRIG" run --dry-run "$WORK/cpus.yaml" >"$WORK/out" 2>&1 || fail "--dry-run: $(cat "$WORK/out")"

DB=$WORK/ssh.db
rc=0
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run "$WORK/cpus.yaml" --db "$DB" \
	>"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "exit status ($(cat "$WORK/out" "$WORK/err"))"
state() { # LOAD: state and reason of its instance
	q "$DB" "SELECT state || ': ' || coalesce(reason, '') FROM load_instance WHERE name = '$1'"
}
assert_eq "$(state none-there)" "failed: cpus $NCPU-$((NCPU + 1)): not every CPU of the list is on this machine or allowed to the rig (sched_setaffinity: Invalid argument)" \
	"a list of CPUs the remote lacks"
assert_eq "$(state some-there)" "failed: cpus 0-$NCPU: not every CPU of the list is on this machine or allowed to the rig (sched_setaffinity: Invalid argument)" \
	"a list with one CPU the remote lacks"
assert_eq "$(state all-there)" "ok: " "a list of the remote's CPUs"
assert_contains "$(q "$DB" "SELECT sched_applied FROM load_instance WHERE name = 'all-there'")" \
	"cpus=0-$((NCPU - 1))" "applied affinity"
assert_contains "$(q "$DB" "SELECT group_concat(message, '|') FROM event WHERE kind = 'failure'")" \
	"load some-there: failed: cpus 0-$NCPU: not every CPU" "the recorded failure"
