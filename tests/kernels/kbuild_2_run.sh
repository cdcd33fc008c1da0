#!/bin/bash
# timeout_s: 1800
# Kernels from source, for real (part 2 of 2, after kbuild_1_build.sh has
# built both kernels into results/kbuild-test/cache): `schedrig run` on the
# two built kernels, booted under qemu (TCG).
#  1. A tiny latency_nice grid (hackbench background at latency_nice 0/-20
#     x cyclictest measured at -20/19): on the patched kernel every load
#     reads back exactly the latency_nice it asked for, and se.slice_ns and
#     slice_us are what the series' formula gives: base_slice x 1024 /
#     sched_prio_to_weight[latency_nice + 20], clamped to 0.1-100 ms, with
#     base_slice = 0.7 ms x (1 + ilog2(2 vCPUs)) = 1.4 ms (the weights are
#     kernel/sched/core.c's table, written out below); the vanilla kernel
#     refuses latency_nice with the rig's message naming its release. Both
#     kernels come from the cache: the run's build logs hold the config
#     step (it completes the key) but no `make bzImage`.
#  2. The same two kernels without latency_nice: the table has both
#     variants side by side, and report shows the patched column's series.
# No process is left in the results directory. About 3 minutes here (four
# TCG boots of 10-40 s each).
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=$TOP/results/kbuild-test
DB=$RESULTS/schedrig.db
CACHE=$RESULTS/cache
[ "$(ls "$CACHE/builds" 2>/dev/null | wc -l)" = 2 ] ||
	fail "run tests/kernels/kbuild_1_build.sh first (it builds the two kernels)"
cd "$TOP"

# A cache hit makes the .config (the key's last input), never the image.
no_make() { # RUN
	local log
	for log in "$RESULTS/runs/$1"/build-*.log; do
		grep -q '^schedrig: make .*olddefconfig$' "$log" || fail "$log: no config step"
		! grep -q '^schedrig: make .*bzImage$' "$log" || fail "$log: make bzImage ran"
	done
}

{ cat tests/kernels/kbuild.yaml; cat <<'EOF'
loads:
  - name: hackbench
    tool: hackbench
    role: background
    repeat: true
    params: {mode: process, ipc: pipe, groups: 1, loops: 200}
    sched: {latency_nice: [0, -20]}
  - name: cyclictest
    tool: cyclictest
    role: measured
    timeout_s: 60
    params: {threads: 1, interval_us: 1000, duration_s: 1}
    sched: {policy: other, latency_nice: [-20, 19]}
EOF
} >"$RESULTS/latnice.yaml"

rc=0
out=$("$SCHEDRIG" run "$RESULTS/latnice.yaml" --db "$DB" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status (the vanilla variant fails)"
run=$(q "$DB" "SELECT max(id) FROM run")
assert_contains "$out" "kernel v6.12: cached" "the vanilla kernel from the cache"
assert_contains "$out" "kernel v6.12-latnice: cached" "the patched kernel from the cache"
no_make "$run"
assert_eq "$(q "$DB" "SELECT group_concat(status, ' ') FROM kernel_build WHERE run_id = $run")" \
	"cached cached" "kernel_build rows"
ev=$(q "$DB" "SELECT message FROM event WHERE run_id = $run AND kind = 'failure'")
assert_contains "$ev" "variant v6.12: the guest's agent failed: this kernel (6.12." "vanilla refuses"
assert_contains "$ev" "does not support latency_nice (it needs the out-of-tree latency-nice series);" \
	"the refusal's reason"
assert_eq "$(q "$DB" "SELECT status FROM variant WHERE run_id = $run AND name = 'v6.12-latnice'")" \
	complete "the patched variant"

# Every latency_nice load instance of the patched kernel: requested value
# read back, slice by the formula.
weights=(88761 71755 56483 46273 36291 29154 23254 18705 14949 11916 9548 7620 6100 4904 3906
	3121 2501 1991 1586 1277 1024 820 655 526 423 335 272 215 172 137 110 87 70 56 45 36 29
	23 18 15)
base_ns=1400000
n=0
while IFS='|' read -r req app; do
	lnv=${req##*latency_nice=}
	lnv=${lnv%% *}
	slice=$((base_ns * 1024 / weights[lnv + 20]))
	[ "$lnv" = 0 ] && slice=$base_ns
	[ "$slice" -lt 100000 ] && slice=100000
	[ "$slice" -gt 100000000 ] && slice=100000000
	assert_contains " $app " " latency_nice=$lnv " "applied latency_nice ($app)"
	assert_contains " $app " " se.slice_ns=$slice " "se.slice_ns for latency_nice $lnv ($app)"
	assert_contains " $app " " slice_us=$((slice / 1000)) " "slice_us for latency_nice $lnv ($app)"
	n=$((n + 1))
done < <(q "$DB" "SELECT li.sched_requested, li.sched_applied FROM load_instance li
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
	WHERE v.run_id = $run AND v.name = 'v6.12-latnice' AND li.sched_requested LIKE '%latency_nice=%'")
[ "$n" -ge 8 ] || fail "only $n load instances with latency_nice on the patched kernel"

# 2. Side by side without latency_nice.
{ cat tests/kernels/kbuild.yaml; cat <<'EOF'
loads:
  - {name: hackbench, tool: hackbench, role: background, repeat: true,
     params: {mode: process, ipc: pipe, groups: 1, loops: 200}}
  - {name: cyclictest, tool: cyclictest, role: measured, timeout_s: 60,
     params: {threads: 1, interval_us: 1000, duration_s: 1}}
EOF
} >"$RESULTS/plain.yaml"
out=$("$SCHEDRIG" run "$RESULTS/plain.yaml" --db "$DB" 2>&1) || fail "the plain run failed: $out"
echo "$out"
run=$(q "$DB" "SELECT max(id) FROM run")
table=$("$SCHEDRIG" compare "$run" --db "$DB" --metric max_latency 2>&1)
echo "$table"
header=$(echo "$table" | grep -m1 'v6.12 .*v6.12-latnice' || true)
[ -n "$header" ] || fail "no table header with both variants side by side: $table"
report=$("$SCHEDRIG" report "$run" --db "$DB" 2>&1)
assert_contains "$report" "    built patch $(sha256sum <configs/patches/latency-nice-6.12/0002-sched-fair-Derive-the-default-slice-from-latency_nic.patch | cut -d' ' -f1)" \
	"report: the series of the patched column"
assert_contains "$report" "sched/fair: Derive the default slice from latency_nice" "report: the subject"
no_make "$run"
assert_none_left "$RESULTS" "after the runs"
