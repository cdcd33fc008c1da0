#!/bin/bash
# schedrig plot: PNG and SVG files exist and are valid (PNG signature, SVG
# parses with xml.etree), every variant's title is printed literally
# (noenhanced), deterministic names; mean/box/hist/cdf/heatmap/interval
# kinds; an all-NaN series is left out with a note, an empty data set draws
# nothing and says why; gnuplot missing or failing gives a clear error.
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
DB=$WORK/p.db
command -v gnuplot >/dev/null || fail "gnuplot is not installed (scripts/install-deps)"

# Variants whose names gnuplot's enhanced mode would mangle (_ ^ { } @ &).
sed -e 's/,5\.15\.0-rc1-vanilla,/,v6.10-rc1_sched_ext,/' \
    -e 's/,5\.15\.0-rc1-sched-scalewakegran-v2r5,/,x^2{a}@b_c \& <d>,/' \
	"$DATA/dbench.csv" >"$WORK/dbench.csv"
"$SCHEDRIG" import --csv "$WORK/dbench.csv" --run dbench --db "$DB" >/dev/null
"$SCHEDRIG" plot --db "$DB" dbench --output-dir "$WORK/out" >"$WORK/files.txt" || fail "plot dbench"
for f in dbench-latency-mean dbench-latency-box dbench-latency-1-hist dbench-latency-1-cdf \
	dbench-latency-128-cdf; do
	for ext in png svg gp dat; do
		[ -s "$WORK/out/$f.$ext" ] || fail "$f.$ext missing"
	done
	grep -qx "$WORK/out/$f.svg" "$WORK/files.txt" || fail "$f.svg not listed"
done
python3 - "$WORK/out" v6.10-rc1_sched_ext 'x^2{a}@b_c & <d>' 5.15.0-rc1-sched-moveforward-v1r1 <<'PY' || fail "figure files"
import glob, os, sys
import xml.etree.ElementTree as ET
d, names = sys.argv[1], sys.argv[2:]
pngs, svgs = sorted(glob.glob(d + "/*.png")), sorted(glob.glob(d + "/*.svg"))
assert len(pngs) == len(svgs) >= 5, (len(pngs), len(svgs))
for p in pngs:
    assert open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", p
for s in svgs:
    root = ET.parse(s).getroot()
    assert root.tag.endswith("svg"), s
    texts = ["".join(e.itertext()) for e in root.iter() if e.tag.endswith("}text")]
    for n in names:
        # every variant's key, literally (no subscripts, no escapes)
        assert any(n in t for t in texts), (s, n, texts)
# the scripts: noenhanced everywhere, the C locale's decimal point
for g in glob.glob(d + "/*.gp"):
    text = open(g).read()
    assert "set termoption noenhanced" in text, g
    for line in text.splitlines():
        if " title '" in line and not line.startswith("set "):
            assert "noenhanced" in line, (g, line)
for dat in glob.glob(d + "/*.dat"):
    for line in open(dat):
        assert "," not in line, (dat, line)
PY

# Deterministic: the same files again, byte for byte for data and scripts.
"$SCHEDRIG" plot --db "$DB" dbench --output-dir "$WORK/out2" >/dev/null
for f in "$WORK"/out/*.gp "$WORK"/out/*.dat; do
	cmp -s "$f" "$WORK/out2/$(basename "$f")" || fail "$(basename "$f") differs between runs"
done
# --format svg, --logx, --errorbars ci95
"$SCHEDRIG" plot --db "$DB" dbench --output-dir "$WORK/svg" --format svg --logx --errorbars ci95 >/dev/null
[ -z "$(ls "$WORK"/svg/*.png 2>/dev/null)" ] || fail "--format svg wrote PNG"
grep -q "logscale x" "$WORK/svg/dbench-latency-1-hist.gp" || fail "--logx"
grep -q "95% CI" "$WORK/svg/dbench-latency-mean.gp" || fail "--errorbars ci95"

# A grid of two matrix axes: a heat map.
"$SCHEDRIG" import --csv "$DATA/grid.csv" --run grid --db "$DB" >/dev/null
"$SCHEDRIG" plot --db "$DB" grid --output-dir "$WORK/grid" >/dev/null || fail "plot grid"
[ -s "$WORK/grid/cyclictest-latency_max-heatmap.svg" ] || fail "no heat map"
grep -q "hackbench.latency_nice" "$WORK/grid/cyclictest-latency_max-heatmap.svg" || fail "heat map axis"

# Interval series: tcp-rr interval_transactions, op pairP-sK.
{
	echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
	for v in base v6.10-rc1_sched_ext; do for it in 1 2; do for p in 0 1; do for k in 0 1 2 3; do
		echo "rr,$v,c,tcp-rr,interval_transactions,transactions/s,higher,pair$p-s$k,$it,$((1000 + k * 10 + p + it))"
	done; done; done; done
} >"$WORK/rr.csv"
"$SCHEDRIG" import --csv "$WORK/rr.csv" --run rr --db "$DB" >/dev/null
"$SCHEDRIG" plot --db "$DB" rr --output-dir "$WORK/rr" >/dev/null || fail "plot interval"
[ -s "$WORK/rr/tcp-rr-interval_transactions-interval.svg" ] || fail "no interval figure"
[ ! -e "$WORK/rr/tcp-rr-interval_transactions-mean.svg" ] || fail "interval ops drawn as a mean figure"
# totals over pairs, mean over iterations: s0 = (1000+1+1000+2 + 1000+2+1000+3)/2 = 2004
head -1 "$WORK/rr/tcp-rr-interval_transactions-interval.dat" | grep -q '^0 2004 ' || fail "interval totals"

# An all-NaN series is left out with a note; the others are drawn.
{
	echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
	for it in 1 2 3; do
		echo "nan,good,c,lat,wake_latency,us,lower,,$it,$((10 + it))"
		echo "nan,allnan,c,lat,wake_latency,us,lower,,$it,NaN"
	done
} >"$WORK/nan.csv"
"$SCHEDRIG" import --csv "$WORK/nan.csv" --run nan --db "$DB" >/dev/null
"$SCHEDRIG" plot --db "$DB" nan --output-dir "$WORK/nan" >/dev/null 2>"$WORK/nan.err" || fail "plot nan"
grep -q "note: lat-wake_latency-mean: series 'allnan' left out: no finite value" "$WORK/nan.err" ||
	fail "no note for the all-NaN series: $(cat "$WORK/nan.err")"
grep -q "good" "$WORK/nan/lat-wake_latency-mean.svg" || fail "the finite series is missing"
! grep -q "allnan" "$WORK/nan/lat-wake_latency-mean.svg" || fail "the all-NaN series was drawn"

# Every series NaN: no figure, and the command says why (exit 1).
{
	echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
	for it in 1 2; do echo "allnan,v,c,lat,wake_latency,us,lower,,$it,NaN"; done
} >"$WORK/allnan.csv"
"$SCHEDRIG" import --csv "$WORK/allnan.csv" --run allnan --db "$DB" >/dev/null
set +e
"$SCHEDRIG" plot --db "$DB" allnan --output-dir "$WORK/allnan" >/dev/null 2>"$WORK/allnan.err"
rc=$?
set -e
assert_eq "$rc" 1 "all-NaN exit status"
grep -q "lat-wake_latency-mean: not drawn: no series has a finite value" "$WORK/allnan.err" ||
	fail "no reason for the figure not drawn: $(cat "$WORK/allnan.err")"
grep -q "no figure drawn" "$WORK/allnan.err" || fail "no summary message"
[ -z "$(ls "$WORK"/allnan/*.svg 2>/dev/null)" ] || fail "a figure without series was drawn"

# An empty data set: a run without samples.
printf '%s\n' "run,variant,cell,load,metric,unit,better,op,iteration,value" >"$WORK/empty.csv"
"$SCHEDRIG" import --csv "$WORK/empty.csv" --run empty --db "$DB" >/dev/null 2>&1 || true
set +e
err=$("$SCHEDRIG" plot --db "$DB" empty --output-dir "$WORK/empty" 2>&1 >/dev/null)
rc=$?
set -e
assert_eq "$rc" 1 "empty data set exit status"
assert_contains "$err" "no figure drawn" "empty data set message"

# gnuplot missing: a clear error.
mkdir -p "$WORK/bin"
set +e
err=$(PATH="$WORK/bin" "$SCHEDRIG" plot --db "$DB" dbench --output-dir "$WORK/nognuplot" 2>&1 >/dev/null)
rc=$?
set -e
assert_eq "$rc" 1 "gnuplot missing exit status"
assert_contains "$err" "gnuplot is not installed" "gnuplot missing message"
# gnuplot failing: its stderr is part of the error.
printf '#!/bin/sh\necho "line 7: undefined variable: bogus" >&2\nexit 1\n' >"$WORK/bin/gnuplot"
chmod +x "$WORK/bin/gnuplot"
set +e
err=$(PATH="$WORK/bin" "$SCHEDRIG" plot --db "$DB" dbench --output-dir "$WORK/badgnuplot" 2>&1 >/dev/null)
rc=$?
set -e
assert_eq "$rc" 1 "gnuplot failing exit status"
assert_contains "$err" "failed (exit status 1)" "gnuplot failure message"
assert_contains "$err" "line 7: undefined variable: bogus" "gnuplot stderr in the message"

# Usage.
set +e
"$SCHEDRIG" plot --db "$DB" dbench >/dev/null 2>&1
assert_eq "$?" 2 "--output-dir missing"
"$SCHEDRIG" plot --db "$DB" dbench --output-dir "$WORK/x" --format jpeg >/dev/null 2>&1
assert_eq "$?" 2 "bad --format"
set -e
exit 0
