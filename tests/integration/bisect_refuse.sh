#!/bin/bash
# schedrig bisect refuses what it cannot do: a flat series ("no regression
# to bisect" after the ends' last look, with the end-to-end table, Welch's
# p and the look's alpha, computed here in python from the fake load's
# sequence), and bad usage (exit 2, nothing run).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

# 1. Flat: every point at 100 (1 % spread).
series flat 100:1 100:1 100:1 100:1 100:1
rc=0
out=$("$SCHEDRIG" bisect flat.yaml --good p0 --bad p4 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 1 "exit status of a refused bisection"
assert_contains "$out" "No regression to bisect: f:value op 0 (cell default), p0 " "refused"
# The ends' three looks: 3, 5 and 6 iterations; the last tests at the
# alpha the O'Brien-Fleming-type function adds from 5/6 to 6/6 of the
# share 0.05 / 5 (5 points: 4 planned decisions and the reserve).
p=$(python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from bisect_check import draw, welch, Rule
good = [round(100 * (1 + 0.01 * draw(10, i)), 6) for i in range(6)]
bad = [round(100 * (1 + 0.01 * draw(14, i)), 6) for i in range(6)]
a = Rule.spend(0.01, 1) - Rule.spend(0.01, 5 / 6)
print("p = %.4g >= alpha %.4g" % (welch(good, bad)[1], a))' "$TESTS_DIR/integration")
assert_contains "$out" "Welch's t-test $p" "the p-value and alpha of the last look"
assert_contains "$out" "ends p0 and p4: no difference after 3 iteration(s)" "the first look"
# The rule is stated live as --show states it (there folded to 78 columns).
live=$(grep '^Rule: ' <<<"$out") || fail "no Rule paragraph live: $out"
show=$("$SCHEDRIG" bisect --show 1 --db "$DB" 2>&1) || fail "--show: $show"
shown=$(awk '/^Rule: / { on = 1 } on && /^$/ { exit } on' <<<"$show" | tr '\n' ' ' | tr -s ' ' | sed 's/ $//')
assert_eq "$live" "$shown" "the rule live and in --show"
assert_contains "$live" "Family-wise alpha 0.05" "the family-wise alpha live"
check "$DB" 1
hdr=$(grep -B1 '^ *p0 *p4$' <<<"$out" | tr -s ' ' | tr '\n' '|')
assert_eq "$hdr" " | p0 p4|" "the end-to-end table (names without '-' not split)"
assert_contains "$out" "Columns: p0 good end, p4 bad end" "the columns' roles: the ends only"
assert_eq "$(q "$DB" "SELECT status FROM bisection")" refused "stored as refused"
assert_eq "$(q "$DB" "SELECT group_concat(k || ':' || attempt, ' ') FROM (SELECT * FROM bisect_run ORDER BY run_id)")" \
	"0:1 4:1 0:2 4:2 0:3 4:3" "only the ends were run, at their three looks"

# 2. Usage: exit 2 with a reason, no bisection recorded.
series ok 100:1 100:1 120:1
usage() { # EXPECTED-MESSAGE ARGS...
	local want=$1 rc=0 err
	shift
	err=$("$SCHEDRIG" bisect "$@" --db "$WORK/u.db" 2>&1 >/dev/null) || rc=$?
	assert_eq "$rc" 2 "exit status of: bisect $*"
	assert_contains "$err" "$want" "message of: bisect $*"
}
usage "no CONFIG given" --good p0 --bad p2
usage "--bad is needed" ok.yaml --good p0
usage "--good and --bad are the same (p0)" ok.yaml --good p0 --bad p0
usage "--alpha must be a number in (0, 0.5), not '2'" ok.yaml --good p0 --bad p2 --alpha 2
usage "--metric wants LOAD:METRIC" ok.yaml --good p0 --bad p2 --metric value
usage "--metric f:latency: the load has no such metric" ok.yaml --good p0 --bad p2 --metric f:latency
usage "--metric x:value: no load of that name" ok.yaml --good p0 --bad p2 --metric x:value
usage "--cell nope: the config has no such cell" ok.yaml --good p0 --bad p2 --cell nope
# Cell and op are checked before anything runs too: two cells and no
# --cell; an op the fake load never gives (its every sample has op 0); an
# op no load can give (a blank in it).
cat >cells.yaml <<YAML
name: cells
iterations: 3
warmup_s: 0
loads:
  - {name: f, tool: fake, params: {mean: 100, seed: [1, 2], state_file: $WORK/cells.state}}
bisect:
  points:
    - {name: p0}
    - {name: p1, params: {f: {mean: 120}}}
YAML
usage "the config has 2 cells (f.seed=1, f.seed=2): choose one with --cell" cells.yaml --good p0 --bad p1
usage "--op 7: every sample of load f (fake) has op 0" cells.yaml --good p0 --bad p1 --cell f.seed=1 --op 7
usage "--op 'a b': an op is at most 47 characters, none a blank" ok.yaml --good p0 --bad p2 --op "a b"
[ ! -e "$WORK/cells.state" ] || fail "a refused --cell/--op ran the load"
usage "--good p9 is not a point of bisect: points: (--bad p2 is)" ok.yaml --good p9 --bad p2
usage "are neither points of bisect: points: nor variants" ok.yaml --good x --bad y
usage "--resume takes no CONFIG" --resume ok.yaml
usage "--good, --bad, --alpha, --rule and --min-effect-pct are the bisection's own" --resume --good p0
usage "--min-effect-pct must be a number in [0, 1000), not '-1'" ok.yaml --good p0 --bad p2 --min-effect-pct -1
usage "unknown option '--frobnicate'" ok.yaml --frobnicate
# A rule the config's iterations cannot decide by: refused with its real
# numbers (3 points, min 3, max 5: looks at 3, 4, 5; share 0.05 / 4; the
# smallest p of 5 vs 5 2 / C(10, 5)).
sed 's/max: 6/max: 5/' ok.yaml >five.yaml
p=$(python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from bisect_check import Rule
print("smallest p is %.4g, not below the %.4g" % (2 / 252, Rule.spend(0.0125, 1) - Rule.spend(0.0125, 4 / 5)))' "$TESTS_DIR/integration")
usage "--rule range: with at most 5 iterations a side its $p a decision's last look tests at: iterations max must be at least 6" \
	five.yaml --good p0 --bad p2 --rule range --alpha 0.05
# Every refusal above came before the database was made.
[ ! -e "$WORK/u.db" ] || fail "a refused bisection made its database $WORK/u.db"
# A point whose config cannot run is refused before anything runs, at its
# item of bisect: points:.
cat >bad.yaml <<'YAML'
name: bad
loads:
  - {name: f, tool: fake}
bisect:
  points:
    - {name: a}
    - {name: b, params: {f: {mean: -5}}}
YAML
usage "bad.yaml:7:7: bisect point b: mean must not be negative" bad.yaml --good a --bad b
# check-config checks every point of bisect: points: too.
rc=0
err=$("$SCHEDRIG" check-config bad.yaml 2>&1) || rc=$?
assert_eq "$rc" 2 "check-config of a bad point"
assert_eq "$err" "bad.yaml:7:7: bisect point b: mean must not be negative" "check-config message"
assert_eq "$("$SCHEDRIG" check-config ok.yaml 2>&1)" \
	"ok.yaml: ok (ok, 1 variant(s), 1 cell(s), 6 iteration(s), 3 bisect point(s))" "check-config of points"
# Two points of one name anywhere in the list: refused at the second, by
# bisect (even with --good/--bad before it) and check-config alike.
cat >dup.yaml <<'YAML'
name: dup
loads:
  - {name: f, tool: fake}
bisect:
  points:
    - {name: a}
    - {name: b}
    - {name: b, params: {f: {mean: 120}}}
YAML
usage "dup.yaml:8:7: bisect point name 'b' is used twice (first at line 7)" dup.yaml --good a --bad b
rc=0
err=$("$SCHEDRIG" check-config dup.yaml 2>&1) || rc=$?
assert_eq "$rc" 2 "check-config of a name used twice"
assert_eq "$err" "dup.yaml:8:7: bisect point name 'b' is used twice (first at line 7)" \
	"check-config message of a name used twice"
# bisect: itself is checked whole, whatever --good and --bad are, by
# bisect and check-config alike: an unknown key, fewer than 2 points, a
# point without name: (here outside the range bisected).
bisect_conf() { # NAME BISECT-LINES...
	local name=$1
	shift
	printf 'name: %s\nloads:\n  - {name: f, tool: fake}\nbisect:\n' "$name" >"$name.yaml"
	printf '%s\n' "$@" >>"$name.yaml"
}
bisect_conf typo '  pointz: [a, b]'
bisect_conf empty '  points: []'
bisect_conf one '  points:' '    - {name: a}'
bisect_conf noname '  points:' '    - {name: a}' '    - {name: b}' '    - {params: {f: {mean: 120}}}'
for want in "typo.yaml:5:3: unknown key 'pointz' in bisect: (it takes points:)" \
	"empty.yaml:5:11: bisect: points: has 0 point(s): a bisection needs at least 2 (its good and bad ends)" \
	"one.yaml:6:5: bisect: points: has 1 point(s): a bisection needs at least 2 (its good and bad ends)" \
	"noname.yaml:8:7: a bisect point needs name: (a variant's name)"; do
	f=${want%%:*}
	usage "$want" "$f" --good a --bad b
	rc=0
	err=$("$SCHEDRIG" check-config "$f" 2>&1) || rc=$?
	assert_eq "$rc" 2 "check-config of $f"
	assert_eq "$err" "$want" "check-config message of $f"
done
[ ! -e "$WORK/u.db" ] || fail "a refused config made the database"
# A run that does not start (here: hackbench not in PATH) is not the point's
# failure: the bisection stops, resumable, with the run's reason.
cat >tool.yaml <<'YAML'
name: tool
loads:
  - {tool: hackbench, params: {groups: 1, loops: 10}}
bisect:
  points: [{name: a}, {name: b}]
YAML
rc=0
err=$(PATH=/nonexistent "$SCHEDRIG" bisect tool.yaml --good a --bad b --db "$WORK/t.db" 2>&1) || rc=$?
assert_eq "$rc" 1 "exit status when a run cannot start"
assert_contains "$err" "point 0 a: the run did not start: schedrig: " "the reason"
assert_contains "$err" "hackbench" "names the tool"
assert_contains "$err" "schedrig bisect --resume 1 continues it" "resumable"
assert_eq "$(q "$WORK/t.db" "SELECT status || ' ' || (SELECT count(*) FROM bisect_point WHERE verdict IS NOT NULL) FROM bisection")" \
	"failed 0" "stopped, no verdict"
# With hackbench back in PATH the stopped bisection goes on from its ends.
rc=0
out=$("$SCHEDRIG" bisect --resume 1 --db "$WORK/t.db" 2>&1) || rc=$?
[ "$rc" -le 1 ] || fail "resume of a stopped bisection exited $rc: $out"
st=$(q "$WORK/t.db" "SELECT status FROM bisection")
case "$st" in complete | refused) ;; *) fail "resumed bisection is $st: $out" ;; esac
assert_eq "$(q "$WORK/t.db" "SELECT count(*) FROM bisect_run WHERE attempt = 1 AND run_id <= 2")" 2 \
	"both ends measured first, once"
assert_eq "$(q "$WORK/t.db" "SELECT count(*) FROM run WHERE status != 'complete'")" 0 "no run failed"
