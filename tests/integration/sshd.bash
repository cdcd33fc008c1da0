# A private OpenSSH sshd on 127.0.0.1 for the boot: ssh tests (sourced after
# lib.sh, not run). start_sshd sets port and writes, in $WORK: host_key,
# id (the client key, authorized for root), known_hosts trusting the host
# key and ssh_config pointing at it (for SCHEDRIG_SSH_CONFIG, so the user's
# known_hosts stays untouched). The server is killed on exit.
# start_sshd [CONFIG_LINE [KEY_OPTIONS]]: one more sshd_config line, and
# options in front of the authorized key (authorized_keys(5) format).
for need in /usr/sbin/sshd ssh ssh-keygen python3; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done

SSHD_PID=
stop_sshd() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null || true
		wait "$SSHD_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap stop_sshd EXIT

start_sshd() {
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	ssh-keygen -q -t ed25519 -N '' -f "$WORK/host_key"
	ssh-keygen -q -t ed25519 -N '' -f "$WORK/id"
	echo "${2:+$2 }$(cat "$WORK/id.pub")" >"$WORK/authorized_keys"
	mkdir -p /run/sshd # privilege separation directory
	cat >"$WORK/sshd_config" <<-EOF2
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
	${1:-}
	EOF2
	/usr/sbin/sshd -D -e -f "$WORK/sshd_config" 2>"$WORK/sshd.log" &
	SSHD_PID=$!
	for _ in $(seq 50); do
		(echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
		sleep 0.1
	done
	(echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null || { cat "$WORK/sshd.log"; fail "sshd did not start"; }
	echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$WORK/host_key.pub")" >"$WORK/known_hosts"
	printf 'UserKnownHostsFile %s\nGlobalKnownHostsFile /dev/null\n' "$WORK/known_hosts" \
		>"$WORK/ssh_config"
}
