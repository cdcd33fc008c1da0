#!/bin/bash
# timeout_s: 3000
# Patched kernels built from their base's objects, for real (after
# kbuild_1_build.sh: the vanilla 6.12 and latency-nice entries in
# results/kbuild-test/cache). Each step of the 4-patch bisect-demo series
# as a bisection builds it ({base: v6.12, patches: [the first k]}) is built
# from the vanilla entry's objects, its time said with the CPU time and
# the load average; then `schedrig cache verify` builds the latency-nice
# kernel and step 3 again cold (no base objects, no ccache) in a scratch
# directory, and both images must be bit-identical to the cached ones.
# Here (2 CPUs shared with others): about 10-60 s a step, 5-20 min a
# verification (see docs/kernels.md for the measured numbers).
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=$TOP/results/kbuild-test
DB=$RESULTS/schedrig.db
CACHE=$RESULTS/cache
CONFIG=$RESULTS/incremental.yaml
grep -qls '^kernel v6.12$' "$CACHE"/builds/*/provenance.txt ||
	fail "run tests/kernels/kbuild_1_build.sh first (it builds the vanilla kernel)"
cd "$TOP"
mapfile -t demo < <(ls configs/patches/bisect-demo-6.12/*.patch)
{
	echo "name: kbuild-incremental"
	sed -n '/^kernels:/,/^variants:/p' tests/kernels/kbuild.yaml | sed '$d'
	for k in 1 2 3 4; do
		echo "  p$k: {base: v6.12, patches: [$(IFS=,; echo "${demo[*]:0:$k}" | sed 's/,/, /g')]}"
	done
	echo "variants:"
	for k in 1 2 3 4; do echo "  - {name: p$k, boot: qemu, kernel: {build: p$k}}"; done
	echo "loads: [{tool: hackbench}]"
} >"$CONFIG"

say() {
	echo "[kbuild-incremental $(date +%T)] $*"
}

for k in 1 2 3 4; do
	load=$(uptime | sed 's/.*load average: //')
	t0=$(date +%s.%N)
	# CPU time (user + sys) of the rig and its children, from time(1).
	out=$(/usr/bin/time -f '%U + %S' -o "$WORK/cpu-$k" "$SCHEDRIG" build "$CONFIG" "p$k" \
		--db "$DB" 2>&1) || fail "step $k: $out"
	t1=$(date +%s.%N)
	assert_contains "$out" "kernel p$k: built" "step $k"
	assert_contains "$out" "from its base's objects" "step $k from the vanilla objects"
	say "step $k: $(echo "$t1 - $t0" | bc) s wall, $(bc <"$WORK/cpu-$k") CPU-s, load average $load"
done
pv=$(grep -l '^kernel p4$' "$CACHE"/builds/*/provenance.txt)
assert_eq "$(grep -c '^patch ' "$pv")" 4 "step 4 has the four patches"
assert_eq "$(grep -c '^placed ' "$pv" || true)" 0 "hunks placed with an offset or fuzz"

for k in v6.12-latnice p3; do
	cfg=$RESULTS/latnice.yaml
	[ "$k" = p3 ] && cfg=$CONFIG
	[ -f "$cfg" ] || { cat tests/kernels/kbuild.yaml; echo "loads: [{tool: hackbench}]"; } >"$cfg"
	t0=$(date +%s)
	load=$(uptime | sed 's/.*load average: //')
	out=$("$SCHEDRIG" cache verify "$cfg" "$k" --db "$DB" 2>&1) || fail "cache verify $k: $out"
	echo "$out"
	assert_contains "$out" "kernel $k (key " "verify $k"
	assert_contains "$out" "): identical: bzImage " "$k: the cold build's image is the cached one"
	say "verify $k: $(($(date +%s) - t0)) s (load average at its start $load)"
done
assert_eq "$(ls -A "$CACHE" | grep -c 'verify.tmp' || true)" 0 "no scratch directory left"
assert_none_left "$RESULTS" "after the builds"
say "ok"
