#!/bin/bash
# schedrig bisect over a list of fake-load variants whose seeded mean moves
# at a known point: found in ceil(log2 8) + 2 = 5 measurements, each an
# ordinary run (compare reads it); two moves: the point where the metric
# crosses over to the bad end's side; every sample, p-value and verdict
# checked by bisect_check.py.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

# 1. One move, 100 -> 120 at p5 of p0..p8.
series shift 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
out=$("$SCHEDRIG" bisect shift.yaml --good p0 --bad p8 --db "$DB" 2>&1) ||
	fail "bisect exited $?: $out"
assert_contains "$out" "First bad point: p5 (k 5 of 8)" "the step"
assert_contains "$out" "Rule: Welch's two-sample t-test" "the rule is stated"
assert_contains "$out" "alpha 0.05" "alpha is stated"
assert_eq "$(measured "$DB" 1)" "0 8 4 6 5" "points measured"
assert_eq "$(q "$DB" "SELECT count(*) FROM run WHERE status = 'complete'")" 5 "one run per step"
assert_eq "$(q "$DB" "SELECT status || ' ' || result FROM bisection")" \
	"complete First bad point: p5 (k 5 of 8)" "stored result"
check "$DB" 1
# The step table and the mmtests table of good end / last good / first bad / bad end.
assert_contains "$out" "   5    5  p5       3" "step table row of p5"
# The right-aligned columns' headers end in the display column their
# values end in ("±" is one column of two bytes): python's str counts
# characters, not bytes.
ends=$(python3 -c '
import re, sys
lines = sys.stdin.buffer.read().decode("utf-8").splitlines()
hdr = next(l for l in lines if l.lstrip().startswith("step"))
row = next(l for l in lines if re.match(r"^ +5 +5  p5 ", l))
m = re.match(r"^ *(\d+) +(\d+)  (\S+) +(\d+) +(\S+ ± \S+)  (\S+) +(\S+) +(\S+)  ", row)
cols = ["n", "mean ± CI95", "p vs good", "p vs bad"]
h = [hdr.index(" " + c + " ") + 1 + len(c) for c in cols]
r = [m.end(4), m.end(5), m.end(7), m.end(8)]
print(" ".join("%s:%s" % (c, "ok" if a == b else "header %d, value %d" % (a, b)) for c, a, b in zip(cols, h, r)))' <<<"$out")
assert_eq "$ends" "n:ok mean ± CI95:ok p vs good:ok p vs bad:ok" "step table header over its values"
# (names without '-' are not split: a blank first header row over them)
hdr=$(grep -B1 '^ *p0 *p4 *p5 *p8$' <<<"$out" | tr -s ' ' | tr '\n' '|')
assert_eq "$hdr" " | p0 p4 p5 p8|" "mmtests columns"
assert_contains "$out" "Columns: p0 good end, p4 last good, p5 first bad, p8 bad end" \
	"the columns' roles, above the mmtests table"
assert_contains "$out" "Amean     0       99." "mmtests Amean row"
# Each step is an ordinary run: compare and show read it.
cmp=$("$SCHEDRIG" compare --db "$DB" 3) || fail "compare of a step run"
assert_contains "$cmp" "variant p4" "compare of step run 3"
assert_contains "$("$SCHEDRIG" show --db "$DB" 5)" "bisection  1, point 5 p5 (p5)" "show names the step"
show=$("$SCHEDRIG" bisect --show --db "$DB") || fail "bisect --show"
assert_contains "$show" "First bad point: p5" "bisect --show"
assert_contains "$("$SCHEDRIG" bisect --resume 1 --db "$DB")" "bisection 1 is complete: nothing to resume" \
	"resume of a finished bisection"

# 2. Two moves, 100 -> 105 at p3 and 105 -> 200 at p6: p3..p5 differ from
# both ends but are nearer the good end (|t|), so the first bad point is p6.
series two 100:1 100:1 100:1 105:1 105:1 105:1 200:1 200:1 200:1
out=$("$SCHEDRIG" bisect two.yaml --good p0 --bad p8 --db "$DB" 2>&1) ||
	fail "bisect of two moves exited $?: $out"
assert_contains "$out" "First bad point: p6 (k 6 of 8)" "the larger move"
assert_contains "$out" "differs from both ends" "a partial point is named"
check "$DB" 2
show=$("$SCHEDRIG" bisect --show 2 --db "$DB" 2>&1) || fail "--show of partial points: $show"
assert_contains "$show" "differs from both ends: part of the change may be here" \
	"--show: the partial points' reason, checked against their samples"

# 3. Backwards (--good after --bad in the list): the list read from p8
# down to p0.
out=$("$SCHEDRIG" bisect shift.yaml --good p8 --bad p0 --db "$DB" 2>&1) ||
	fail "backwards bisect exited $?: $out"
assert_contains "$out" "First bad point: p4 (k 4 of 8)" "walked from p8 to p0, p4 is the first to move"

# 4. schedrig mail --bisection: the result, the rule folded for a list, the
# step table and the mmtests table, with the provenance of those runs.
mail=$("$SCHEDRIG" mail --bisection 1 --db "$DB" --from a@example.org --to b@example.org \
	--subject "bisect: p5" --dry-run) || fail "mail --bisection"
assert_contains "$mail" "First bad point: p5 (k 5 of 8)" "mail: result"
assert_contains "$mail" "Rule: Welch's two-sample t-test (two-sided, Welch-Satterthwaite df) of each" \
	"mail: the rule, folded"
assert_contains "$mail" "   5    5  p5       3" "mail: step table"
assert_contains "$mail" "n: p0 3, p4 3, p5 3, p8 3" "mail: mmtests table of the four points"
assert_contains "$mail" "variant p5: kernel" "mail: provenance"
long=$(sed -n '/^Rule:/,/^$/p' <<<"$mail" | awk 'length > 78' | wc -l)
assert_eq "$long" 0 "mail: prose within 78 columns"
rc=0
"$SCHEDRIG" mail --bisection 1 2 --db "$DB" --from a@example.org --to b@example.org \
	--subject x --dry-run >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 2 "mail --bisection with a RUN"
