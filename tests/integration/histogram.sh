#!/bin/bash
# cyclictest histogram_us end to end: a real run stores one histogram per
# thread and iteration, and compare --layout percentiles prints percentiles
# of the pooled bucket counts; a histogram too small for the latencies
# prints a censored ">=LIMIT".
source "$(dirname "$0")/lib.sh"
command -v cyclictest >/dev/null || fail "cyclictest is not installed (rt-tests)"
command -v python3 >/dev/null || fail "python3 is needed to check the percentiles"

cat >"$WORK/h.yaml" <<'YAML'
name: hist
iterations: 2
warmup_s: 0
loads:
  - name: ct
    tool: cyclictest
    params: {threads: 2, interval_us: 1000, duration_s: 2, histogram_us: 200}
YAML
DB=$WORK/h.db
"$SCHEDRIG" run "$WORK/h.yaml" --db "$DB" --quiet >"$WORK/run.out" 2>&1 || fail "run: $(cat "$WORK/run.out")"

# Stored: 2 threads x 2 iterations, 200 buckets of 8 bytes; overflow equals
# the overflows sample, max_observed the max_latency sample.
assert_eq "$(q "$DB" "SELECT count(*) FROM histogram")" 4 "histograms stored"
assert_eq "$(q "$DB" "SELECT DISTINCT n_buckets || ' ' || length(counts) || ' ' || limit_value || ' ' || metric || ' ' || unit FROM histogram")" \
	"200 1600 200.0 latency us" "histogram shape"
assert_eq "$(q "$DB" "SELECT count(*) FROM histogram h JOIN sample s ON s.load_instance_id = h.load_instance_id
	AND s.op = h.op AND s.metric = 'overflows' AND s.value = h.overflow
	JOIN sample m ON m.load_instance_id = h.load_instance_id AND m.op = h.op
	AND m.metric = 'max_latency' AND m.value = h.max_observed")" 4 "overflow and Max match the samples"

"$SCHEDRIG" compare --db "$DB" --layout percentiles --percentiles 50,90,99 >"$WORK/p.txt" ||
	fail "compare --layout percentiles"
# The histogram box (every wake-up) first, then the tool's per-iteration
# summaries, said so.
grep -q '^ct latency (us, lower is better), variant running, run hist: every event, pooled over iterations$' \
	"$WORK/p.txt" || fail "no histogram table: $(cat "$WORK/p.txt")"
grep -q '^n: default [1-9][0-9]* events (2 iterations)$' "$WORK/p.txt" || fail "no pooled footer: $(cat "$WORK/p.txt")"
grep -q 'never an average of per-iteration percentiles' "$WORK/p.txt" || fail "no pooling rule in the footer"
grep -q '^ct max_latency (us, lower is better), variant running, run hist: per-iteration summaries$' "$WORK/p.txt" ||
	fail "no max_latency table: $(cat "$WORK/p.txt")"
grep -q '^n: default 2 iterations$' "$WORK/p.txt" || fail "n of the summaries"

# Every printed p50/p90/p99 equals the nearest rank of the pooled counts read
# from the database (bucket i = i us, within the smallest Min and the largest
# Max, >=200 in the overflow; cyclictest's 0 decimals).
check_pooled() { # FILE: its first "ct latency (us" box against the database
python3 - "$DB" "$1" <<'PY' || fail "histogram percentiles differ from the stored counts: $(cat "$1")"
import math, sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
text = open(sys.argv[2]).read()
start = text.index("ct latency (us")
box = text[start:text.index("\n\n", start)]
rows = {}
for line in box.splitlines():
    f = [x.strip() for x in line.split("|")]
    if len(f) == 6 and f[1] in ("0", "1"):
        rows[f[1]] = f[2:5]
assert sorted(rows) == ["0", "1"], rows
for op in ("0", "1"):
    pooled, overflow, mx, mn = [0] * 200, 0, 0.0, 1e9
    for n, blob, ov, m, lo in db.execute(
            "SELECT n_buckets, counts, overflow, max_observed, min_observed FROM histogram"
            " WHERE op = ?", (op,)):
        for i, c in enumerate(struct.unpack("<%dQ" % n, blob)):
            pooled[i] += c
        overflow += ov
        mx = max(mx, m)
        mn = min(mn, lo)
    total = sum(pooled) + overflow
    want = []
    for p in (50, 90, 99):
        rank = min(max(math.ceil(p * total / 100), 1), total)
        acc, val = 0, None
        for i, c in enumerate(pooled):
            acc += c
            if acc >= rank:
                val = "%.0f" % min(max(i, mn), mx)
                break
        want.append(val if val is not None else ">=200")
    assert rows[op] == want, (op, rows[op], want)
    print("op", op, "p50/p90/p99", want, "of", total, "samples")
PY
}
check_pooled "$WORK/p.txt"

# The pooled table is selectable by the metric its title names, alone (no
# per-iteration table of ct follows), with the same rows; the message for
# a metric that matches nothing lists it.
"$SCHEDRIG" compare --db "$DB" --layout percentiles --percentiles 50,90,99 --metric latency >"$WORK/m.txt" ||
	fail "--metric latency: $(cat "$WORK/m.txt")"
assert_eq "$(grep -c 'is better)' "$WORK/m.txt")" 1 "tables with --metric latency"
assert_eq "$(sed -n '/^ct latency (us/,/^$/p' "$WORK/m.txt" | grep '^|[01] ')" \
	"$(sed -n '/^ct latency (us/,/^$/p' "$WORK/p.txt" | grep '^|[01] ')" "--metric latency rows"
"$SCHEDRIG" compare --db "$DB" --layout latency --metric latency --metric latency >"$WORK/ml.txt" ||
	fail "--layout latency --metric latency twice"
assert_eq "$(grep -c '^ct latency (us, lower is better), variant running, run hist: every event' "$WORK/ml.txt")" 1 \
	"latency layout with --metric latency"
set +e
err=$("$SCHEDRIG" compare --db "$DB" --layout percentiles --metric histogram_us 2>&1 >/dev/null)
assert_eq "$?" 2 "--metric histogram_us"
set -e
assert_contains "$err" "--metric histogram_us matches no metric (the selected runs hold: min_latency, avg_latency, max_latency, overflows, sched_run_ms, sched_wait_ms, sched_timeslices, sched_voluntary_switches, sched_involuntary_switches, sched_migrations, cgroup_cpu_ms, latency)" \
	"metrics listed"

# report builds its summary as compare does (one path, reportcmd_prepare):
# --metric may name the histogram, whose pooled percentiles its Percentiles
# section shows, and a --metric that leaves the histogram out leaves out its
# tables too. Its markdown has the latency summary of text and html.
"$SCHEDRIG" report --db "$DB" --percentiles 50,90,99 --metric latency >"$WORK/r.txt" ||
	fail "report --metric latency: $(cat "$WORK/r.txt")"
sed -n '/^Percentiles$/,$p' "$WORK/r.txt" >"$WORK/rp.txt"
check_pooled "$WORK/rp.txt"
assert_eq "$(sed -n '/^ct latency (us/,/^$/p' "$WORK/rp.txt" | grep '^|[01] ')" \
	"$(sed -n '/^ct latency (us/,/^$/p' "$WORK/p.txt" | grep '^|[01] ')" "report --metric latency rows"
"$SCHEDRIG" report --db "$DB" --metric max_latency >"$WORK/r2.txt" || fail "report --metric max_latency"
assert_eq "$(grep -c '^ct latency (us' "$WORK/r2.txt" || true)" 0 "histogram tables of report --metric max_latency"
assert_eq "$(grep -c '^ct max_latency (us' "$WORK/r2.txt")" 3 "max_latency in report's three sections"
"$SCHEDRIG" report --db "$DB" --format markdown >"$WORK/r.md" || fail "report --format markdown"
assert_contains "$(sed -n '/^## Latency summary$/,$p' "$WORK/r.md")" \
	"ct latency (us, lower is better), variant running, run hist: every event, pooled over iterations" \
	"latency summary in report --format markdown"

# A 1 us histogram: every wake-up takes longer, all samples overflow, every
# percentile is censored.
sed -e 's/histogram_us: 200/histogram_us: 1/' -e 's/duration_s: 2/duration_s: 1/' \
	-e 's/iterations: 2/iterations: 1/' -e 's/name: hist/name: tiny/' "$WORK/h.yaml" >"$WORK/t.yaml"
"$SCHEDRIG" run "$WORK/t.yaml" --db "$DB" --quiet >"$WORK/run2.out" 2>&1 || fail "run tiny: $(cat "$WORK/run2.out")"
min=$(q "$DB" "SELECT min(s.value) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
	JOIN run r ON r.id = v.run_id WHERE r.name = 'tiny' AND s.metric = 'max_latency'")
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 1 else 1)" "$min" || fail "max latency $min us is not above 1 us"
"$SCHEDRIG" compare --db "$DB" --layout percentiles --percentiles 50,90,99 tiny >"$WORK/t.txt" ||
	fail "compare tiny"
box=$(sed -n '/^ct latency (us/,/^$/p' "$WORK/t.txt")
grep -Eq '^\|0 \| +>=1 \| +>=1 \| +>=1 \|$' <<<"$box" || fail "thread 0 not censored: $box"
grep -Eq '^\|1 \| +>=1 \| +>=1 \| +>=1 \|$' <<<"$box" || fail "thread 1 not censored: $box"
assert_contains "$box" ">=LIMIT: the percentile lies in the histogram overflow" "censoring footer"
# every event overflowed: latt's Avg and Stdev are unknown, and a footnote
# says why
lat=$("$SCHEDRIG" compare --db "$DB" --layout latency tiny)
grep -Eq '^        Avg +NaN us$' <<<"$lat" || fail "Avg of overflowed events: $lat"
assert_contains "$lat" "NaN Avg and Stdev: events in the histogram overflow (at or above its limit) have no value" \
	"overflow footnote"
echo "histogram: ok"
