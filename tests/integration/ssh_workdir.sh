#!/bin/bash
# boot: ssh keeps what it copies private on the test machine, and hands ssh
# paths it can read: against a private sshd on 127.0.0.1 (root login), a
# workdir owned by another user, one that is a symbolic link, one writable
# by others, one below a directory others may write without the sticky bit:
# each refused before anything is copied, saying why. The default workdir
# is ~/.cache/schedrig of the login user (HOME set by the authorized key
# here), created mode 0700. A --db directory with a blank and '%' (the
# ControlPath and known_hosts file of the run live there) works.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sshd.bash"
# The login gets HOME=$WORK/home (authorized_keys environment=).
mkdir -p "$WORK/home"
start_sshd "PermitUserEnvironment yes" "environment=\"HOME=$WORK/home\""

# config WORKDIR_LINE DB: run a one-iteration fake load over ssh.
run_with() {
	cat >"$WORK/w.yaml" <<EOF
name: ssh-workdir
iterations: 1
variants:
  - {name: far, boot: ssh, host: 127.0.0.1, port: $port, user: root,
     identity: $WORK/id, strict_host_key: false$1}
loads:
  - tool: fake
EOF
	rc=0
	SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run "$WORK/w.yaml" --db "$2" \
		>"$WORK/out" 2>&1 || rc=$?
}

# Refused workdirs: nothing copied into them.
mkdir -p "$WORK/theirs" "$WORK/open" "$WORK/shared/sub" "$WORK/real"
chown 65534:65534 "$WORK/theirs"
chmod 0777 "$WORK/open"
chmod 0777 "$WORK/shared"
ln -s "$WORK/real" "$WORK/link"
for case in "theirs:is owned by uid 65534, not by the login user (uid 0)" \
	"open:is writable by other users (mode drwxrwxrwx)" \
	"link:is a symbolic link" \
	"shared/sub:$WORK/shared is writable by other users (mode drwxrwxrwx)"; do
	dir=$WORK/${case%%:*}
	run_with ", workdir: $dir" "$WORK/refused.db"
	assert_eq "$rc" "1" "exit status with workdir $dir ($(cat "$WORK/out"))"
	assert_contains "$(cat "$WORK/out")" "schedrig-workdir: " "workdir $dir refused"
	assert_contains "$(cat "$WORK/out")" "${case#*:}" "why workdir $dir is refused"
	[ ! -e "$dir/bin/schedrig-agent" ] || fail "schedrig-agent copied into refused $dir"
done
[ ! -e "$WORK/real/bin" ] || fail "something was created through the link"

# The default: ~/.cache/schedrig, private; and a --db directory with a
# blank and a '%'.
DBDIR="$WORK/a b%d" # short: the ControlPath socket lives there too
mkdir -p "$DBDIR"
# Short enough that the run directory holds the ControlPath socket itself
# (ssh.c SSH_CTL_PATH_MAX), so the blank and '%' reach ControlPath.
[ $((${#DBDIR} + 7)) -le 44 ] || fail "test directory $DBDIR too long for this test"
run_with "" "$DBDIR/w.db"
assert_eq "$rc" "0" "run with the default workdir ($(cat "$WORK/out"))"
assert_eq "$(stat -c %a "$WORK/home/.cache/schedrig")" "700" "default workdir mode"
assert_eq "$(stat -c %a "$WORK/home/.cache/schedrig/bin")" "700" "bin mode"
[ -x "$WORK/home/.cache/schedrig/bin/schedrig-agent" ] || fail "schedrig-agent not in the default workdir"
assert_eq "$(q "$DBDIR/w.db" "SELECT count(*) FROM sample")" "1" "the sample over ssh"
[ -s "$DBDIR/runs/1/far-known_hosts" ] || fail "no known_hosts of the run in $DBDIR/runs/1"
echo ok
