#!/bin/bash
# The always-on samples of the measured window (no trace: needed), for
# every load in every iteration. A kernel build in the background
# (kernbench on a tiny kernel-like tree whose every compile job prints
# kbuild's "  CC  FILE" line and takes 1 s, one job at a time, so no
# build of its four ends inside the window) against
# stress-ng burning one CPU for 2 s, measured, 2 iterations:
#   - the build has its schedstat deltas and its compile jobs per second in
#     both iterations (n = 2 in compare), though no build finished in the
#     window, and the rate is that of its output: at most 1 job/s (one
#     job a second), at least 0.4 (2 s of window, a job at most 1 s old);
#   - stress-ng, alive only inside the window, has cgroup_cpu_ms equal to
#     the CPU time wait4 gave its process tree (user_s + system_s), within
#     5 % and 30 ms, and its tasks' sched_run_ms no more than that;
#   - reparse keeps them (they are the rig's, not the parser's).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/kerntree.bash"
command -v stress-ng >/dev/null || skip "stress-ng is not installed"
command -v make >/dev/null && command -v cc >/dev/null || skip "make and cc are needed"
cd "$WORK"
make_tiny_tree "$WORK/tree"
# Quiet kbuild-like recipes: the job's line, then a second of it.
sed -i 's|^\t$(CC) -O2 -c -o $@ $<$|\t@echo "  CC      $@"; sleep 1; $(CC) -O2 -c -o $@ $<|' "$WORK/tree/Makefile"
grep -q 'echo "  CC' "$WORK/tree/Makefile" || fail "the tree's Makefile was not made quiet"
cat >w.yaml <<EOF
name: window
iterations: 2
warmup_s: 0.5
loads:
  - name: kb
    tool: kernbench
    role: background
    repeat: true
    timeout_s: 60
    params: {jobs: 1, source: "$WORK/tree", cache_dir: "$WORK/kbcache", config: tinyconfig}
  - {name: burn, tool: stress-ng, timeout_s: 30, params: {stressor: cpu, workers: 1, duration_s: 2}}
EOF
"$SCHEDRIG" run w.yaml --db w.db --quiet >out 2>err || fail "run: $(cat err)"
"$SCHEDRIG" compare --db w.db --format csv --decimals 6 >c.csv 2>cerr || fail "compare: $(cat cerr)"
n_of() { awk -F, -v l="$1" -v m="$2" '$1 == l && $2 == m && $9 == "Amean" { print $12 }' c.csv; }
for m in sched_run_ms sched_wait_ms sched_timeslices sched_voluntary_switches \
	sched_involuntary_switches sched_migrations cgroup_cpu_ms compile_jobs_per_s; do
	assert_eq "$(n_of kb $m)" 2 "n of kb $m"
done
assert_eq "$(q w.db "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'kb' AND s.metric = 'elapsed'")" 0 "kernbench samples (no build ends in a 2 s window)"
rates=$(q w.db "SELECT w.value FROM window_sample w JOIN sample_key k ON k.id = w.key_id
	WHERE k.metric = 'compile_jobs_per_s'")
for r in $rates; do
	awk -v r="$r" 'BEGIN { exit !(r >= 0.4 && r <= 1.01) }' || fail "compile jobs per second $r"
done

# stress-ng: the cgroup's CPU time is its tree's rusage
q w.db "SELECT li.user_s + li.system_s,
	(SELECT w.value FROM window_sample w JOIN sample_key k ON k.id = w.key_id
	 WHERE w.load_instance_id = li.id AND k.metric = 'cgroup_cpu_ms'),
	(SELECT w.value FROM window_sample w JOIN sample_key k ON k.id = w.key_id
	 WHERE w.load_instance_id = li.id AND k.metric = 'sched_run_ms')
	FROM load_instance li WHERE li.name = 'burn'" | tr '|' ' ' >burn.txt
assert_eq "$(wc -l <burn.txt)" 2 "stress-ng instances"
while read -r cpu_s cg_ms run_ms; do
	awk -v c="$cpu_s" -v g="$cg_ms" -v r="$run_ms" 'BEGIN {
		d = g - 1000 * c; if (d < 0) d = -d
		exit !(g > 100 && d <= 0.05 * 1000 * c + 30 && r <= g * 1.05 + 30) }' ||
		fail "stress-ng: rusage ${cpu_s} s, cgroup_cpu_ms ${cg_ms}, sched_run_ms ${run_ms}"
done <burn.txt

before=$(q w.db "SELECT count(*) FROM window_sample")
"$SCHEDRIG" reparse --db w.db latest >rp.out 2>&1 || fail "reparse: $(cat rp.out)"
assert_eq "$(q w.db "SELECT count(*) FROM window_sample")" "$before" "window samples after reparse"
echo ok
