#!/bin/bash
# schedrig bisect over a list of fake-load variants whose seeded mean moves
# at a known point: the walk decides ceil(log2 8) + 2 = 5 points, each
# measurement an ordinary run (compare reads it), then the confirm measures
# last good, first bad and both ends again, interleaved (5 rounds of one
# iteration each), and names the point; two moves: no single point is
# named, the last good point is not like the good end; every sample,
# p-value, alpha, verdict and check re-derived by bisect_check.py.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

# 1. One move, 100 -> 120 at p5 of p0..p8.
series shift 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
out=$("$SCHEDRIG" bisect shift.yaml --good p0 --bad p8 --db "$DB" 2>&1) ||
	fail "bisect exited $?: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5 +20.3 %, Welch's t-test p = 1.82e-10" "the step"
assert_contains "$out" "over 5 + 5 fresh interleaved iterations; the ends held; k 5" "the confirm's numbers"
assert_contains "$out" "Rule: each point tested against both ends by Welch's two-sample t-test" "the rule is stated"
assert_contains "$out" "Family-wise alpha 0.05 for every decision that can blame a patch" "the family-wise alpha is stated"
assert_contains "$out" "each planned decision at 0.05 / 6 = 0.008333" "its shares"
assert_eq "$(measured "$DB" 1)" "0 8 4 6 5" "points measured"
assert_eq "$(q "$DB" "SELECT group_concat(k || ':' || attempt, ' ') FROM (SELECT * FROM bisect_run
	WHERE phase = 'walk' ORDER BY run_id)")" "0:1 8:1 0:2 8:2 4:1 6:1 5:1 5:2" \
	"the walk: the ends, topped up to the second look, then 4, 6, 5 (topped up once)"
assert_eq "$(q "$DB" "SELECT group_concat(k, ' ') FROM (SELECT k FROM bisect_run
	WHERE phase = 'confirm' ORDER BY run_id)")" \
	"0 4 5 8 8 5 4 0 0 4 5 8 8 5 4 0 0 4 5 8" "the confirm: 5 interleaved rounds, every other reversed"
assert_eq "$(q "$DB" "SELECT count(*) FROM run WHERE status = 'complete'")" 28 "one run per measurement"
assert_eq "$(q "$DB" "SELECT group_concat(what || ' ' || outcome, ', ') FROM (SELECT * FROM bisect_check ORDER BY seq)")" \
	"confirm step, good end held, bad end held, last good same, first bad same" "the checks"
assert_contains "$(q "$DB" "SELECT status || ' ' || result FROM bisection")" \
	"complete First bad point: p5 (confirmed: p4 -> p5" "stored result"
check "$DB" 1
# The step table and the mmtests table of good end / last good / first bad / bad end.
assert_contains "$out" "   5    5  p5       5          119.6 ± 1.0  bad        6.99e-10    0.04945   0.003661  7,8" \
	"step table row of p5: decided at its second look, at that look's alpha"
assert_contains "$out" "  confirm   p4 -> p5          n  5/5         100 -> 120.3       +20.30 %  p 1.82e-10   alpha 0.003852   step" \
	"the confirm's row"
# The right-aligned columns' headers end in the display column their
# values end in ("±" is one column of two bytes): python's str counts
# characters, not bytes.
ends=$(python3 -c '
import re, sys
lines = sys.stdin.buffer.read().decode("utf-8").splitlines()
hdr = next(l for l in lines if l.lstrip().startswith("step"))
row = next(l for l in lines if re.match(r"^ +5 +5  p5 ", l))
m = re.match(r"^ *(\d+) +(\d+)  (\S+) +(\d+) +(\S+ ± \S+)  (\S+) +(\S+) +(\S+) +(\S+)  ", row)
cols = ["n", "mean ± CI95", "p vs good", "p vs bad", "alpha"]
h = [hdr.index(" " + c + " ") + 1 + len(c) for c in cols]
r = [m.end(4), m.end(5), m.end(7), m.end(8), m.end(9)]
print(" ".join("%s:%s" % (c, "ok" if a == b else "header %d, value %d" % (a, b)) for c, a, b in zip(cols, h, r)))' <<<"$out")
assert_eq "$ends" "n:ok mean ± CI95:ok p vs good:ok p vs bad:ok alpha:ok" "step table header over its values"
# (names without '-' are not split: a blank first header row over them)
hdr=$(grep -B1 '^ *p0 *p4 *p5 *p8$' <<<"$out" | tr -s ' ' | tr '\n' '|')
assert_eq "$hdr" " | p0 p4 p5 p8|" "mmtests columns"
assert_contains "$out" "Columns: p0 good end, p4 last good, p5 first bad, p8 bad end (their confirm rounds)" \
	"the columns' roles, above the mmtests table"
assert_contains "$out" "Amean     0      100.28 (   0.00%)      100.04 (   0.24%)      120.34 * -20.01%*" \
	"mmtests Amean row: the confirm's rounds"
assert_contains "$out" "Order (runs 9-28): interleaved" "the confirm's runs' order, once"
# Each step is an ordinary run: compare and show read it.
cmp=$("$SCHEDRIG" compare --db "$DB" 5) || fail "compare of a step run"
assert_contains "$cmp" "variant p4" "compare of step run 5"
assert_contains "$("$SCHEDRIG" show --db "$DB" 7)" "bisection  1, point 5 p5 (p5)" "show names the step"
assert_contains "$("$SCHEDRIG" show --db "$DB" 8)" "bisection  1, point 5 p5, more iterations (p5)" \
	"show names a later look"
assert_contains "$("$SCHEDRIG" show --db "$DB" 9)" "bisection  1, point 0 p0, a round of the confirm (p0)" \
	"show names a round of the confirm"
show=$("$SCHEDRIG" bisect --show --db "$DB") || fail "bisect --show"
assert_contains "$show" "First bad point: p5" "bisect --show"
assert_contains "$("$SCHEDRIG" bisect --resume 1 --db "$DB")" "bisection 1 is complete: nothing to resume" \
	"resume of a finished bisection"

# 2. Two moves, 100 -> 105 at p3 and 105 -> 200 at p6: the walk's first
# look cannot tell p4 and p5 (105) from the good end at its alpha, so it
# finds the step p5 -> p6; the confirm shows it, but p5 differs from the
# good end's new measurement: the step is not the whole change, and no
# patch is named (exit 1).
series two 100:1 100:1 100:1 105:1 105:1 105:1 200:1 200:1 200:1
rc=0
out=$("$SCHEDRIG" bisect two.yaml --good p0 --bad p8 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "two moves: no patch named ($out)"
res=$(q "$DB" "SELECT result FROM bisection WHERE id = 2")
assert_contains "$res" "No single first bad point: the confirm shows p5 -> p6 +91 %" "the step it saw"
assert_contains "$res" "but p5 differs from the good end (+4.61 %" "why it is not the first bad point"
assert_contains "$res" "the step is not the whole change" "said so"
assert_contains "$out" "No single first bad point: the confirm shows p5 -> p6 +91 %" "printed"
check "$DB" 2
show=$("$SCHEDRIG" bisect --show 2 --db "$DB" 2>&1) || fail "--show of two moves: $show"
assert_contains "$show" "  last good p0 -> p5          n  5/5       100.3 -> 104.9        +4.61 %" \
	"--show: the check, made again from the runs' samples"

# 3. Backwards (--good after --bad in the list): the list read from p8
# down to p0.
out=$("$SCHEDRIG" bisect shift.yaml --good p8 --bad p0 --db "$DB" 2>&1) ||
	fail "backwards bisect exited $?: $out"
assert_contains "$out" "First bad point: p4 (confirmed: p5 -> p4 -16.4 %" "walked from p8 to p0, p4 is the first to move"

# 4. schedrig mail --bisection: the result, the rule folded for a list, the
# step table and the mmtests table, with the provenance of those runs.
mail=$("$SCHEDRIG" mail --bisection 1 --db "$DB" --from a@example.org --to b@example.org \
	--subject "bisect: p5" --dry-run) || fail "mail --bisection"
assert_contains "$mail" "First bad point: p5 (confirmed: p4 -> p5 +20.3 %" "mail: result"
assert_contains "$mail" "Rule: each point tested against both ends by Welch's two-sample t-test" \
	"mail: the rule, folded"
assert_contains "$mail" "   5    5  p5       5" "mail: step table"
assert_contains "$mail" "n: p0 5, p4 5, p5 5, p8 5" "mail: mmtests table of the four points' confirm rounds"
assert_contains "$mail" "variant p5: kernel" "mail: provenance"
long=$(sed -n '/^Rule:/,/^$/p' <<<"$mail" | awk 'length > 78' | wc -l)
assert_eq "$long" 0 "mail: prose within 78 columns"
rc=0
"$SCHEDRIG" mail --bisection 1 2 --db "$DB" --from a@example.org --to b@example.org \
	--subject x --dry-run >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 2 "mail --bisection with a RUN"
