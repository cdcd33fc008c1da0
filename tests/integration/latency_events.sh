#!/bin/bash
# Latencies as distributions of events: wakeup-lat stores the histogram of
# every wake-up per iteration; compare --layout latency prints latt's lines
# over every event of all iterations (n = events), and --layout percentiles
# the nearest-rank percentiles of the pooled buckets; both checked here
# against the stored buckets and sums, recomputed in python.
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed"
cd "$WORK"
cat >w.yaml <<'YAML'
name: wl
iterations: 3
loads:
  - tool: wakeup-lat
    params: {runtime_s: 1, workers: 2, think_us: 500}
YAML
"$SCHEDRIG" run w.yaml --db w.db --quiet >run.out 2>&1 || fail "run: $(cat run.out)"
assert_eq "$(q w.db "SELECT count(*) FROM histogram WHERE bounds IS NOT NULL AND sum_value > 0")" 6 \
	"two histograms per iteration with bounds and sums"
"$SCHEDRIG" compare --db w.db --layout latency >lat.txt || fail "latency layout"
"$SCHEDRIG" compare --db w.db --layout percentiles --percentiles 50,95,99.9 >pct.txt || fail "percentiles"
python3 - w.db lat.txt pct.txt <<'PY' || fail "$(cat lat.txt pct.txt)"
import math, re, sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
lat, pct = open(sys.argv[2]).read(), open(sys.argv[3]).read()
for metric in ("wakeup_latency", "request_latency"):
    buckets, n, s, ss, mx, mn = {}, 0, 0.0, 0.0, 0.0, 1e300
    for nb, counts, bounds, lo, hi, su, sq in db.execute(
            "SELECT n_buckets, counts, bounds, min_observed, max_observed, sum_value, sum_sq_value"
            " FROM histogram WHERE metric = ?", (metric,)):
        c = struct.unpack("<%dQ" % nb, counts)
        b = struct.unpack("<%dd" % nb, bounds)
        for x, k in zip(b, c):
            buckets[x] = buckets.get(x, 0) + k
        n += sum(c); s += su; ss += sq; mx = max(mx, hi); mn = min(mn, lo)
    mean = s / n
    sd = math.sqrt((ss - s * s / n) / (n - 1))
    block = lat[lat.index("wakeup-lat %s (us" % metric):]
    got = {}
    for k, v in re.findall(r"^        (Max|Avg|Stdev|Stdev mean|n) +([0-9.]+)", block, re.M):
        got.setdefault(k, v)
    assert got["n"] == str(n), (metric, got, n)
    for k, v in (("Max", mx), ("Avg", mean), ("Stdev", sd), ("Stdev mean", sd / math.sqrt(n))):
        assert abs(float(got[k]) - v) <= 0.005 + 1e-9 * v, (metric, k, got[k], v)
    # percentiles: nearest rank of the merged buckets, within [Min, Max]
    order = sorted(buckets)
    want = []
    for p in (50, 95, 99.9):
        rank, acc = max(1, math.ceil(p * n / 100)), 0
        for x in order:
            acc += buckets[x]
            if acc >= rank:
                want.append("%.2f" % min(max(x, mn), mx))
                break
    box = pct[pct.index("wakeup-lat %s (us" % metric):]
    row = [f.strip() for f in re.search(r"^\|all\|(.*)\|$", box, re.M).group(1).split("|")]
    assert row == want, (metric, row, want)
    print(metric, n, "events, mean", mean, "p50/p95/p99.9", want)
PY
grep -q '^wakeup-lat requests_per_s (requests/s, higher is better), variant running, run wl: per-iteration values, n = iterations' lat.txt ||
	fail "the rate's block does not say it is per-iteration values"
