#!/bin/bash
# import → compare → export round trip through the results database.
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
DB=$WORK/r.db

# usage errors exit 2, --help exits 0
for c in compare report export import; do
	"$SCHEDRIG" $c --help >/dev/null || fail "$c --help"
	set +e
	"$SCHEDRIG" $c --no-such-option >/dev/null 2>&1
	rc=$?
	set -e
	assert_eq "$rc" 2 "$c --no-such-option exit status"
done
set +e
"$SCHEDRIG" import --db "$DB" >/dev/null 2>&1
assert_eq "$?" 2 "import without --csv"

# a bad row: line number, nothing imported, exit 1
printf '%s\n' "run,variant,cell,load,metric,unit,better,op,iteration,value" \
	"r,v,c,l,m,s,lower,1,1,1" "r,v,c,l,m,s,sideways,1,2,1" >"$WORK/bad.csv"
err=$("$SCHEDRIG" import --csv "$WORK/bad.csv" --run bad --db "$DB" 2>&1 >/dev/null)
assert_eq "$?" 1 "import of a bad row"
set -e
assert_contains "$err" "bad.csv:3: better is 'sideways'" "bad row message"
[ ! -f "$DB" ] || assert_eq "$(q "$DB" "SELECT count(*) FROM run WHERE name = 'bad'")" 0 "runs after a failed import"

out=$("$SCHEDRIG" import --csv "$DATA/dbench.csv" --run dbench-cmp --db "$DB")
assert_contains "$out" "imported 60 samples" "import message"

# compare: the mmtests table, with Welch stars as in tests/data/dbench.mmtests.txt
"$SCHEDRIG" compare --db "$DB" dbench-cmp >"$WORK/compare.txt"
diff -u "$DATA/dbench.mmtests.txt" "$WORK/compare.txt" || fail "compare differs from the golden table"
"$SCHEDRIG" compare --db "$DB" --format json >"$WORK/compare.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["tables"][0]["columns"][0]=="5.15.0-rc1-vanilla"' "$WORK/compare.json" \
	|| fail "compare --format json"
set +e
# --decimals: digits only, base 10
for d in " 3" "+3" "-1" "10" "3x" "0x3" ""; do
	"$SCHEDRIG" compare --db "$DB" --decimals "$d" >/dev/null 2>&1
	assert_eq "$?" 2 "--decimals '$d'"
done
"$SCHEDRIG" compare --db "$DB" --baseline nope >/dev/null 2>&1
assert_eq "$?" 2 "unknown --baseline"
"$SCHEDRIG" compare --db "$DB" no-such-run >/dev/null 2>&1
assert_eq "$?" 1 "unknown run"
set -e

# export csv reads back byte for byte, with the tool and repetition columns
# (a CSV without them imports as tool 'imported', repetition 0)
"$SCHEDRIG" export --db "$DB" --format csv dbench-cmp >"$WORK/export.csv"
sed -e '1s/$/,tool,repetition/' -e '2,$s/$/,imported,0/' "$DATA/dbench.csv" >"$WORK/dbench-tool.csv"
diff -u "$WORK/dbench-tool.csv" "$WORK/export.csv" || fail "export csv differs from the imported csv"

# a load has one tool
printf '%s\n' "run,variant,cell,load,metric,unit,better,op,iteration,value,tool" \
	"r,v,c,l,m,s,lower,1,1,1,hackbench" "r,v,c,l,m,s,lower,1,2,1," >"$WORK/tools.csv"
set +e
err=$("$SCHEDRIG" import --csv "$WORK/tools.csv" --db "$DB" 2>&1 >/dev/null)
assert_eq "$?" 1 "import of a load with two tools"
set -e
assert_contains "$err" "names load 'l' with tool 'hackbench' and ''; a load has one tool (nothing imported)" \
	"two tools message"

# export → import → export is stable (rows with an empty run take --run)
sed 's/^dbench-cmp,/,/' "$WORK/export.csv" >"$WORK/norun.csv"
"$SCHEDRIG" import --csv "$WORK/norun.csv" --run again --db "$DB" >/dev/null
"$SCHEDRIG" export --db "$DB" again | sed 's/^again,/dbench-cmp,/' >"$WORK/again.csv"
diff -u "$WORK/dbench-tool.csv" "$WORK/again.csv" || fail "second round trip differs"

# export json holds the same samples
"$SCHEDRIG" export --db "$DB" --format json dbench-cmp >"$WORK/export.json"
python3 - "$WORK/export.json" "$DATA/dbench.csv" <<'PY' || fail "export json differs from the csv"
import csv, json, math, sys
rows = json.load(open(sys.argv[1]))
want = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(want), (len(rows), len(want))
for r, w in zip(rows, want):
    for k in ("run", "variant", "cell", "load", "metric", "unit", "better", "op"):
        assert r[k] == w[k], (k, r[k], w[k])
    assert r["iteration"] == int(w["iteration"])
    assert r["value"] == float(w["value"]), (r["value"], w["value"])
    assert r["tool"] == "imported", r["tool"]
    assert r["repetition"] == 0, r["repetition"]
PY

# NaN survives the round trip, null in JSON
"$SCHEDRIG" import --csv "$DATA/netperf.csv" --db "$DB" >/dev/null
"$SCHEDRIG" export --db "$DB" tcp-rr | grep -q ',3,NaN,imported,0$' || fail "NaN in export csv"
"$SCHEDRIG" export --db "$DB" --format json tcp-rr | grep -q '"value": null' || fail "null in export json"

# report: all sections, to a file
"$SCHEDRIG" report --db "$DB" dbench-cmp --output "$WORK/report.txt"
for s in Provenance Comparison Percentiles "Latency summary"; do
	grep -q "^$s" "$WORK/report.txt" || fail "report lacks $s"
done

# grid on cells
"$SCHEDRIG" import --csv "$DATA/grid.csv" --db "$DB" >/dev/null
"$SCHEDRIG" compare --db "$DB" latnice --grid hackbench.latency_nice,cyclictest.latency_nice >"$WORK/grid.txt"
diff -u "$DATA/grid.grid.txt" "$WORK/grid.txt" || fail "grid differs from the golden grid"

# (mmtests' own tables through the command line: compare_mmtests.sh)
"$SCHEDRIG" import --csv "$DATA/mmtests/hackbench.csv" --run mm-hackbench --db "$DB" >/dev/null
# without --plain: the title first, the rule and n last; --decimals overrides
# hackbench's 4
"$SCHEDRIG" compare --db "$DB" mm-hackbench --decimals 1 >"$WORK/hb.txt"
assert_eq "$(head -1 "$WORK/hb.txt")" "hackbench time (s, lower is better), cell default, run mm-hackbench" "title"
# (Welch, the default, stars nothing where both Stddev are 0)
grep -q '^Amean     100        12.5 (   0.00%)        12.5 (  -0.00%)        12.9 (  -3.20%)        14.5 ( -16.00%)$' \
	"$WORK/hb.txt" || fail "--decimals 1 or a Welch star: $(grep '^Amean' "$WORK/hb.txt")"
tail -2 "$WORK/hb.txt" | head -1 | grep -q '^Significance (stars, on the Amean row): Welch.*, none where both Stddev are 0' ||
	fail "footer"

# The default tables are each load's headline metrics: tcp-rr's per-second
# interval series only on request; --metric takes several, refuses a
# metric that matches nothing
{
	echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
	for it in 1 2; do
		echo "rr,v,c,tcp-rr,transactions,transactions/s,higher,0,$it,3000$it"
		echo "rr,v,c,tcp-rr,interval_transactions,transactions/s,higher,pair0-s0,$it,2999$it"
		echo "rr,v,c,tcp-rr,latency,us,lower,p99,$it,4$it"
	done
} >"$WORK/rr.csv"
"$SCHEDRIG" import --csv "$WORK/rr.csv" --db "$DB" >/dev/null
"$SCHEDRIG" compare --db "$DB" rr >"$WORK/rr.txt"
assert_eq "$(grep -c 'is better)' "$WORK/rr.txt")" 2 "default tables"
grep -q interval_transactions "$WORK/rr.txt" && fail "an interval series in the default tables"
"$SCHEDRIG" report --db "$DB" rr | grep -q interval_transactions && fail "an interval series in report"
"$SCHEDRIG" compare --db "$DB" rr --metric interval_transactions --metric latency >"$WORK/rr2.txt"
assert_eq "$(grep 'is better)' "$WORK/rr2.txt" | cut -d' ' -f2 | tr '\n' ' ')" "interval_transactions latency " \
	"--metric twice"
"$SCHEDRIG" compare --db "$DB" rr --metric latency,transactions >"$WORK/rr3.txt"
assert_eq "$(grep -c 'is better)' "$WORK/rr3.txt")" 2 "--metric with a list"
# a name given twice is taken once
for twice in "--metric latency,latency" "--metric latency --metric latency"; do
	# shellcheck disable=SC2086
	"$SCHEDRIG" compare --db "$DB" rr $twice >"$WORK/rr4.txt" || fail "$twice refused"
	assert_eq "$(grep 'is better)' "$WORK/rr4.txt" | cut -d' ' -f2)" latency "$twice"
done
set +e
err=$("$SCHEDRIG" compare --db "$DB" rr --metric latency --metric latncy 2>&1 >/dev/null)
assert_eq "$?" 2 "--metric matching nothing"
set -e
assert_contains "$err" "--metric latncy matches no metric (the selected runs hold: transactions, interval_transactions, latency)" \
	"--metric message"
