#!/bin/bash
# Scheduling attributes as the kernel really behaves, checked before a run
# where its loads run (boot: local here):
#  - not root: the attributes and knobs that would fail are refused before
#    the run (preflight), a driver's own RT priority (cyclictest priority)
#    counted like a policy;
#  - autogroup: recorded with the run, and a warning when the loads of a
#    cell run at different nice while it is on;
#  - cgroup attributes (sched: {cgroup: ...}) where cgroup v2 has no cpu
#    controller: refused before anything is recorded, saying where the
#    controller is (this machine: cpu is a cgroup v1 controller);
#  - CONFIG_RT_GROUP_SCHED: an RT load (cyclictest priority) in a cpu cgroup
#    without an RT budget is refused before anything runs (it would fail
#    with EPERM, "Unable to change scheduling policy!").
source "$(dirname "$0")/lib.sh"

# mount_of FSTYPE [OPTION]: the mount point of the first mount of FSTYPE
# (with OPTION among its super options), from /proc/self/mountinfo, whose
# optional fields end at " - ".
mount_of() {
	awk -v t="$1" -v o="${2:-}" '{
		for (i = 7; i <= NF && $i != "-"; i++) ;
		if ($(i + 1) == t && (o == "" || ("," $(i + 3) ",") ~ ("," o ","))) { print $5; exit }
	}' /proc/self/mountinfo
}
command -v cyclictest >/dev/null || fail "cyclictest is not installed (scripts/install-deps)"

# Not root: refused before the run.
cat >"$WORK/np.yaml" <<'EOF'
name: np
iterations: 1
variants:
  - {name: tuned, boot: local, sysctl: {kernel.sched_child_runs_first: 1}}
loads:
  - {name: hb, tool: hackbench, role: background, sched: {nice: -5}}
  - {name: ct, tool: cyclictest, params: {priority: 50, duration_s: 1}}
EOF
# A copy of the binary nobody can reach (the checkout may be in a home
# directory of mode 0700).
chmod 755 "$WORK"
chmod 644 "$WORK/np.yaml"
install -m 755 "$SCHEDRIG" "$WORK/schedrig"
rc=0
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$WORK/schedrig" run --dry-run "$WORK/np.yaml" --db "$WORK/never.db" 2>&1 >/dev/null) || rc=$?
assert_eq "$rc" "2" "not root: --dry-run refuses ($out)"
assert_contains "$out" "np.yaml: variant tuned, load hb: a negative nice needs CAP_SYS_NICE" "nice refusal"
assert_contains "$out" "np.yaml: variant tuned, load ct: a real-time policy (fifo, rr) needs CAP_SYS_NICE" \
	"refusal of cyclictest's own priority"
assert_contains "$out" "np.yaml: variant tuned: its knobs (sysctl, debugfs, sched_features) need root" "knob refusal"
# As root: nothing to refuse for privileges.
out=$("$SCHEDRIG" run --dry-run "$WORK/np.yaml" --db "$WORK/never.db" 2>&1 >/dev/null || true)
case "$out" in *CAP_SYS_NICE*|*"need root"*) fail "privilege refusals as root: $out" ;; esac

# Autogroup: provenance of every run, a warning with differing nice.
AG=$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo absent)
cat >"$WORK/ag.yaml" <<'EOF'
name: ag
iterations: 1
loads:
  - {name: a, tool: fake, sched: {nice: 5}}
  - {name: b, tool: fake}
EOF
"$SCHEDRIG" run "$WORK/ag.yaml" --db "$WORK/ag.db" --quiet >"$WORK/ag.out" 2>&1 ||
	fail "autogroup run: $(cat "$WORK/ag.out")"
prov=$(q "$WORK/ag.db" "SELECT message FROM event WHERE kind = 'provenance'")
case $AG in
1)
	assert_eq "$prov" "variant running: autogroup on (kernel.sched_autogroup_enabled = 1 where its loads ran)" "autogroup provenance"
	assert_contains "$(cat "$WORK/ag.out")" "warning: variant running: autogroup is on and loads run at different nice (cell default: a nice=5, b nice=0)" "autogroup warning"
	assert_eq "$(q "$WORK/ag.db" "SELECT count(*) FROM event WHERE kind = 'warning'")" "1" "warning recorded"
	;;
0)
	assert_eq "$prov" "variant running: autogroup off (kernel.sched_autogroup_enabled = 0 where its loads ran)" "autogroup provenance"
	;;
*)
	assert_contains "$prov" "autogroup unknown" "autogroup provenance"
	;;
esac
assert_contains "$("$SCHEDRIG" show --db "$WORK/ag.db" latest)" "provenance: variant running: autogroup" "show lists it"

# cgroup attributes: refused here when cgroup v2 has no cpu controller.
cat >"$WORK/cg.yaml" <<'EOF'
name: cg
iterations: 1
loads:
  - {name: a, tool: fake, sched: {cgroup: {weight: 200, max: "50000 100000"}}}
EOF
rc=0
"$SCHEDRIG" run "$WORK/cg.yaml" --db "$WORK/cg.db" >"$WORK/cg.out" 2>&1 || rc=$?
V2=$(mount_of cgroup2)
if [ -n "$V2" ] && ! grep -qw cpu "$V2/cgroup.controllers" 2>/dev/null; then
	# Known before anything runs: run, --dry-run and check-config refuse
	# alike (exit 2), naming variant and load.
	assert_eq "$rc" "2" "cgroup attributes without a v2 cpu controller ($(cat "$WORK/cg.out"))"
	assert_contains "$(cat "$WORK/cg.out")" "cg.yaml: variant running, load a: cgroup attributes (cpu.weight, cpu.idle, cpu.max) need cgroup v2's cpu controller, and $V2 has none" "where"
	assert_contains "$(cat "$WORK/cg.out")" "nothing was run" "refused before the run"
	[ ! -e "$WORK/cg.db" ] || fail "the refused run created its database"
	for how in "run --dry-run" check-config; do
		rc=0
		"$SCHEDRIG" $how "$WORK/cg.yaml" >"$WORK/cg.out" 2>&1 || rc=$?
		assert_eq "$rc" "2" "$how: cgroup attributes without a v2 cpu controller ($(cat "$WORK/cg.out"))"
		assert_contains "$(cat "$WORK/cg.out")" "variant running, load a: cgroup attributes" "$how: where"
	done
	cpu_v1=$(mount_of cgroup cpu)
	[ -z "$cpu_v1" ] || assert_contains "$(cat "$WORK/cg.out")" "mounted as cgroup v1 at $cpu_v1" "the v1 mount named"
elif [ "$rc" -eq 0 ]; then
	# The controller could be enabled: the values are read back.
	assert_contains "$(q "$WORK/cg.db" "SELECT sched_applied FROM load_instance")" \
		"cgroup.weight=200 cgroup.max=50000 100000" "cgroup attributes read back"
else
	assert_contains "$(cat "$WORK/cg.out")" "cpu controller" "why the controller cannot be enabled"
	assert_eq "$(q "$WORK/cg.db" "SELECT count(*) FROM run")" "0" "no run recorded"
fi

# CONFIG_RT_GROUP_SCHED: a cpu cgroup of cgroup v1 with no RT budget.
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] && [ -f "$CPU/cpu.rt_runtime_us" ] ||
	skip "no cgroup v1 cpu hierarchy with cpu.rt_runtime_us (CONFIG_RT_GROUP_SCHED) to test in"
CG=$CPU/schedrig-rt-test.$$
mkdir "$CG"
cleanup_cg() { rmdir "$CG" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup_cg EXIT
assert_eq "$(cat "$CG/cpu.rt_runtime_us")" "0" "a new cpu cgroup's RT budget"
cat >"$WORK/rt.yaml" <<'EOF'
name: rt
iterations: 1
loads:
  - {name: ct, tool: cyclictest, params: {priority: 50, duration_s: 1}}
EOF
rc=0
(echo "$BASHPID" >"$CG/cgroup.procs" && exec "$SCHEDRIG" run "$WORK/rt.yaml" --db "$WORK/rt.db") \
	>"$WORK/rt.out" 2>&1 || rc=$?
assert_eq "$rc" "1" "RT load without an RT budget ($(cat "$WORK/rt.out"))"
assert_contains "$(cat "$WORK/rt.out")" "has cpu.rt_runtime_us 0: every real-time load would fail with EPERM" "RT refusal"
assert_contains "$(cat "$WORK/rt.out")" "$CG" "the cgroup named"
assert_eq "$(q "$WORK/rt.db" "SELECT count(*) FROM run")" "0" "no RT run recorded"
echo ok
