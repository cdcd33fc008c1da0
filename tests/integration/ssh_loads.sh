#!/bin/bash
# The built-in loads through boot: ssh (a private OpenSSH sshd on 127.0.0.1,
# sshd.bash): tcp-rr in the background until the measured loads end (stopped
# there, and parsed: it reports what it measured up to the stop),
# wakeup-lat, kernbench on a tiny kernel-like tree (kerntree.bash) and oltp
# (a private MariaDB server) measured. Only the schedrig binary goes to the
# remote side; each load yields samples there, stored under the ssh variant
# with the remote kernel's release, and the iteration is complete.
# Needs openssh-server, MariaDB and sysbench (scripts/install-deps).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sshd.bash"
source "$(dirname "$0")/kerntree.bash"
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] ||
	fail "mariadbd not installed (scripts/install-deps: mariadb-server)"
command -v sysbench >/dev/null || fail "sysbench not installed (scripts/install-deps)"
start_sshd
make_tiny_tree "$WORK/tree"

DB=$WORK/l.db
cat >"$WORK/loads.yaml" <<EOF2
name: ssh-loads
iterations: 1
warmup_s: 0.3
variants:
  - {name: remote, boot: ssh, host: 127.0.0.1, port: $port, user: root,
     identity: $WORK/id, workdir: $WORK/remote}
loads:
  - {name: rr, tool: tcp-rr, role: background, timeout_s: 30, params: {pairs: 1, duration_s: 0}}
  - {name: wl, tool: wakeup-lat, timeout_s: 60, params: {runtime_s: 2}}
  - name: kb
    tool: kernbench
    timeout_s: 120
    params: {jobs: 1, source: "$WORK/tree", cache_dir: "$WORK/kbcache", config: tinyconfig}
  - name: oltp
    tool: oltp
    timeout_s: 180
    params: {clients: 1, duration_s: 2, table_size: 500, tmp_dir: "$WORK"}
EOF2
rc=0
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 300 "$SCHEDRIG" run "$WORK/loads.yaml" --db "$DB" \
	>"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" -ne 124 ] || fail "schedrig run hung (killed after 300 s)"
assert_eq "$rc" 0 "exit status ($(cat "$WORK/err"); $("$SCHEDRIG" show --db "$DB" latest 2>&1 | sed -n '/load instances/,$p' | head -40))"
assert_eq "$(q "$DB" "SELECT kernel_release || ' ' || boot FROM variant")" "$(uname -r) ssh" "the ssh variant"
assert_eq "$(q "$DB" "SELECT status FROM iteration")" complete "iteration status"
for m in "rr transactions" "wl wakeup_latency" "kb elapsed" "oltp transactions_per_s"; do
	set -- $m
	v=$(q "$DB" "SELECT min(value) FROM sample s JOIN load_instance l ON s.load_instance_id = l.id
		WHERE l.name = '$1' AND s.metric = '$2'")
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$1 $2 '$v' is not > 0 (no sample over ssh?)"
done
assert_eq "$(q "$DB" "SELECT state FROM load_instance WHERE name = 'rr'")" ok "tcp-rr parsed after its stop"
# Only the binary and the plan went over: the tree and the cache are used in place.
[ -x "$WORK/remote/bin/schedrig-agent" ] || fail "no schedrig-agent in the remote workdir"
[ -n "$(ls "$WORK/kbcache")" ] || fail "kernbench prepared nothing in its cache_dir"
echo ok
