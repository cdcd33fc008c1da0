#!/bin/bash
# Scheduling attributes and panics, for real, in a Debian 6.1 guest under
# TCG (boot: qemu; the kernel package as qemu.sh fetches it, the same cache,
# results/test-cache/schedrig under tests/run-tests):
#  - cgroup v2 cpu attributes of a load's own cgroup (the guest mounts
#    cgroup2 with the cpu controller, which this host lacks): cpu.weight and
#    cpu.idle read back as set; cpu.max "25000 100000" holds a CPU-bound
#    stress-ng at a quarter of the CPU (its rusage CPU time over its
#    elapsed time), against all of it with "max 100000";
#  - a guest that panics (vm.panic_on_oom=1 and a hackbench too big for
#    256 MB) is a failure that names the panic, from the console and from
#    qemu's exit status (pvpanic, -action panic=exit-failure).
# Two boots, about 40 s each here. Needs qemu-system-x86, busybox-static, stress-ng, rt-tests.
source "$(dirname "$0")/lib.sh"

for need in qemu-system-x86_64 hackbench stress-ng dpkg-deb apt-get; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done
[ -x /bin/busybox ] || fail "/bin/busybox is missing (busybox-static; scripts/install-deps)"
PKG=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' |
	awk '{print $1}' | sort -V | tail -1)
[ -n "$PKG" ] || fail "no linux-image-6.1.0-*-amd64-unsigned package in the apt lists"

# qemu.sh's results directory, a database of its own.
RESULTS=${SCHEDRIG_QEMU_RESULTS:-$TESTS_DIR/../results/qemu-test}
mkdir -p "$RESULTS"
DB=$RESULTS/sched.db
rm -f "$DB" "$DB-wal" "$DB-shm"

cat >"$WORK/cg.yaml" <<EOF
name: qemu-cgroup
iterations: 1
variants:
  - {name: cg, boot: qemu, kernel: $PKG, accel: tcg, cpus: 1, memory_mb: 512, timeout_s: 180}
loads:
  - {name: cpu, tool: stress-ng, timeout_s: 90,
     params: {stressor: cpu, workers: 1, duration_s: 3},
     sched: {cgroup: {weight: 300, max: ["max 100000", "25000 100000"]}}}
  - {name: idler, tool: fake, sched: {cgroup: {idle: 1}}}
EOF
rc=0
timeout 400 "$SCHEDRIG" run "$WORK/cg.yaml" --db "$DB" >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" "0" "the cgroup run ($(cat "$WORK/out"))"

share() { # CELL: the cpu load's CPU time over its elapsed time, in %
	q "$DB" "SELECT CAST(100 * (li.user_s + li.system_s) / li.elapsed_s AS INTEGER)
		FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
		JOIN cell c ON c.id = i.cell_id JOIN variant v ON v.id = i.variant_id
		WHERE v.name = 'cg' AND li.name = 'cpu' AND c.name = '$1'"
}
full=$(share "cpu.cgroup.max=max 100000")
quarter=$(share "cpu.cgroup.max=25000 100000")
[ -n "$full" ] && [ "$full" -ge 60 ] || fail "uncapped stress-ng had ${full:-no} % of the CPU"
[ -n "$quarter" ] && [ "$quarter" -ge 10 ] && [ "$quarter" -le 40 ] ||
	fail "stress-ng under cpu.max 25000 100000 had ${quarter:-no} % of the CPU (25 expected)"
applied=$(q "$DB" "SELECT li.sched_applied FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	JOIN cell c ON c.id = i.cell_id WHERE li.name = 'cpu' AND c.name = 'cpu.cgroup.max=25000 100000'")
assert_contains "$applied" "cgroup.weight=300 cgroup.max=25000 100000" "cgroup attributes read back"
assert_contains "$(q "$DB" "SELECT sched_applied FROM load_instance WHERE name = 'idler' LIMIT 1")" \
	"cgroup.idle=1" "cpu.idle read back"
assert_eq "$(q "$DB" "SELECT status FROM variant WHERE name = 'cg'")" "complete" "cg variant"

# A panic: hackbench too big for 256 MB under vm.panic_on_oom=1.
cat >"$WORK/oom.yaml" <<EOF
name: qemu-panic
iterations: 1
variants:
  - {name: oom, boot: qemu, kernel: $PKG, accel: tcg, cpus: 1, memory_mb: 256, timeout_s: 180,
     sysctl: {vm.panic_on_oom: 1}}
loads:
  - {name: hb, tool: hackbench, timeout_s: 90, params: {groups: 400, fds: 20, loops: 10}}
EOF
rc=0
timeout 400 "$SCHEDRIG" run "$WORK/oom.yaml" --db "$DB" >"$WORK/out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "schedrig run hung: $(cat "$WORK/out")"
assert_eq "$rc" "1" "exit status with the panicking variant ($(cat "$WORK/out"))"
out=$(cat "$WORK/out")
assert_contains "$out" "variant oom: the guest kernel panicked: Kernel panic - not syncing: Out of memory" \
	"the panic on the console"
assert_contains "$out" "qemu exited with status 1: a guest kernel panic reported by pvpanic" \
	"the panic by qemu's exit status"
assert_eq "$(q "$DB" "SELECT status FROM variant WHERE name = 'oom'")" "failed" "oom variant"
if pgrep -f "qemu-system-x86_64.*$RESULTS/runs" >/dev/null; then
	fail "a qemu process outlived the run"
fi
echo ok
