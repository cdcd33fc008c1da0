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

source "$(dirname "$0")/sshd.bash"
start_sshd

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
