#!/bin/bash
# Preflight: a config that cannot work on one of its variants is refused
# before any variant runs (exit 2, no database, no guest booted), the
# message naming the variant and the load, by run, run --dry-run and
# check-config alike:
#   - latency_nice on the running kernel, which lacks it (mainline);
#   - a debugfs knob this locked-down kernel refuses, behind a variant that
#     would have run fine;
#   - for Debian's 6.1 package under qemu, from its BTF: latency_nice (no
#     sched_latency_nice in struct sched_attr), and a scheduler feature it
#     does not have (PLACE_LAG came with EEVDF in 6.6), and slice_us from its
#     release (custom slices came in 6.12);
#   - a load missing in a guest: a tool not installed here (so nothing can
#     pack it) and a dbench load file that is not here;
#   - boot: lava: loads that need a scratch disk or this machine's /usr;
#   - not root: knobs, and attributes that need CAP_SYS_NICE unless the
#     resource limits allow them.
# A package not fetched yet is a warning for check-config, which fetches
# nothing; a kernel path that is not there is refused. The shipped seed configs pass check-config here.
# The kernel cache is the rig's (results/test-cache/schedrig under
# tests/run-tests), shared with qemu.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/debkernel.bash"
cd "$WORK"

PKG=$(deb_kernel 6.1)
RESULTS=${SCHEDRIG_QEMU_RESULTS:-$TESTS_DIR/../results/qemu-test}
mkdir -p "$RESULTS"
DB=$RESULTS/preflight.db
rm -f "$DB"
CONFIGS=$TESTS_DIR/../configs

# refused CONFIG WHAT: run, --dry-run and check-config all exit 2, nothing
# is recorded; the run's stderr is left in $WORK/err.
runs_made() {
	[ -d "$RESULTS/runs" ] || { echo 0; return; }
	ls "$RESULTS/runs" | wc -l
}
refused() {
	local rc=0 runs_before
	runs_before=$(runs_made)
	"$SCHEDRIG" run "$1" --db "$DB" >out 2>err || rc=$?
	assert_eq "$rc" 2 "$2: run exit status ($(cat err))"
	assert_contains "$(cat err)" "nothing was run" "$2: run message"
	[ ! -e "$DB" ] || fail "$2: the refused run created $DB"
	assert_eq "$(runs_made)" "$runs_before" "$2: run directories"
	rc=0
	"$SCHEDRIG" run --dry-run "$1" --db "$DB" >dry.out 2>dry.err || rc=$?
	assert_eq "$rc" 2 "$2: --dry-run exit status ($(cat dry.err))"
	assert_contains "$(cat dry.err)" "run would refuse to start" "$2: --dry-run message"
	rc=0
	"$SCHEDRIG" check-config "$1" >cc.out 2>cc.err || rc=$?
	assert_eq "$rc" 2 "$2: check-config exit status ($(cat cc.err))"
}

# 1. latency_nice on the running kernel.
cat >ln.yaml <<'EOF'
name: ln
iterations: 1
variants: [{name: here, boot: local}]
loads:
  - name: wl
    tool: wakeup-lat
    params: {runtime_s: 1}
    sched: {latency_nice: [0, -20]}
EOF
refused ln.yaml "latency_nice here"
assert_contains "$(cat err)" "ln.yaml: variant here, load wl: latency_nice: this kernel ($(uname -r)) does not support latency_nice" \
	"latency_nice here: message"

# 2. A locked debugfs knob of the second variant: the first one does not run.
if [ "$(id -u)" -eq 0 ]; then
	cat >knob.yaml <<'EOF'
name: knob
iterations: 1
variants:
  - {name: plain, boot: local}
  - {name: short-slice, boot: local, debugfs: {base_slice_ns: 300000}}
loads:
  - {name: wl, tool: wakeup-lat, params: {runtime_s: 1}}
EOF
	refused knob.yaml "locked debugfs knob"
	assert_contains "$(cat err)" "knob.yaml: variant short-slice: knob: /sys/kernel/debug/sched/base_slice_ns: Operation not permitted (the kernel is locked down?)" \
		"locked debugfs knob: message"
fi

# 3. Debian 6.1 under qemu: latency_nice and PLACE_LAG, from the package;
# slice_us from its release (custom slices came in 6.12), also on a lab's
# device (boot: lava).
cat >guest.yaml <<EOF
name: guest
iterations: 1
labs:
  lab1: {url: http://127.0.0.1:9, artifacts: {dir: $WORK/artifacts, url: file://$WORK/artifacts}}
variants:
  - {name: plain, boot: local}
  - {name: v61, boot: qemu, kernel: $PKG, sched_features: [NO_PLACE_LAG]}
  - {name: lab61, boot: lava, lab: lab1, device_type: qemu, kernel: $PKG}
loads:
  - name: ct
    tool: cyclictest
    params: {duration_s: 1}
    sched: {latency_nice: -20}
  - name: hb
    tool: hackbench
    sched: {slice_us: 200}
EOF
refused guest.yaml "Debian 6.1 guest"
release=$(ls "$XDG_CACHE_HOME/schedrig/kernels/${PKG}"_*/lib/modules/ | head -1)
case "$release" in 6.1.*) ;; *) fail "the package was not fetched and unpacked: '$release'" ;; esac
assert_contains "$(cat err)" "guest.yaml: variant v61, load ct: latency_nice: kernel $release does not support latency_nice (its struct sched_attr has no sched_latency_nice" \
	"latency_nice of the package"
assert_contains "$(cat err)" "guest.yaml: variant v61, load hb: slice_us: kernel $release does not support slice_us (custom slices came in 6.12)" \
	"slice_us on the package (custom slices from 6.12)"
assert_contains "$(cat err)" "guest.yaml: variant lab61, load hb: slice_us: kernel $release does not support slice_us (custom slices came in 6.12)" \
	"slice_us on a lava variant's package"
assert_contains "$(cat err)" "guest.yaml: variant v61: sched_features NO_PLACE_LAG: kernel $release has no sched_feature PLACE_LAG" \
	"PLACE_LAG of the package"
# check-config knows it too now that the package is here.
assert_contains "$(cat cc.err)" "variant v61: sched_features NO_PLACE_LAG: kernel $release has no sched_feature PLACE_LAG" \
	"check-config with the package fetched"

# 4. Loads missing in a guest: a tool not installed here, a load file not here.
mkdir -p bin
cat >missing.yaml <<EOF
name: missing
iterations: 1
variants:
  - {name: v61, boot: qemu, kernel: $PKG}
loads:
  - name: sb
    tool: schbench
    role: background
    params: {duration_s: 30}
  - name: db
    tool: dbench
    params: {duration_s: 5, loadfile: $WORK/no-such-loadfile.txt}
EOF
PATH="$WORK/bin:/usr/bin:/bin" refused missing.yaml "loads missing in a guest"
assert_contains "$(cat err)" "missing.yaml: variant v61, load sb: tool 'schbench' is not installed here, so it cannot go into the guest" \
	"tool missing in the guest"
assert_contains "$(cat err)" "missing.yaml: variant v61, load db: $WORK/no-such-loadfile.txt is not here, so it cannot go into the guest" \
	"load file missing in the guest"

# 4b. boot: lava: a lab's device gets no scratch disk and no share of this
# machine's /usr, so oltp (scratch) and kernbench (both) are refused, each
# named, hackbench is not; lava-job refuses them too, writing nothing.
cat >lavadisk.yaml <<EOF
name: lavadisk
iterations: 1
labs:
  lab1: {url: http://127.0.0.1:9, artifacts: {dir: $WORK/artifacts, url: file://$WORK/artifacts}}
variants:
  - {name: dev, boot: lava, lab: lab1, device_type: qemu, kernel: $PKG}
loads:
  - {name: db, tool: oltp, params: {duration_s: 5}}
  - {name: kb, tool: kernbench}
  - {name: hb, tool: hackbench}
EOF
refused lavadisk.yaml "a lava guest without disk and /usr"
assert_contains "$(cat err)" "lavadisk.yaml: variant dev, load db: needs a scratch disk (a disk-backed working directory), which only a boot: qemu guest gets" \
	"lava: oltp's scratch disk"
assert_contains "$(cat err)" "lavadisk.yaml: variant dev, load kb: needs a scratch disk (a disk-backed working directory) and this machine's /usr (its toolchain over virtio-9p), which only a boot: qemu guest gets" \
	"lava: kernbench's disk and /usr"
case "$(cat err)" in *"load hb"*) fail "lava: hackbench refused: $(cat err)" ;; esac
rc=0
"$SCHEDRIG" lava-job lavadisk.yaml dev >job.out 2>job.err || rc=$?
assert_eq "$rc" 1 "lava-job of a load needing a disk ($(cat job.err))"
assert_contains "$(cat job.err)" "schedrig lava-job: variant dev: load db: needs a scratch disk" \
	"lava-job: oltp's scratch disk"
assert_eq "$(ls "$WORK/artifacts" 2>/dev/null | wc -l)" 0 "lava-job: nothing in the artifacts directory"

# 5. A package not fetched yet: check-config warns and fetches nothing.
sed "s/kernel: $PKG/kernel: linux-image-0.0.0-0-amd64-unsigned/" missing.yaml |
	sed '/- name: sb/,+3d' | sed 's|loadfile: .*}|loadfile: /usr/share/dbench/client.txt}|' >unfetched.yaml
rc=0
"$SCHEDRIG" check-config unfetched.yaml >cc.out 2>cc.err || rc=$?
assert_eq "$rc" 0 "check-config of an unfetched package ($(cat cc.err))"
assert_contains "$(cat cc.err)" "unfetched.yaml: warning: variant v61: kernel linux-image-0.0.0-0-amd64-unsigned is not fetched yet" \
	"warning for the unfetched package"

# A kernel path that is not there cannot be fetched either: refused.
sed "s|kernel: linux-image-0.0.0-0-amd64-unsigned|kernel: $WORK/no-bzImage|" unfetched.yaml >nokernel.yaml
refused nokernel.yaml "a kernel path that is not there"
assert_contains "$(cat cc.err)" "nokernel.yaml: variant v61: kernel: $WORK/no-bzImage: no such file, and not a Debian package name" \
	"check-config of a kernel path that is not there"
# A file that is there but is no kernel (neither a bzImage, an ELF vmlinux
# nor a .deb) is refused too, not left to a guest that never starts.
echo "not a kernel" >"$WORK/not-a-kernel"
sed "s|kernel: $WORK/no-bzImage|kernel: $WORK/not-a-kernel|" nokernel.yaml >notkernel.yaml
refused notkernel.yaml "a kernel path that is no kernel"
assert_contains "$(cat cc.err)" "notkernel.yaml: variant v61: kernel: $WORK/not-a-kernel is neither a bzImage, an ELF vmlinux nor a .deb" \
	"check-config of a kernel path that is no kernel"

# 6. Not root (setpriv to nobody, no capabilities): the variant's knobs, a
# real-time policy and a negative nice are refused; with RLIMIT_RTPRIO 99
# and RLIMIT_NICE 30 (nice down to -10) the loads' attributes are allowed.
if [ "$(id -u)" -eq 0 ]; then
	PRIV=$(mktemp -d /tmp/schedrig-preflight.XXXXXX)
	chmod 755 "$PRIV"
	cat >"$PRIV/np.yaml" <<'EOF'
name: np
iterations: 1
variants: [{name: tuned, boot: local, sysctl: {kernel.sched_autogroup_enabled: 0}}]
loads:
  - {name: hb, tool: hackbench, role: background, repeat: true, sched: {policy: fifo, priority: 50}}
  - {name: wl, tool: wakeup-lat, sched: {nice: -5}}
EOF
	chmod 644 "$PRIV/np.yaml"
	nobody() {
		(cd "$PRIV" && "$@" setpriv --reuid=nobody --regid=nogroup --clear-groups \
			--inh-caps=-all "$SCHEDRIG" run --dry-run np.yaml) >/dev/null 2>"$WORK/np.err"
	}
	rc=0
	nobody env || rc=$?
	assert_eq "$rc" 2 "not root: --dry-run exit status ($(cat "$WORK/np.err"))"
	uid=$(id -u nobody)
	assert_eq "$(grep -c '^np.yaml: variant' "$WORK/np.err")" 3 "not root: refusals ($(cat "$WORK/np.err"))"
	assert_contains "$(cat "$WORK/np.err")" "np.yaml: variant tuned: its knobs (sysctl, debugfs, sched_features) need root, and schedrig runs as uid $uid" \
		"not root: knobs"
	assert_contains "$(cat "$WORK/np.err")" "np.yaml: variant tuned, load hb: a real-time policy (fifo, rr) needs CAP_SYS_NICE" \
		"not root: fifo"
	assert_contains "$(cat "$WORK/np.err")" "np.yaml: variant tuned, load wl: a negative nice needs CAP_SYS_NICE" \
		"not root: negative nice"
	# Raising the hard limits needs CAP_SYS_RESOURCE, which a container's
	# root may lack.
	if prlimit --rtprio=99 --nice=30 true 2>/dev/null; then
		rc=0
		nobody prlimit --rtprio=99 --nice=30 || rc=$?
		assert_eq "$rc" 2 "not root, raised limits: exit status ($(cat "$WORK/np.err"))"
		assert_eq "$(grep '^np.yaml: variant' "$WORK/np.err")" \
			"np.yaml: variant tuned: its knobs (sysctl, debugfs, sched_features) need root, and schedrig runs as uid $uid" \
			"not root, raised limits: only the knobs are refused"
	else
		echo "skipped: raised RLIMIT_RTPRIO/RLIMIT_NICE (no CAP_SYS_RESOURCE here)"
	fi
	rm -rf "$PRIV"
fi

# 7. The shipped seed configs pass check-config here, from the checkout's
# top, where their relative paths (configs/patches/...) point (docs/kernels.md).
for f in "$CONFIGS"/seed-*.yaml; do
	out=$(cd "$CONFIGS/.." && "$SCHEDRIG" check-config "$f" 2>&1) || fail "check-config $f: $out"
done
echo ok
