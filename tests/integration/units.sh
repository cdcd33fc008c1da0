#!/bin/bash
# One metric in two units or two directions (CSV rows imported from two
# driver versions) gives separate tables, each titled with its own unit and
# direction, instead of one table labelled with the first unit that
# compares 51 us with 0.05 ms.
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
DB=$WORK/u.db

"$SCHEDRIG" import --csv "$DATA/units.csv" --run mixed --db "$DB" >/dev/null || fail "import"
out=$("$SCHEDRIG" compare --db "$DB" mixed) || fail "compare: $out"
assert_eq "$(grep -c ' is better), cell c, run mixed$' <<<"$out")" 5 "tables"
assert_eq "$(grep '^cyclictest latency' <<<"$out")" "cyclictest latency (us, lower is better), cell c, run mixed
cyclictest latency (ms, lower is better), cell c, run mixed" "a table per unit"
assert_eq "$(grep '^sysbench events' <<<"$out")" "sysbench events (events/s, higher is better), cell c, run mixed
sysbench events (events/s, lower is better), cell c, run mixed" "a table per direction"
assert_contains "$out" "
Amean     1       51.00 (   0.00%)
" "the us table holds the us samples only"
assert_contains "$out" "
Amean     1        0.05 (   0.00%)
" "the ms table holds the ms samples only"
assert_contains "$out" "
Hmean     1     1004.98 (   0.00%)
" "higher is better: Hmean"
python3 - <("$SCHEDRIG" compare --db "$DB" mixed --format json) <<'PY' || fail "JSON tables"
import json, sys
d = json.load(open(sys.argv[1]))
got = [(t["load"], t["metric"], t["unit"], t["better"], t["columns"]) for t in d["tables"]]
# The store gives the rows variant by variant: old's tables come first.
assert got == [("cyclictest", "latency", "us", "lower", ["old"]),
               ("hackbench", "time", "s", "lower", ["old", "new"]),
               ("sysbench", "events", "events/s", "higher", ["old"]),
               ("cyclictest", "latency", "ms", "lower", ["new"]),
               ("sysbench", "events", "events/s", "lower", ["new"])], got
PY

# The run name given on the command line is held to the rule of the names
# in the file: UTF-8 without control characters.
for bad in "$(printf 'a\001b')" "$(printf 'a\377b')"; do
	rc=0
	"$SCHEDRIG" import --csv "$DATA/units.csv" --run "$bad" --db "$WORK/bad.db" 2>"$WORK/bad.err" || rc=$?
	assert_eq "$rc" 2 "exit status of import --run with a control character or bad UTF-8"
	assert_eq "$(cat "$WORK/bad.err")" "schedrig import: --run is not UTF-8 text without control characters" \
		"message of import --run with bad text"
done
echo ok
