#!/bin/bash
# schedrig trace against perf sched latency on one shared trace: perf
# records hackbench's scheduling (sched_switch, sched_wakeup,
# sched_wakeup_new, sched_migrate_task), perf script prints it as text,
# schedrig trace --file reads that text (tasks by comm, as perf merges
# them) and perf sched latency reads the recording. Their runqueue waits
# ("delay": from the wakeup, or from a preemption, to the switch-in) must
# agree: the same maximum (to perf's 3 decimals of ms; the text has
# microseconds), as many waits up to one per task (perf counts a task's
# first switch-in it knows nothing before as a wait of 0, and leaves out
# some tasks' last one), the same mean within 5 %. The same CSV also
# agrees with the independent Python computation (trace_check.py).
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "perf record -a needs root"
command -v perf >/dev/null || skip "perf is not installed"
command -v hackbench >/dev/null || skip "hackbench is not installed"
cd "$WORK"
perf record -q -o p.data -a -c 1 -e sched:sched_switch -e sched:sched_wakeup \
	-e sched:sched_wakeup_new -e sched:sched_migrate_task -- hackbench -g 2 -l 200 \
	>rec.out 2>&1 || skip "perf record cannot trace here: $(tail -2 rec.out)"
perf script -i p.data >t.txt 2>/dev/null || fail "perf script"
perf sched latency -i p.data >lat.txt 2>/dev/null || fail "perf sched latency"
"$SCHEDRIG" trace --file t.txt --format csv --decimals 9 >c.csv 2>err || fail "trace --file: $(cat err)"
python3 "$TESTS_DIR/integration/trace_check.py" t.txt c.csv --by-comm >check.out ||
	fail "schedrig trace vs python: $(cat check.out)"
python3 - lat.txt c.csv <<'PY' || fail "schedrig trace vs perf sched latency"
import csv, re, sys
perf = None
for l in open(sys.argv[1]):
    m = re.match(r"\s*hackbench:\((\d+)\)\s*\|\s*[\d.]+ ms \|\s*(\d+) \| avg:\s*([\d.]+) ms \| max:\s*([\d.]+) ms", l)
    if m:
        perf = tuple(float(x) for x in m.groups())
assert perf, "no hackbench line in perf sched latency's output"
tasks, n_perf, avg_perf, max_perf = perf
ours = {(r["metric"], r["op"]): float(r["value"]) for r in csv.DictReader(open(sys.argv[2]))
        if r["load"] == "hackbench" and r["stat"] == "Amean"}
n, mx, mean = ours[("runqueue_waits", "n")], ours[("runqueue_wait_us", "max")], ours[("runqueue_wait_us", "mean")]
print("perf: %d waits, avg %.3f ms, max %.3f ms; schedrig: %d, %.3f, %.3f (%d tasks)"
      % (n_perf, avg_perf, max_perf, n, mean / 1e3, mx / 1e3, tasks))
assert abs(mx / 1e3 - max_perf) <= 0.0015, "max"
assert abs(n - n_perf) <= tasks, "waits"
assert abs(mean / 1e3 - avg_perf) <= 0.05 * avg_perf + 0.0015, "mean"
PY
echo ok
