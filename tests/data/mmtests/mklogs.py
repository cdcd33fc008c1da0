#!/usr/bin/env python3
"""Write the samples of a schedrig CSV export as an mmtests results
directory, so that mmtests' own compare-mmtests.pl can summarise the same
samples the rig does (the golden files in this directory; README.md).

usage: mklogs.py CSV BENCHMARK FLAVOUR OUTDIR
  BENCHMARK  hackbench | netperf-tcp-rr
  FLAVOUR    classic (per-iteration log files, as mmtests' ExtractHackbench
             and ExtractNetperf read them) | newer (the log files the
             shellpack parse-results scripts read)

Every variant becomes OUTDIR/VARIANT/iter-0/BENCHMARK/logs; the ops are
hackbench groups or netperf sizes; the samples of an op keep CSV order."""
import collections
import csv
import os
import sys


def main():
    src, bench, flavour, out = sys.argv[1:5]
    data = collections.OrderedDict()
    for row in csv.DictReader(open(src)):
        ops = data.setdefault(row["variant"], collections.OrderedDict())
        ops.setdefault(row["op"], []).append(row["value"])
    for variant, ops in data.items():
        logs = os.path.join(out, variant, "iter-0", bench, "logs")
        os.makedirs(logs)
        for op, values in ops.items():
            if bench == "hackbench":
                write_hackbench(logs, flavour, op, values)
            else:
                write_netperf(logs, op, values)
    print(",".join(data))


def write_hackbench(logs, flavour, op, values):
    lines = ["Running in process mode with %s groups\nTime: %s\nTotal time: %s\n" % (op, v, v)
             for v in values]
    if flavour == "newer":
        with open(os.path.join(logs, "hackbench-%s" % op), "w") as f:
            f.write("".join(lines))
        return
    for i, text in enumerate(lines, 1):
        with open(os.path.join(logs, "hackbench-%s-%d" % (op, i)), "w") as f:
            f.write(text)


def write_netperf(logs, op, values):
    with open(os.path.join(logs, "protocols"), "w") as f:
        f.write("TCP_RR\n")
    for i, v in enumerate(values, 1):
        with open(os.path.join(logs, "TCP_RR-%s.%d" % (op, i)), "w") as f:
            f.write("MIGRATED TCP REQUEST/RESPONSE TEST\n"
                    "Local /Remote\nSocket Size   Request  Resp.   Elapsed  Trans.\n"
                    "16384  131072 %s       1      10.00    %s\n" % (op, v))


if __name__ == "__main__":
    main()
