#!/usr/bin/env python3
"""An independent computation of what `schedrig trace` reports from one
trace's text (the rules of harness/trace/trace_analysis.h, written again
from that description with regular expressions), compared with the CSV the
command printed for that trace alone.

usage: trace_check.py TRACE CSV [--by-comm] [--all-tasks]
TRACE: the trace (gzip or text); CSV: `schedrig trace --format csv
--decimals 9` of that one trace (its Amean rows are its values).
Prints "N values agree" or each disagreement, exit status 1."""
import collections
import csv
import gzip
import math
import re
import sys

EV = re.compile(r"^\s*(?P<task>.+?)[- ](?P<pid>\d+)\s+(?:\(\s*\d+\)\s+)?\[(?P<cpu>\d+)\]\s+"
                r"(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?:sched:)?(?P<ev>[a-z_0-9]+):\s*(?P<args>.*)$")
LOST = re.compile(r"^CPU:(\d+) \[LOST (\d+) EVENTS\]$")
SWITCH = re.compile(r"prev_comm=(.*) prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> "
                    r"next_comm=(.*) next_pid=(\d+) next_prio=(-?\d+)")
WAKE = re.compile(r"comm=(.*) pid=(\d+) prio=(-?\d+)")
MIGRATE = re.compile(r"comm=(.*) pid=(\d+) prio=(-?\d+) orig_cpu=(\d+) dest_cpu=(\d+)")
FORK = re.compile(r"comm=(.*) pid=(\d+) child_comm=(.*) child_pid=(\d+)")


def ns(ts):
    s, f = ts.split(".")
    return int(s) * 10**9 + int(f.ljust(9, "0"))


class Task:
    def __init__(self):
        self.st = "unknown"
        self.waking = self.enq = self.run_start = None
        self.by_waking = False
        self.comm = ""
        self.parent = 0
        self.wakeup, self.rqwait, self.run = [], [], []
        self.preempt = self.migr = 0
        self.busy = collections.Counter()


def analyse(lines):
    tasks = collections.defaultdict(Task)
    cpus = {}            # cpu -> [tid, since or None, seen]
    window = None
    first = last = None
    lost = 0
    task_lines = []
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("# window_ns "):
            a, b = line.split()[2:4]
            window = (int(a), int(b))
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("#"):
            f = line.split()
            if len(f) >= 3 and f[1] == "lost":
                lost += int(f[2])
            if len(f) >= 5 and f[1] == "task":
                task_lines.append((f[2], [int(x) for x in f[5:]]))
            continue
        m = LOST.match(line.strip())
        if m:
            lost += int(m.group(2))
            for t in tasks.values():
                t.st, t.waking, t.enq, t.run_start = "unknown", None, None, None
            cpus[int(m.group(1))] = [0, None, True]
            continue
        m = EV.match(line)
        if not m:
            continue
        cpu, t_ns, ev, args = int(m.group("cpu")), ns(m.group("ts")), m.group("ev"), m.group("args")
        if first is None:
            first = t_ns
        last = t_ns
        cpus.setdefault(cpu, [0, None, False])
        if ev == "sched_switch":
            a = SWITCH.match(args)
            prev, state, nxt = int(a.group(2)), a.group(4), int(a.group(6))
            c = cpus[cpu]
            since = c[1] if c[2] else (window[0] if window else first)
            if prev and since is not None and t_ns >= since:
                tasks[prev].busy[cpu] += t_ns - since
            cpus[cpu] = [nxt, t_ns, True]
            if prev:
                p = tasks[prev]
                p.comm = a.group(1) or p.comm
                if p.st == "running" and p.run_start is not None:
                    p.run.append(t_ns - p.run_start)
                p.run_start = None
                p.waking = None
                if state.startswith("R"):
                    p.preempt += 1
                    p.st, p.enq, p.by_waking = "runnable", t_ns, False
                else:
                    p.st, p.enq = "sleeping", None
            if nxt:
                n = tasks[nxt]
                n.comm = a.group(5) or n.comm
                if n.st == "runnable" and n.enq is not None and t_ns >= n.enq:
                    n.rqwait.append(t_ns - n.enq)
                    if n.waking is not None and t_ns >= n.waking:
                        n.wakeup.append(t_ns - n.waking)
                n.st, n.run_start, n.waking, n.enq = "running", t_ns, None, None
        elif ev in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
            a = WAKE.match(args)
            t = tasks[int(a.group(2))]
            t.comm = a.group(1) or t.comm
            waking = ev == "sched_waking"
            if t.st == "running" or (t.st == "runnable" and not (t.by_waking and not waking)):
                continue
            if waking or t.waking is None:
                t.waking = t_ns
            t.enq, t.by_waking, t.st = t_ns, waking, "runnable"
        elif ev == "sched_migrate_task":
            a = MIGRATE.match(args)
            t = tasks[int(a.group(2))]
            t.comm = a.group(1) or t.comm
            t.migr += 1
        elif ev == "sched_process_fork":
            a = FORK.match(args)
            tasks[int(a.group(2))].comm = a.group(1) or tasks[int(a.group(2))].comm
            t = tasks[int(a.group(4))]
            t.comm = a.group(3) or t.comm
            t.parent = int(a.group(2))
    if window is None:
        window = (first or 0, last or 0)
    for cpu, (tid, since, seen) in cpus.items():
        if seen and tid and since is not None and window[1] >= since:
            tasks[tid].busy[cpu] += window[1] - since
    return tasks, window, lost, task_lines, (max(cpus) + 1 if cpus else 0)


def group(tasks, task_lines, by_comm):
    load = {}
    if by_comm:
        for tid, t in tasks.items():
            if t.comm:
                load[tid] = t.comm
    else:
        for name, tids in task_lines:
            for tid in tids:
                if tid in tasks and tid not in load:
                    load[tid] = name
        def of(tid, depth=0):
            if tid in load:
                return load[tid]
            t = tasks.get(tid)
            if t is None or not t.parent or depth >= 64 or t.parent not in tasks:
                return None
            return of(t.parent, depth + 1)
        load = {tid: of(tid) for tid in tasks if of(tid)}
    return load


def nearest_rank(v, p):
    k = max(1, min(len(v), math.ceil(p / 100.0 * len(v) - 1e-9)))
    return v[k - 1]


def expected(tasks, load, window, ncpu, names):
    out = {}
    wlen = window[1] - window[0]
    for name in names:
        mine = [t for tid, t in tasks.items() if (name == "(all)" or load.get(tid) == name)]
        for metric, count, attr in (("wakeup_latency_us", "wakeups", "wakeup"),
                                    ("runqueue_wait_us", "runqueue_waits", "rqwait"),
                                    ("run_per_switch_in_us", "switch_ins", "run")):
            v = sorted(x for t in mine for x in getattr(t, attr))
            out[(name, count, "n")] = len(v)
            if v:
                for op, p in (("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9), ("max", 100)):
                    out[(name, metric, op)] = nearest_rank(v, p) / 1e3
                out[(name, metric, "mean")] = sum(v) / len(v) / 1e3
        out[(name, "preemptions", "n")] = sum(t.preempt for t in mine)
        out[(name, "migrations", "n")] = sum(t.migr for t in mine)
        for c in range(ncpu):
            if wlen > 0:
                out[(name, "cpu_busy_pct", "cpu%d" % c)] = 100.0 * sum(t.busy[c] for t in mine) / wlen
    return out


def main():
    path, csv_path = sys.argv[1], sys.argv[2]
    by_comm = "--by-comm" in sys.argv
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", errors="replace") as f:
        lines = f.readlines()
    tasks, window, lost, task_lines, ncpu = analyse(lines)
    load = group(tasks, task_lines, by_comm)
    got = {}
    for r in csv.DictReader(open(csv_path)):
        if r["stat"] == "Amean":
            got[(r["load"], r["metric"], r["op"])] = float(r["value"])
    names = sorted({k[0] for k in got})
    want = expected(tasks, load, window, ncpu, names)
    bad = 0
    for k in sorted(set(want) | set(got)):
        w, g = want.get(k), got.get(k)
        if w is None or g is None or abs(w - g) > 1e-6 * max(1.0, abs(w)):
            print("disagree:", k, "python", w, "schedrig", g)
            bad += 1
    if not got:
        print("no values in", csv_path)
        bad += 1
    print("%d values agree, %d disagree (lost %d)" % (len(got) - bad, bad, lost))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
