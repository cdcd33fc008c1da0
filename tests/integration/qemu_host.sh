#!/bin/bash
# Host state in a qemu guest, for real (Debian's 6.1 kernel under TCG, two
# virtual CPUs as one core of two threads: -smp threads=2, the variant's
# threads: 2): the guest's agent applies host_settings: {smt: off,
# numa_balancing: on} and autogroup: off, reads its fingerprint after them
# and sends it in its host line; the variant's fingerprint holds the
# guest's values (SMT control off, CPU 1 offline, NUMA balancing 1,
# autogroup 0, its kernel release and /proc/config.gz hash), the journal
# the values the guest had before (SMT on, read there) and their restore
# by the agent; a second variant without settings has SMT on, both CPUs
# online and two threads per core. compare of the two says nothing (each
# difference is declared by smt: off, autogroup: off and numa_balancing:
# on), and the rig's machine's fingerprint is this host's, not a guest's.
# A boot: local variant against a guest: kernel.cmdline is not noted, a
# THP default of the guest's kernel that differs is, "(kernel default)".
# Three boots, about 40 s each here (timing in docs/tests.md).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/debkernel.bash"

PKG=$(deb_kernel 6.1)
RESULTS=${SCHEDRIG_QEMU_RESULTS:-$TESTS_DIR/../results/qemu-test}
mkdir -p "$RESULTS"
DB=$RESULTS/host.db
rm -f "$DB" "$DB-wal" "$DB-shm"

cat >"$WORK/smt.yaml" <<EOF
name: qemu-host
iterations: 1
variants:
  - {name: plain, boot: qemu, kernel: $PKG, accel: tcg, cpus: 2, threads: 2, memory_mb: 512,
     timeout_s: 240}
  - {name: set, boot: qemu, kernel: $PKG, accel: tcg, cpus: 2, threads: 2, memory_mb: 512,
     timeout_s: 240, autogroup: off, host_settings: {smt: off, numa_balancing: on}}
loads:
  - {name: f, tool: fake, params: {seed: 2}}
EOF
rc=0
start=$(date +%s)
timeout 600 "$SCHEDRIG" run "$WORK/smt.yaml" --db "$DB" >"$WORK/out" 2>&1 || rc=$?
echo "two boots: $(($(date +%s) - start)) s"
assert_eq "$rc" 0 "the run ($(cat "$WORK/out"))"

fp() { # VARIANT FIELD: the variant's fingerprint field
	q "$DB" "SELECT h.value FROM host_state h JOIN variant v ON v.id = h.variant_id
		WHERE v.name = '$1' AND h.field = '$2'"
}
assert_eq "$(fp plain smt.control)" on "plain: smt.control"
# tsc-early is x86's boot-time clocksource, replaced by tsc about a second
# after boot: a guest fingerprinted at once must wait for the switch, or two
# guests of one kernel differ in "clocksource" by when they were read
for v in plain set; do
	case "$(fp $v clocksource)" in tsc-early | '') fail "$v: clocksource '$(fp $v clocksource)'" ;; esac
done
assert_eq "$(fp plain cpu.online)" 0-1 "plain: cpu.online"
assert_eq "$(fp plain topology.threads_per_core)" 2 "plain: threads per core (-smp threads=2)"
assert_eq "$(fp plain topology.cores)" 1 "plain: cores"
assert_eq "$(fp set smt.control)" off "set: smt.control"
assert_eq "$(fp set cpu.online)" 0 "set: cpu.online (the sibling offline)"
assert_eq "$(fp set sysctl.kernel.numa_balancing)" 1 "set: numa_balancing"
assert_eq "$(fp set sysctl.kernel.sched_autogroup_enabled)" 0 "set: autogroup"
release=$(q "$DB" "SELECT kernel_release FROM variant WHERE name = 'set'")
case "$release" in 6.1.*) ;; *) fail "set ran kernel '$release', not Debian's 6.1" ;; esac
assert_eq "$(fp set kernel.release)" "$release" "set: kernel.release"
# Debian's kernels have no /proc/config.gz: the package's config, packed as
# the guest's /boot/config-RELEASE, hashed there as sha256sum hashes it here.
assert_eq "$(q "$DB" "SELECT source FROM host_state h JOIN variant v ON v.id = h.variant_id
	WHERE v.name = 'set' AND h.field = 'kernel.config_sha256'")" \
	"/boot/config-$release" "the guest's config"
config=$(ls "$XDG_CACHE_HOME"/schedrig/kernels/*/boot/config-"$release" | head -1)
assert_eq "$(fp set kernel.config_sha256)" "$(sha256sum <"$config" | cut -d' ' -f1)" \
	"the guest's config hash"
assert_eq "$(q "$DB" "SELECT value FROM host_state WHERE variant_id IS NULL AND field = 'kernel.release'")" \
	"$(uname -r)" "the rig's machine's kernel.release"
# The journal: the guest's own old values, restored by its agent.
assert_eq "$(q "$DB" "SELECT old_value || ' ' || applied_value || ' ' || host || ' ' ||
	(restored_at IS NOT NULL) FROM knob WHERE name = 'devices/system/cpu/smt/control'")" \
	"on off guest:set 1" "the SMT journal row"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE variant = 'set' AND restored_at IS NULL")" 0 \
	"unrestored guest knobs"
# list shows the guests' kernel; compare notes nothing: every difference is declared.
assert_contains "$("$SCHEDRIG" list --db "$DB")" "$release" "list's kernel column"
out=$("$SCHEDRIG" compare --db "$DB" --strict-host) || fail "compare --strict-host: $out"
case "$out" in *"Host state differs"*) fail "declared differences noted: $out" ;; esac

# This machine against a guest: another kernel and boot declare the command
# line (never noted); a default of the guest's kernel that differs from this
# machine's (THP) is noted, marked, and fails --strict-host.
cat >"$WORK/here.yaml" <<EOF
name: here-guest
iterations: 1
variants:
  - {name: here}
  - {name: guest, boot: qemu, kernel: $PKG, accel: tcg, cpus: 2, memory_mb: 512, timeout_s: 240}
loads:
  - {name: f, tool: fake, params: {seed: 2}}
EOF
rc=0
timeout 600 "$SCHEDRIG" run "$WORK/here.yaml" --db "$DB" >"$WORK/out2" 2>&1 || rc=$?
assert_eq "$rc" 0 "the local and qemu run ($(cat "$WORK/out2"))"
rc=0
out=$("$SCHEDRIG" compare --db "$DB" --strict-host 2>&1) || rc=$?
case "$out" in *"kernel.cmdline"*) fail "kernel.cmdline noted: $out" ;; esac
here_thp=$(fp here thp.enabled)
guest_thp=$(fp guest thp.enabled)
if [ "$here_thp" != "$guest_thp" ]; then
	assert_contains "$out" "Host state differs (kernel default): thp.enabled $here_thp (variant here) vs $guest_thp (variant guest)" \
		"the THP default noted"
	assert_eq "$rc" 1 "compare --strict-host of kernel defaults that differ"
fi
echo ok
