#!/bin/bash
# timeout_s: 3600
# Bisection over a real series (after kbuild_1_build.sh, whose vanilla
# 6.12 kernel is in results/kbuild-test/cache): configs/patches/
# bisect-demo-6.12/ is four patches on Debian's 6.12, of which only the
# third changes what runs (WAKEUP_PREEMPTION off by default). The load is
# cyclictest (SCHED_OTHER, 1 ms period) sharing vCPU 1 with one CPU hog
# (stress-ng cpu), whose wake-up latency that default moves several-fold
# under qemu (TCG).
#   `schedrig bisect --good v6.12 --bad demo --metric cyclictest:avg_latency`
# must name the third patch by its subject, with at most three kernel
# builds beyond the ends (the cache's entries counted before and after);
# the vanilla end comes from the cache. Each point's build reuses the
# others' objects through ccache (only kernel/sched/ differs), so a point
# costs minutes, not a cold build. Asserted too: the bisection is stored
# complete, and every point build's provenance lists exactly its prefix
# of the series. Up to 6 iterations a point (boot: qemu runs each to max):
# with 3 only, one stalled iteration of a busy host left point 3 ambiguous.
# The confirm boots each of its 4 points once a round (at least 5 rounds):
# 20 boots more than before issue 26.
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=$TOP/results/kbuild-test
DB=$RESULTS/bisect.db
CACHE=$RESULTS/cache
SERIES=configs/patches/bisect-demo-6.12
cd "$TOP"
mkdir -p "$RESULTS"
rm -f "$DB" # a bisection of an earlier run is not this one's

cat >"$RESULTS/bisect.yaml" <<'EOF'
name: kbisect-demo
iterations: {min: 3, max: 6, ci_pct: 10}
warmup_s: 1
kernels:
  v6.12: {source: linux-source-6.12, config: [tinyconfig, guest]}
  demo:  {base: v6.12, patches: [configs/patches/bisect-demo-6.12/]}
variants:
  - {name: v6.12, boot: qemu, kernel: {build: v6.12}, cpus: 2, memory_mb: 1024, timeout_s: 300}
  - {name: demo, boot: qemu, kernel: {build: demo}, cpus: 2, memory_mb: 1024, timeout_s: 300}
loads:
  - name: hog
    tool: stress-ng
    role: background
    repeat: true
    params: {stressor: cpu, workers: 1, duration_s: 60}
    sched: {cpus: "1"}
  - name: cyclictest
    tool: cyclictest
    role: measured
    timeout_s: 60
    params: {threads: 1, interval_us: 1000, duration_s: 3}
    sched: {policy: other, cpus: "1"}
EOF

entries() {
	ls "$CACHE/builds" 2>/dev/null | grep -vc '^\.tmp' || true
}
before=$(entries)
vanilla_cached=$(grep -l '^kernel v6.12$' "$CACHE"/builds/*/provenance.txt 2>/dev/null | wc -l)
t0=$(date +%s)
rc=0
out=$("$SCHEDRIG" bisect "$RESULTS/bisect.yaml" --good v6.12 --bad demo \
	--metric cyclictest:avg_latency --db "$DB" 2>&1) || rc=$?
echo "$out"
echo "[kbisect] $(($(date +%s) - t0)) s"
assert_eq "$rc" 0 "exit status of schedrig bisect"
subject=$(sed -n 's/^Subject: \[PATCH [0-9/]*\] //p' "$SERIES"/0003-*.patch)
assert_contains "$(tr -s ' \n' '  ' <<<"$out")" "; the ends held; k 3 of 4)" \
	"the third patch is the first bad point, confirmed"
assert_contains "$out" "$subject" "the first bad patch named by its subject"
after=$(entries)
new=$((after - before))
ends_new=$((vanilla_cached ? 1 : 2))
echo "[kbisect] cache entries: $before before, $after after (vanilla cached before: $vanilla_cached)"
[ "$new" -le $((ends_new + 3)) ] || fail "$new builds for $ends_new new end(s): more than three beyond the ends"
assert_eq "$(q "$DB" "select status from bisection")" complete "the bisection is stored complete"
# Each build of the series lists the first k patches of it, in order.
first=$(sha256sum <"$(ls "$SERIES"/*.patch | head -1)" | cut -d' ' -f1)
for pv in $(grep -l "^patch $first " "$CACHE"/builds/*/provenance.txt); do
	n=$(grep -c '^patch ' "$pv" || true)
	[ "$n" -le 4 ] || fail "$pv lists $n patches"
	i=0
	for p in "$SERIES"/*.patch; do
		[ "$i" -lt "$n" ] || break
		[ "$(grep '^patch ' "$pv" | sed -n "$((i + 1))p" | cut -d' ' -f2)" = \
			"$(sha256sum <"$p" | cut -d' ' -f1)" ] || fail "patch $((i + 1)) of $pv is not $p"
		i=$((i + 1))
	done
done
assert_none_left "$RESULTS" "after the bisection"
echo "[kbisect] ok"
