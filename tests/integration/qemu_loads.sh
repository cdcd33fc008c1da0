#!/bin/bash
# The built-in loads in a qemu guest (Debian's 6.1 package, TCG): tcp-rr
# over the guest's loopback in the background (stopped, and parsed: it
# reports what it measured up to the stop), wakeup-lat measured, oltp
# measured (MariaDB and sysbench packed into the guest, the data directory
# on the guest's scratch disk), and dbench with its load file. Each yields
# samples; the iteration is complete. (kernbench in a guest, which needs a
# prepared kernel tree and minutes of TCG, is in tests/seeds/seed000.sh, make check-seeds.)
# The kernel cache is the rig's (results/test-cache/schedrig under
# tests/run-tests), shared with qemu.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/debkernel.bash"
for need in dbench sysbench mariadbd; do
	command -v "$need" >/dev/null || [ -x "/usr/sbin/$need" ] ||
		fail "$need is not installed (scripts/install-deps)"
done

PKG=$(deb_kernel 6.1)
RESULTS=${SCHEDRIG_QEMU_RESULTS:-$TESTS_DIR/../results/qemu-test}
mkdir -p "$RESULTS"
DB=$RESULTS/loads.db
rm -f "$DB"
cat >"$WORK/loads.yaml" <<EOF
name: guest-loads
iterations: 1
warmup_s: 0.5
variants:
  - {name: v61, boot: qemu, kernel: $PKG, accel: auto, cpus: 2, memory_mb: 1536, timeout_s: 120}
loads:
  - {name: rr, tool: tcp-rr, role: background, timeout_s: 30, params: {pairs: 1, duration_s: 0}}
  - {name: db, tool: dbench, role: background, timeout_s: 60, params: {clients: 1, duration_s: 10}}
  - {name: wl, tool: wakeup-lat, timeout_s: 60, params: {runtime_s: 3}}
  - name: oltp
    tool: oltp
    timeout_s: 300
    params: {clients: 2, duration_s: 3, table_size: 1000, start_timeout_s: 200}
EOF
start=$(date +%s)
rc=0
timeout 600 "$SCHEDRIG" run "$WORK/loads.yaml" --db "$DB" >"$WORK/out" 2>"$WORK/err" || rc=$?
echo "guest run: $(($(date +%s) - start)) s"
[ "$rc" -ne 124 ] || fail "schedrig run hung (killed after 600 s)"
assert_eq "$rc" 0 "exit status ($(cat "$WORK/err"); $(sed -n '/load instances/,$p' <("$SCHEDRIG" show --db "$DB" latest 2>&1) | head -60))"
release=$(q "$DB" "select kernel_release from variant where name = 'v61'")
case "$release" in 6.1.*) ;; *) fail "kernel release of v61 is '$release', not 6.1.*" ;; esac
assert_eq "$(q "$DB" "select status from iteration")" complete "iteration status"
for load in rr db wl oltp; do
	n=$(q "$DB" "select count(*) from sample s join load_instance l on s.load_instance_id = l.id
		where l.name = '$load'")
	[ "$n" -ge 1 ] || fail "no samples of $load in the guest"
done
for m in "rr transactions" "wl wakeup_latency" "oltp transactions_per_s" "db throughput"; do
	set -- $m
	v=$(q "$DB" "select min(value) from sample s join load_instance l on s.load_instance_id = l.id
		where l.name = '$1' and s.metric = '$2'")
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$1 $2 '$v' is not > 0"
done
assert_eq "$(q "$DB" "select state from load_instance where name = 'rr'")" ok "tcp-rr parsed after its stop"
echo ok
