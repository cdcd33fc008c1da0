#!/bin/bash
# schedrig compare prints what compare-mmtests.pl prints, without
# --decimals. CSVs imported with the tool column (each load renamed, so
# only the tool can give its decimals) lay out byte for byte as the tables
# and --print-ratio views that mmtests itself printed for the same samples
# (tests/data/mmtests/; the one header row where the rig splits a name
# without '-' otherwise on purpose edited as test_reports does); without
# any flag the same cells under a title (stars from Welch there); and a
# stored hackbench run's tables, recomputed from its exported samples
# (mmtests_numbers.py), with a Kernel line per column.
source "$(dirname "$0")/lib.sh"
MM=$(cd "$(dirname "$0")/../data/mmtests" && pwd)
NUMBERS=$(cd "$(dirname "$0")" && pwd)/mmtests_numbers.py
DB=$WORK/r.db
cd "$WORK"

# import NAME CSV TOOL: CSV's samples as run NAME, load "L-NAME", tool TOOL
import() {
	python3 - "$2" "$1" "$3" >"$1.csv" <<'PY'
import csv, sys
src, run, tool = sys.argv[1:4]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow("run,variant,cell,load,metric,unit,better,op,iteration,value,tool".split(","))
for r in csv.DictReader(open(src)):
    w.writerow([run, r["variant"], r["cell"], "L-" + run, r["metric"], r["unit"], r["better"],
                r["op"], r["iteration"], r["value"], tool])
PY
	"$SCHEDRIG" import --db "$DB" --csv "$1.csv" >/dev/null || fail "import $1"
}
import hackbench "$MM/hackbench.csv" hackbench
import netperf "$MM/netperf.csv" netperf-tcp-rr
import zero-mean "$MM/zero-mean.csv" hackbench
import missing-op "$MM/missing-op.csv" netperf-tcp-rr
import one-sample "$MM/one-sample.csv" hackbench
import one-sample-hmean "$MM/one-sample-hmean.csv" netperf-tcp-rr
import one-sample-baseline "$MM/one-sample-baseline.csv" hackbench

# want GOLDEN: the golden text, its first header row edited (report.h
# report_split_header: "running" and "tip" are not split)
want() {
	sed -e '1s/runnin/      /g' -e '1s/ti$/  /' "$MM/$1.txt"
}
# same RUN GOLDEN OPTION...: compare's text is the golden text
same() {
	local run=$1 golden=$2
	shift 2
	"$SCHEDRIG" compare --db "$DB" "$run" --significance ci-overlap --plain "$@" >got.txt ||
		fail "compare $run $*"
	want "$golden" >want.txt
	diff -u want.txt got.txt || fail "$run $* differs from mmtests' $golden"
}
for set in hackbench netperf zero-mean; do
	same "$set" "$set.classic"
	same "$set" "$set.ratio.classic" --ratio
done
for set in hackbench netperf zero-mean missing-op one-sample one-sample-hmean; do
	same "$set" "$set.newer" --layout mmtests-wide
	same "$set" "$set.ratio.newer" --layout mmtests-wide --ratio
done
same missing-op missing-op.ratio.classic --ratio
same one-sample-baseline one-sample-baseline.ratio.newer --layout mmtests-wide --ratio

# Without flags: a title above, the same cells below it; only the stars
# may differ (Welch, not mmtests' CI-overlap), so both lose theirs.
unstar() {
	sed -e 's/ \*\( *-\{0,1\}[0-9.]*\)%\*/ (\1%)/g'
}
"$SCHEDRIG" compare --db "$DB" hackbench >plain.txt
assert_eq "$(head -1 plain.txt)" "L-hackbench time (s, lower is better), cell default, run hackbench" "title"
want hackbench.classic | unstar >want.txt
sed -n "2,$(($(wc -l <want.txt) + 1))p" plain.txt | unstar >got.txt
diff -u want.txt got.txt || fail "compare without flags differs from mmtests' cells"
grep -q '^Significance (stars, on the Amean row): Welch' plain.txt || fail "footer names Welch"
"$SCHEDRIG" compare --db "$DB" missing-op --layout mmtests-wide >plain.txt
want missing-op.newer | unstar >want.txt
sed -n "2,$(($(wc -l <want.txt) + 1))p" plain.txt | unstar >got.txt
diff -u want.txt got.txt || fail "missing-op without flags differs from mmtests' cells"
grep -qx 'Undefined (printed 0 as compare-mmtests.pl prints it): 6.1-sched-fewer-v1 op 256 (no samples)' \
	plain.txt || fail "the undefined statistics named: $(cat plain.txt)"
grep -qx 'Left out as compare-mmtests.pl leaves them out (no sample in the baseline 6.1-vanilla): op 1024' \
	plain.txt || fail "the op the baseline lacks named"
"$SCHEDRIG" compare --db "$DB" one-sample --ratio >plain.txt
grep -q '^Ratio 8 ' plain.txt || fail "--ratio rows"
grep -q "^Ratio (compare-mmtests.pl --print-ratio): each column's Amean over 6.12-vanilla's" plain.txt ||
	fail "--ratio footer"

# --ratio needs an mmtests layout, in text
set +e
err=$("$SCHEDRIG" compare --db "$DB" hackbench --ratio --layout latency 2>&1)
assert_eq "$?" 2 "--ratio with the latency layout"
assert_contains "$err" "--ratio needs --layout mmtests or mmtests-wide" "message"
err=$("$SCHEDRIG" compare --db "$DB" hackbench --ratio --format json 2>&1)
assert_eq "$?" 2 "--ratio as json"
set -e

# A stored run of the real hackbench: its decimals come from the tool, every
# number is what mmtests' rules give for the exported samples, and each
# column names the kernel it ran (this machine's).
command -v hackbench >/dev/null || skip "hackbench (rt-tests) is not installed"
cat >hb.yaml <<'YAML'
name: hb-two
iterations: 3
variants:
  - {name: v-base, boot: local}
  - {name: v-again, boot: local}
loads:
  - name: hb
    tool: hackbench
    params: {mode: process, ipc: pipe, groups: [1, 2], loops: 200}
YAML
"$SCHEDRIG" run hb.yaml --db run.db --quiet >run.txt 2>&1 || fail "run: $(cat run.txt)"
"$SCHEDRIG" compare --db run.db >cmp.txt
"$SCHEDRIG" export --db run.db >exp.csv
n=$(python3 "$NUMBERS" titled cmp.txt exp.csv) || fail "a number of the stored run disagrees: $(cat cmp.txt)"
assert_eq "$n" 32 "numbers checked"
grep -Eq '^Amean     1 +[0-9]+\.[0-9]{4} \(   0\.00%\)' cmp.txt || fail "hackbench's 4 decimals"
# One Kernel line per column under every table (hackbench's time and the
# measured window's schedstat deltas, per groups cell).
tables=$(grep -c '^hb ' cmp.txt)
assert_eq "$(grep -c '^hb time ' cmp.txt)" 2 "a time table per cell"
assert_eq "$(grep -c "^Kernel v-base: $(uname -r) (local)$" cmp.txt)" "$tables" "Kernel line of v-base"
assert_eq "$(grep -c "^Kernel v-again: $(uname -r) (local)$" cmp.txt)" "$tables" "Kernel line of v-again"
"$SCHEDRIG" compare --db run.db --plain >plain.txt 2>/dev/null
grep -q '^Kernel' plain.txt && fail "--plain has no Kernel lines"
echo "ok"
