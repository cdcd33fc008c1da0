#!/bin/bash
# trace: on the running kernel: hackbench repeating in the background and
# cyclictest measured, iteration 2 of 2 traced with four sched events. The
# trace is of exactly that iteration and those events, every event inside
# the measured window, which holds cyclictest's whole life; it is stored
# gzip-compressed under the run's directory with its row; the instance is
# gone afterwards, journalled and marked restored, and the top-level
# events are as they were. schedrig trace's numbers agree with an
# independent computation in Python over the same text (trace_check.py);
# --format perfetto writes Chrome trace-event JSON of the right structure;
# schedrig plot draws the wakeup-latency CDF; and every iteration has the
# always-on schedstat samples of both loads (n = 2 in compare).
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "tracefs needs root"
for t in hackbench cyclictest python3 gnuplot; do
	command -v $t >/dev/null || skip "$t is not installed"
done
TOP=$(cd "$TESTS_DIR/.." && pwd)
cd "$WORK"
cat >t.yaml <<'EOF'
name: traced
iterations: 2
warmup_s: 0.5
trace: {events: [sched_switch, sched_waking, sched_wakeup, sched_migrate_task], buffer_kb: 2048,
        iterations: [2]}
loads:
  - {name: hb, tool: hackbench, role: background, repeat: true, params: {groups: 1, loops: 100}}
  - {name: ct, tool: cyclictest, params: {threads: 1, interval_us: 1000, duration_s: 1}}
EOF
root=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
before=$( [ -n "$root" ] && cat "$root/events/sched/sched_switch/enable" || echo 0)
"$SCHEDRIG" run t.yaml --db r.db --quiet >out 2>err || fail "run: $(cat err)"
root=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
[ -n "$root" ] || fail "no tracefs mounted after a traced run"

# how many events a machine loses depends on the machine (a slow one
# drains trace_pipe more slowly while hackbench keeps both CPUs busy): the
# row must hold the file's own "# lost N" count, and every report says it
assert_eq "$(q r.db "SELECT i.iteration || ' ' || t.path FROM trace t
	JOIN iteration i ON i.id = t.iteration_id")" "2 runs/1/traces/running-c1-it2.trace.gz" "the trace row"
f=runs/1/traces/running-c1-it2.trace.gz
gzip -t "$f" || fail "$f is not gzip"
zcat "$f" >trace.txt
lost=$(awk '$1 == "#" && $2 == "lost" { print $3 }' trace.txt)
case "$lost" in '' | *[!0-9]*) fail "no '# lost N' line: '$lost'" ;; esac
assert_eq "$(q r.db "SELECT lost_events FROM trace")" "$lost" "lost_events of the row"
[ "$(q r.db "SELECT bytes FROM trace")" = "$(stat -c %s trace.txt)" ] || fail "bytes of the row and the text differ"
ls runs/1/*.txt 2>/dev/null && fail "a raw trace was left in the run's directory"

# the instance: journalled, restored, gone; the top-level switch untouched
inst=$(q r.db "SELECT path FROM knob WHERE kind = 'trace_instance'")
case "$inst" in */instances/schedrig-1-*) ;; *) fail "journal row of the instance: '$inst'" ;; esac
[ -n "$(q r.db "SELECT restored_at FROM knob WHERE kind = 'trace_instance'")" ] || fail "instance not marked restored"
[ ! -e "$inst" ] || fail "$inst is still there"
assert_eq "$(cat "$root/events/sched/sched_switch/enable")" "$before" "top-level sched_switch enable"

# exactly the events asked, inside the window that holds cyclictest
read -r ct_start ct_end ct_pid <<<"$(q r.db "SELECT started_ns, ended_ns, pid FROM load_instance li
	JOIN iteration i ON i.id = li.iteration_id WHERE li.name = 'ct' AND i.iteration = 2" | tr '|' ' ')"
python3 - trace.txt "$ct_start" "$ct_end" "$ct_pid" <<'PY' || fail "the trace's content"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
ct_start, ct_end, ct_pid = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
assert lines[0].startswith("# schedrig-trace 1 clock=mono buffer_kb=2048 events=sched:sched_switch,"), lines[0]
w = [l for l in lines if l.startswith("# window_ns ")]
assert len(w) == 1, w
start, end = map(int, w[0].split()[2:4])
assert start <= ct_start <= ct_end <= end, (start, ct_start, ct_end, end)
names, n = set(), 0
for l in lines:
    m = re.search(r"\s(\d+)\.(\d{6}): (\w+):", l)
    if not m or l.startswith("#"):
        continue
    n += 1
    ts = int(m.group(1)) * 10**9 + int(m.group(2)) * 1000
    assert start - 1000 <= ts <= end, (ts, start, end, l)
    names.add(m.group(3))
assert n > 100, n
assert names <= {"sched_switch", "sched_waking", "sched_wakeup", "sched_migrate_task"}, names
assert "sched_switch" in names and "sched_waking" in names, names
tasks = [l.split() for l in lines if l.startswith("# task ")]
assert any(t[2] == "ct" and t[4] == ct_pid for t in tasks), tasks
assert any(t[2] == "hb" for t in tasks), tasks
assert lines[-1] == "# end", lines[-1]
PY

# the numbers, against Python over the same text
"$SCHEDRIG" trace --db r.db --format csv --decimals 9 --all-tasks >trace.csv 2>err || fail "trace: $(cat err)"
python3 "$TESTS_DIR/integration/trace_check.py" trace.txt trace.csv >check.out ||
	fail "schedrig trace vs python: $(cat check.out)"
grep -q "^[0-9]* values agree, 0 disagree" check.out || fail "$(cat check.out)"
"$SCHEDRIG" trace --db r.db --load ct >text.out 2>err || fail "trace text: $(cat err)"
assert_contains "$(cat text.out)" "ct wakeup_latency_us (us, lower is better)" "the table"
if [ "$lost" -gt 0 ]; then
	assert_contains "$(cat text.out)" "$lost event(s) lost" "the note of the lost events"
else
	case "$(cat text.out)" in *"Lost:"*) fail "a Lost note with no event lost" ;; esac
fi
"$SCHEDRIG" trace --db r.db --load ct --layout percentiles >pct.out 2>err || fail "$(cat err)"
assert_contains "$(cat pct.out)" "every event, pooled over iterations" "the pooled layout"

# Perfetto: Chrome trace-event JSON, a track per CPU and per load task
"$SCHEDRIG" trace --db r.db --format perfetto -o p.json 2>err || fail "perfetto: $(cat err)"
python3 - p.json "$(nproc)" "$ct_pid" "$lost" "$(q r.db "SELECT window_end_ns - window_start_ns FROM trace")" \
	trace.csv <<'PY' || fail "the Perfetto JSON"
import csv, json, sys
d = json.load(open(sys.argv[1]))
ncpu, ct_pid, lost, window_ns = (int(a) for a in sys.argv[2:6])
ev = d["traceEvents"]
assert d["displayTimeUnit"] == "ns" and d["otherData"]["lost_events"] == lost
for e in ev:
    assert e["ph"] in ("X", "i", "M"), e
    assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
    if e["ph"] == "X":
        assert e["ts"] >= 0 and e["dur"] >= 0 and e["ts"] + e["dur"] <= window_ns / 1e3 + 0.001, e
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M"}
procs = {p: n for (p, t), n in names.items() if t == 0}
assert procs[1] == "CPUs" and procs[2] == "measured window", procs
cpus = sorted(n for (p, t), n in names.items() if p == 1 and t)
assert len(cpus) >= 1 and all(c.startswith("CPU ") for c in cpus), cpus
ct = [p for p, n in procs.items() if n == "load ct"]
assert len(ct) == 1, procs
assert (ct[0], ct_pid) in names, "no track of cyclictest's main task"
win = [e for e in ev if e["ph"] == "X" and e["pid"] == 2]
assert len(win) == 1 and abs(win[0]["dur"] - window_ns / 1e3) < 0.002, win
assert len([e for e in ev if e["ph"] == "i"]) == 2
# every run of a ct task is a "running" slice on its track: one per switch-in
# (the trace's run samples) and at most one more per task still on a CPU
runs = [e for e in ev if e["ph"] == "X" and e["pid"] == ct[0] and e["name"] == "running"]
want = [r for r in csv.DictReader(open(sys.argv[6]))
        if r["load"] == "ct" and r["metric"] == "switch_ins" and r["stat"] == "Amean"]
n = int(float(want[0]["value"]))
ntasks = len([1 for (p, t) in names if p == ct[0] and t])
assert n <= len(runs) <= n + ntasks, (len(runs), n, ntasks)
PY

# the wakeup-latency CDF
"$SCHEDRIG" plot --db r.db --output-dir fig --format svg >plot.out 2>err || fail "plot: $(cat err)"
grep -q "fig/ct-wakeup_latency_us-trace-cdf.svg" plot.out || fail "no trace CDF: $(cat plot.out)"

# the always-on schedstat deltas: both loads, both iterations
"$SCHEDRIG" compare --db r.db --format csv --metric sched_run_ms,sched_wait_ms,cgroup_cpu_ms \
	>w.csv 2>err || fail "compare: $(cat err)"
for l in hb ct; do
	for m in sched_run_ms sched_wait_ms cgroup_cpu_ms; do
		n=$(awk -F, -v l=$l -v m=$m '$1 == l && $2 == m && $9 == "Amean" { print $12 }' w.csv)
		assert_eq "$n" 2 "n of $l $m"
	done
done

# a trace cut inside (its header, half its events and its trailer kept)
# is not the trace the row describes: refused, no numbers
half=$(($(wc -l <trace.txt) / 2))
{ head -n "$half" trace.txt; grep '^#' trace.txt | tail -n +2; } | gzip >"$f"
rc=0
"$SCHEDRIG" trace --db r.db --load ct >cut.out 2>cut.err || rc=$?
[ "$rc" != 0 ] || fail "a cut trace gave numbers: $(cat cut.out)"
assert_contains "$(cat cut.err)" "not the trace this run captured" "the cut trace refused"
echo ok
