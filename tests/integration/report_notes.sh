#!/bin/bash
# The notes under the tables ("Iterations: ..." of adaptive iterations, "No
# samples: ..." of cells and variants without a complete iteration) in
# every output that has room for them: each text layout of compare, report
# text, markdown (a list with markdown's characters escaped), report html
# (an escaped list), JSON ("notes"), schedrig mail (a note longer than a
# mail line folded, never refused); not in CSV. When nothing is left to
# show, the error message is followed by the notes on stderr.
# The failing variant sets a sysctl to a value the kernel refuses when it is
# written (preflight finds the knob there and writable): it needs root.
source "$(dirname "$0")/lib.sh"
DB=$WORK/n.db
AG=/proc/sys/kernel/sched_autogroup_enabled
if [ "$(id -u)" -ne 0 ] || [ ! -w "$AG" ]; then
	echo "skipped: needs root and a writable $AG"
	exit 0
fi

# Two axes (for the grid), adaptive iterations, a cell that times out on
# every variant and a variant that fails before running anything.
cat >"$WORK/notes.yaml" <<EOF2
name: notes
iterations: {min: 2, max: 3, ci_pct: 50}
variants:
  - {name: a}
  - {name: broken, sysctl: {kernel.sched_autogroup_enabled: 7}}
  - {name: b}
loads:
  - name: fake
    tool: fake
    timeout_s: 1
    params: {state_file: $WORK/state, sleep_ms: [0, 3000], mean: [100, 200]}
EOF2
rc=0
"$SCHEDRIG" run "$WORK/notes.yaml" --db "$DB" --quiet >"$WORK/run.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "exit status of a run with failures ($(cat "$WORK/run.out"))"

out=$("$SCHEDRIG" compare --db "$DB" notes) || fail "compare: $out"
notes=$(grep -E '^(Order|Iterations|No samples): ' <<<"$out")
assert_eq "$(head -1 <<<"$notes")" "Order: interleaved" "the order the run kept, first"
assert_eq "$(grep -c '^Iterations: variant [ab] cell ' <<<"$notes")" 8 "an Iterations note per cell and variant"
assert_eq "$(grep '^No samples:' <<<"$notes")" "No samples: cell fake.sleep_ms=3000,fake.mean=100 on variant a: none of 3 iteration(s) complete
No samples: cell fake.sleep_ms=3000,fake.mean=200 on variant a: none of 3 iteration(s) complete
No samples: variant broken (failed): no complete iteration
No samples: cell fake.sleep_ms=3000,fake.mean=100 on variant b: none of 3 iteration(s) complete
No samples: cell fake.sleep_ms=3000,fake.mean=200 on variant b: none of 3 iteration(s) complete
No samples: the failures are in schedrig show 1" "No samples notes"
# After the tables, set off by a blank line, and the last lines of the output.
n=$(($(wc -l <<<"$notes") + 1))
assert_eq "$(tail -n "$n" <<<"$out")" "
$notes" "notes at the end of the mmtests layout"

for layout in "--layout latency" "--layout percentiles" "--grid fake.sleep_ms,fake.mean"; do
	# shellcheck disable=SC2086
	got=$("$SCHEDRIG" compare --db "$DB" notes $layout) || fail "compare $layout: $got"
	assert_eq "$(tail -n "$n" <<<"$got")" "
$notes" "notes under compare $layout"
done
got=$("$SCHEDRIG" compare --db "$DB" notes --grid fake.sleep_ms,fake.mean)
assert_contains "$got" "mean=100" "the grid itself"

# Markdown: a list after the tables; _ * < > | & ~ [ ] ` \ escaped.
md_notes=$(sed -e 's/[][\\`*_<>|&~]/\\&/g' -e 's/^/- /' <<<"$notes")
assert_contains "$md_notes" '- No samples: cell fake.sleep\_ms=3000,fake.mean=100 on variant a' "escaped list item"
got=$("$SCHEDRIG" compare --db "$DB" notes --format markdown)
assert_eq "$(tail -n "$n" <<<"$got")" "
$md_notes" "notes under compare --format markdown"
got=$("$SCHEDRIG" report --db "$DB" notes --format markdown)
assert_contains "$got" "
$md_notes

## Percentiles" "notes under the comparison of report --format markdown"
got=$("$SCHEDRIG" report --db "$DB" notes)
assert_contains "$got" "
$notes

Percentiles
===========" "notes under the comparison of report"

# JSON: "notes", the same texts in the same order.
"$SCHEDRIG" compare --db "$DB" notes --format json >"$WORK/c.json" || fail "compare --format json"
"$SCHEDRIG" report --db "$DB" notes --format json >"$WORK/r.json" || fail "report --format json"
printf '%s\n' "$notes" >"$WORK/notes.txt"
python3 - "$WORK/notes.txt" "$WORK/c.json" "$WORK/r.json" <<'PY' || fail "JSON notes"
import json, sys
want = open(sys.argv[1]).read().splitlines()
for path in sys.argv[2:]:
    d = json.load(open(path))
    assert d["notes"] == want, (path, d["notes"], want)
    assert d["tables"], path
PY

# CSV stays data: the header and summary rows only.
got=$("$SCHEDRIG" compare --db "$DB" notes --format csv)
assert_eq "$(head -n 1 <<<"$got")" "load,metric,unit,better,run,variant,cell,op,stat,value,pct,n,p_value,significant" "CSV header"
assert_eq "$(grep -c -e 'No samples' -e 'Iterations' <<<"$got")" 0 "notes in CSV"
assert_contains "$("$SCHEDRIG" compare --help)" "csv is the summary rows only" "compare --help on CSV"
assert_contains "$("$SCHEDRIG" report --help)" "is the summary rows only" "report --help on CSV"

# HTML: a list of the notes under the comparison tables, escaped.
"$SCHEDRIG" report --db "$DB" notes --format html --output "$WORK/r.html" 2>"$WORK/html.err" ||
	fail "report --format html: $(cat "$WORK/html.err")"
python3 - "$WORK/notes.txt" "$WORK/r.html" <<'PY' || fail "HTML notes"
import sys
from html.parser import HTMLParser
want = open(sys.argv[1]).read().splitlines()
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_list = self.in_li = False
        self.items, self.seen = [], []
    def handle_starttag(self, tag, attrs):
        self.seen.append(tag if tag != "h2" else "h2:" + dict(attrs).get("id", ""))
        if tag == "ul" and dict(attrs).get("class") == "run-notes":
            self.in_list = True
            self.seen.append("run-notes")
        elif tag == "li" and self.in_list:
            self.in_li = True
            self.items.append("")
    def handle_endtag(self, tag):
        if tag == "ul":
            self.in_list = False
        elif tag == "li":
            self.in_li = False
    def handle_data(self, data):
        if self.in_li:
            self.items[-1] += data
p = P()
p.feed(open(sys.argv[2]).read())
assert p.items == want, (p.items, want)
seen = p.seen
assert seen.index("h2:comparison") < seen.index("run-notes") < seen.index("h2:percentiles"), seen
PY

# mail: the notes follow the tables in the body as compare prints them.
"$SCHEDRIG" mail --db "$DB" notes --from r@example.org --to m@example.org --subject s \
	--output "$WORK/notes.eml" || fail "mail --output"
body=$(sed '1,/^$/d' "$WORK/notes.eml")
assert_contains "$body" "
$notes
" "notes in the mail body"

# A --metric matching nothing is refused: the message naming the metrics
# there are, then the notes, on stderr; nothing to show for a --load either.
rc=0
"$SCHEDRIG" compare --db "$DB" notes --metric nosuch >"$WORK/none.out" 2>"$WORK/none.err" || rc=$?
assert_eq "$rc" 2 "exit status when --metric matches nothing"
assert_eq "$(cat "$WORK/none.err")" "schedrig compare: --metric nosuch matches no metric (the selected runs hold: value, sched_run_ms, sched_wait_ms, sched_timeslices, sched_voluntary_switches, sched_involuntary_switches, sched_migrations, cgroup_cpu_ms)
$notes" "notes after the refused --metric"
[ ! -s "$WORK/none.out" ] || fail "stdout when no sample matches: $(cat "$WORK/none.out")"
rc=0
"$SCHEDRIG" compare --db "$DB" notes --load nosuch >"$WORK/none.out" 2>"$WORK/none.err" || rc=$?
assert_eq "$rc" 1 "exit status when no sample matches"
assert_eq "$(cat "$WORK/none.err")" "schedrig compare: no samples match --load nosuch
$notes" "notes after 'no samples match'"
cat >"$WORK/broken.yaml" <<'EOF2'
name: broken-only
iterations: 1
variants:
  - {name: broken, sysctl: {kernel.sched_autogroup_enabled: 7}}
loads:
  - {tool: fake}
EOF2
"$SCHEDRIG" run "$WORK/broken.yaml" --db "$DB" --quiet >/dev/null 2>&1 && fail "a run of a failing variant exited 0"
for cmd in compare report mail; do
	rc=0
	extra=()
	[ "$cmd" = mail ] && extra=(--from r@example.org --to m@example.org --subject s --dry-run)
	"$SCHEDRIG" "$cmd" --db "$DB" broken-only "${extra[@]}" >/dev/null 2>"$WORK/empty.err" || rc=$?
	assert_eq "$rc" 1 "$cmd: exit status of a run without samples"
	assert_eq "$(cat "$WORK/empty.err")" "schedrig $cmd: the selected runs hold no samples
Order: interleaved
No samples: variant broken (failed): no complete iteration
No samples: the failures are in schedrig show 2" "$cmd: notes after 'the selected runs hold no samples'"
done

# A note longer than a mail line (a cell named after a 1100-character
# path) is folded into lines of at most 998 octets, not refused.
long=$WORK/missing/$(printf 'p%.0s' $(seq 1100))
cat >"$WORK/long.yaml" <<EOF2
name: long-note
iterations: 1
loads:
  - {tool: fake, params: {state_file: ["$WORK/state3", "$long"]}}
EOF2
"$SCHEDRIG" run "$WORK/long.yaml" --db "$DB" --quiet >/dev/null 2>&1 && fail "a run with a failing cell exited 0"
note=$("$SCHEDRIG" compare --db "$DB" long-note | grep '^No samples: cell ')
assert_eq "$note" "No samples: cell fake.state_file=$long on variant running: none of 1 iteration(s) complete" "the long note"
"$SCHEDRIG" mail --db "$DB" long-note --from r@example.org --to m@example.org --subject s \
	--output "$WORK/long.eml" || fail "a mail with a long note was refused"
awk '{ if (length($0) > 998) { print "line " NR " is " length($0) " octets"; bad = 1 } } END { exit bad }' \
	"$WORK/long.eml" || fail "a line over 998 octets"
folded=$(sed -n '/^No samples: cell/,/^No samples: the failures/p' "$WORK/long.eml" | sed '$d')
assert_eq "$(wc -l <<<"$folded")" 3 "the long note folded into 3 lines"
assert_eq "$(sed -n 2p <<<"$folded" | cut -c1-19)" "  fake.state_file=/" "continuation lines indented"
assert_eq "$(tr -d ' \n' <<<"$folded")" "$(tr -d ' ' <<<"$note")" "the folded note holds the note"

# NaN samples are named (variant, op, count) in every format, and a group
# left with no value says so: 3 values of b-y, one NaN, give n 2.
printf '%s\n' "run,variant,cell,load,metric,unit,better,op,iteration,value" \
	"nan,a-x,default,fake,value,units,lower,1,1,5" "nan,a-x,default,fake,value,units,lower,1,2,6" \
	"nan,b-y,default,fake,value,units,lower,1,1,nan" "nan,b-y,default,fake,value,units,lower,1,2,7" \
	"nan,b-y,default,fake,value,units,lower,1,3,8" "nan,c-z,default,fake,value,units,lower,1,1,NaN" \
	>"$WORK/nan.csv"
"$SCHEDRIG" import --csv "$WORK/nan.csv" --db "$WORK/nan.db" >/dev/null
want_nan="NaN samples (left out of n and every statistic): fake value, cell default, run nan, b-y op 1: 1; fake value, cell default, run nan, c-z op 1: 1"
want_none="No samples: fake value, cell default, run nan, c-z op 1 (its statistics are undefined: 0 in the mmtests tables, as compare-mmtests.pl prints them, NaN elsewhere)"
text=$("$SCHEDRIG" compare --db "$WORK/nan.db" nan)
assert_contains "$text" "n: a-x 2, b-y 2, c-z 0" "n without the NaN"
assert_contains "$text" "$want_nan" "text NaN note"
assert_contains "$text" "$want_none" "text no-samples note"
for layout in "--layout mmtests-wide" "--layout percentiles" "--layout latency"; do
	# shellcheck disable=SC2086
	assert_contains "$("$SCHEDRIG" compare --db "$WORK/nan.db" nan $layout)" "$want_nan" "$layout NaN note"
done
assert_contains "$("$SCHEDRIG" compare --db "$WORK/nan.db" nan --format markdown)" \
	"- NaN samples (left out of n and every statistic): fake value, cell default, run nan, b-y op 1: 1;" "markdown NaN note"
"$SCHEDRIG" compare --db "$WORK/nan.db" nan --format json | python3 -c '
import json, sys
notes = json.load(sys.stdin)["notes"]
assert sys.argv[1] in notes and sys.argv[2] in notes, notes' "$want_nan" "$want_none" || fail "json notes"
echo ok
