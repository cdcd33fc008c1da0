#!/bin/bash
# schedrig bisect --resume and --show trust nothing of the bisect rows: a
# verdict its runs' samples do not give, a verdict without a run, a point
# config that is not the one the bisection's config makes, points that are
# not k 0..N, a check of the confirm or the drift guard its runs do not
# give, a rule or minimum effect changed, and a result its runs do not give
# are refused, naming the point or check; an untouched copy resumes and
# shows as before. A failed end (bad
# or good) is measured again by --resume, and --show of the failed
# bisection says why, naming it by its ID.
# --show of a missing database creates none. schedrig mail --bisection
# checks the rows as --show does.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bisect_lib.bash"
cd "$WORK"
DB=$WORK/db/r.db

series shift 100:1 100:1 100:1 100:1 100:1 120:1 120:1 120:1 120:1
out=$("$SCHEDRIG" bisect shift.yaml --good p0 --bad p8 --db "$DB" 2>&1) ||
	fail "bisect exited $?: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "the step"
assert_eq "$(measured "$DB" 1)" "0 8 4 6 5" "points measured"
runs=$(q "$DB" "SELECT count(*) FROM run")

# copy NAME SQL: a copy of the database with SQL applied; its path.
n=0
copy() {
	n=$((n + 1))
	local d=$WORK/c$n
	mkdir -p "$d"
	q "$DB" "VACUUM INTO '$d/$1.db'"
	q "$d/$1.db" "$2"
	echo "$d/$1.db"
}
# refused WHAT DB ARGS... MESSAGE: the command exits 1 with MESSAGE and the
# bisection is not stored as complete with a new result.
refused() {
	local what=$1 db=$2 msg=${*: -1} rc=0 out
	out=$("$SCHEDRIG" bisect "${@:3:$#-3}" --db "$db" 2>&1) || rc=$?
	assert_eq "$rc" 1 "$what: exit status ($out)"
	assert_contains "$out" "$msg" "$what: message"
	! grep -q '^First bad point\|^The change is in a range\|^No single' <<<"$out" ||
		fail "$what: a result was printed: $out"
}
interrupted="UPDATE bisection SET status = 'interrupted', result = NULL"

# An untouched copy of an interrupted bisection resumes to the same answer,
# measuring nothing again.
db=$(copy ok "$interrupted; UPDATE bisect_point SET verdict = NULL, reason = NULL, n = NULL,
	mean = NULL, p_good = NULL, p_bad = NULL WHERE k = 5")
out=$("$SCHEDRIG" bisect --resume 1 --db "$db" 2>&1) || fail "resume of an untouched copy: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "untouched copy: the same answer"
assert_eq "$(q "$db" "SELECT count(*) FROM run")" "$runs" "untouched copy: no run measured again"
out=$("$SCHEDRIG" bisect --show 1 --db "$db" 2>&1) || fail "show of an untouched copy: $out"
assert_contains "$out" "First bad point: p5 (confirmed: p4 -> p5" "untouched copy: shown"

db=$(copy end "$interrupted; UPDATE bisect_point SET verdict = 'bad' WHERE k = 0")
refused "good end stored as bad" "$db" --resume 1 \
	"point 0 p0 is stored as bad (n 5, mean"
assert_contains "$(q "$db" "SELECT status || ': ' || result FROM bisection")" \
	"failed: Failed: bisection 1: point 0 p0 is stored as bad" "the refusal is recorded"
refused "--show of it" "$db" --show 1 "point 0 p0 is stored as bad"

db=$(copy norun "$interrupted; UPDATE bisect_point SET verdict = NULL WHERE k IN (4, 5, 6);
	UPDATE bisect_point SET verdict = 'good', n = 0 WHERE k = 7")
refused "a verdict without a run" "$db" --resume 1 \
	"point 7 p7 is stored as good, but no run of it decides that"

db=$(copy flip "$interrupted; UPDATE bisect_point SET verdict = 'good' WHERE k = 5")
refused "a flipped verdict" "$db" --resume 1 \
	"point 5 p5 is stored as good (n 5, mean 119.6), but its runs' samples make it bad"
assert_contains "$(q "$db" "SELECT result FROM bisection")" "but its runs' samples make it bad" \
	"says what the samples give"

db=$(copy showflip "UPDATE bisect_point SET verdict = 'good' WHERE k = 5")
refused "--show of a flipped verdict" "$db" --show 1 "point 5 p5 is stored as good"
rc=0
out=$("$SCHEDRIG" mail --bisection 1 --db "$db" --from a@example.org --to b@example.org \
	--subject s --dry-run 2>&1) || rc=$?
assert_eq "$rc" 1 "mail --bisection of a flipped verdict: exit status ($out)"
assert_contains "$out" "point 5 p5 is stored as good" "mail --bisection of a flipped verdict"
db=$(copy result "UPDATE bisection SET result = 'First bad point: p6 (k 6 of 8)'")
refused "--show of a changed result" "$db" --show 1 \
	"its stored result 'First bad point: p6 (k 6 of 8)' is not the one its runs give: 'First bad point: p5 (confirmed:"
# The checks of the confirm and the drift guard are made again too.
db=$(copy checkp "UPDATE bisect_check SET p = 0.5 WHERE what = 'confirm'")
refused "--show of a changed confirm" "$db" --show 1 \
	"its stored confirm check (step, p 0.5, +20.3 %) is not the one its runs give (confirm step, p 1.82e-10"
db=$(copy moved "UPDATE bisect_check SET outcome = 'moved' WHERE what = 'good end'")
refused "--show of an end stored as moved" "$db" --show 1 \
	"its stored good end check (moved, p 0.0955, +0.553 %) is not the one its runs give (good end held"
db=$(copy nochecks "DELETE FROM bisect_check")
refused "--show of a complete bisection without its checks" "$db" --show 1 \
	"bisection 1 is stored as complete with 0 of the 5 checks its runs make"
db=$(copy effect "UPDATE bisection SET min_effect_pct = 30")
refused "--show with a minimum effect changed" "$db" --show 1 \
	"point 0 p0 is stored as good, but no run of it decides that"
db=$(copy rule "UPDATE bisection SET rule = 'range'")
refused "--show with the rule changed" "$db" --show 1 \
	"point 0 p0 is stored as good, but no run of it decides that"
db=$(copy oldrule "UPDATE bisection SET rule = NULL")
refused "--show of a bisection made before schema 13" "$db" --show 1 \
	"bisection 1 was made by a schedrig before schema version 13"

db=$(copy config "$interrupted; UPDATE bisect_point SET verdict = NULL WHERE k IN (4, 5, 6);
	UPDATE bisect_point SET config_text = replace(config_text, 'mean: 100', 'mean: 500')
	WHERE k IN (2, 4)")
refused "a changed point config" "$db" --resume 1 \
	"point 2 p2: its stored config is not the one the bisection's config makes"

db=$(copy k42 "$interrupted; UPDATE bisect_point SET k = 42 WHERE k = 6")
refused "points not 0..N" "$db" --resume 1 \
	"point 6 p6: its stored name is not the one the bisection's config makes"
refused "--show of points not 0..N" "$db" --show 1 "its points are not k 0..8 (point 6 is k 7)"

# A point row the series has not (k 9 of p0..p8): the k values named.
db=$(copy k9 "INSERT INTO bisect_point SELECT bisection_id, 9, name || 'x', label, config_text,
	verdict, reason, decided_seq + 10, n, mean, ci95_half, p_good, p_bad, t_good, t_bad, look, alpha
	FROM bisect_point WHERE k = 8")
refused "--show of an extra point" "$db" --show 1 \
	"bisection 1 has 10 stored point(s) (k 0..9), but its config makes 9 (k 0..8)"
# --show (and mail --bisection) checks the series as --resume does: the
# ends it names are the ones whose series is stored.
db=$(copy good "UPDATE bisection SET good = 'p1'")
refused "--show of a changed good end" "$db" --show 1 \
	"bisection 1 has 9 stored point(s) (k 0..8), but its config makes 8 (k 0..7)"
rc=0
out=$("$SCHEDRIG" mail --bisection 1 --db "$db" --from a@example.org --to b@example.org \
	--subject s --dry-run 2>&1) || rc=$?
assert_eq "$rc" 1 "mail --bisection of a changed good end: exit status ($out)"
assert_contains "$out" "but its config makes 8 (k 0..7)" "mail --bisection of a changed good end"
# A statistic changed, the verdict not: the statistic named.
db=$(copy mean "UPDATE bisect_point SET mean = 130 WHERE k = 5")
refused "--show of a changed mean" "$db" --show 1 \
	"point 5 p5 (bad): its stored mean 130 is not the mean its runs' samples give (119.6"
db=$(copy pgood "UPDATE bisect_point SET p_good = 0.5 WHERE k = 6")
refused "--show of a changed p" "$db" --show 1 \
	"point 6 p6 (bad): its stored p vs good 0.5 is not the p vs good its runs' samples give"
# A reason is one the rig gives from the samples, or none.
db=$(copy reason "UPDATE bisect_point SET reason = 'pwned' WHERE k = 5")
refused "--show of a changed reason" "$db" --show 1 \
	"point 5 p5 (bad): its stored reason 'pwned' is not the one its runs give ('')"
# The steps are in the walk's order.
db=$(copy seq "UPDATE bisect_point SET decided_seq = 7 - decided_seq WHERE k IN (4, 6)")
refused "--show of swapped steps" "$db" --show 1 \
	"point 6 is stored as decided at step 3, but the walk measures point 4 there"
db=$(copy seq2 "UPDATE bisect_point SET decided_seq = 3 WHERE k = 6")
refused "--show of a step twice" "$db" --show 1 \
	"points 4 and 6 were both decided at step 3"

db=$(copy word "$interrupted; UPDATE bisect_point SET verdict = 'untested' WHERE k = 4")
refused "a verdict the rig does not write" "$db" --resume 1 \
	"point 4 has verdict 'untested', not one the rig writes"

# A linked run that ran another config is not the point's.
db=$(copy relink "$interrupted; UPDATE bisect_run SET run_id = 3 WHERE k = 5")
refused "a run of another point linked" "$db" --resume 1 \
	"point 5 p5: run 3 linked to it did not run the point's config"

# The bad end's run fails (its state file cannot be made): the bisection
# fails, --show says why, and --resume measures that end again.
series ends 100:1 100:1 100:1 100:1 120:1
sed -i "s|$WORK/ends-p4.state|$WORK/later/p4.state|" ends.yaml
rc=0
out=$("$SCHEDRIG" bisect ends.yaml --good p0 --bad p4 --db "$WORK/e.db" 2>&1) || rc=$?
assert_eq "$rc" 1 "a failed end: exit status ($out)"
assert_eq "$(q "$WORK/e.db" "SELECT status FROM bisection")" failed "a failed end: status"
out=$("$SCHEDRIG" bisect --show 1 --db "$WORK/e.db" 2>&1) || fail "show of a failed bisection: $out"
assert_contains "$out" "Failed: the bad end p4 has 0 sample(s) of f:value: run 2" "--show says why"
mkdir "$WORK/later"
out=$("$SCHEDRIG" bisect --resume 1 --db "$WORK/e.db" 2>&1) || fail "resume after a failed end: $out"
assert_contains "$out" "point 4 p4: run 2 failed: measuring it again" "says so"
assert_contains "$out" "First bad point: p4 (confirmed: p3 -> p4" "found once the end is measured"
assert_eq "$(q "$WORK/e.db" "SELECT group_concat(k || '-' || attempt || ':' || run_id, ' ')
	FROM (SELECT * FROM bisect_run WHERE k IN (0, 4) AND phase = 'walk' ORDER BY k, attempt)")" \
	"0-1:1 0-2:4 4-1:2 4-2:3 4-3:5" \
	"the good end kept, the bad end measured again (attempt 2), both then to the second look"

# --show reads: a missing database is not created.
rc=0
out=$("$SCHEDRIG" bisect --show 1 --db "$WORK/none/x.db" 2>&1) || rc=$?
assert_eq "$rc" 1 "--show of a missing database: exit status"
assert_contains "$out" "no such results database" "--show of a missing database: message"
[ ! -e "$WORK/none" ] || fail "--show created $(ls -R "$WORK/none")"

# --resume without an ID takes the newest unfinished bisection, not the
# newest one.
"$SCHEDRIG" bisect shift.yaml --good p0 --bad p1 --db "$WORK/e.db" >/dev/null 2>&1 || true
q "$WORK/e.db" "UPDATE bisection SET status = 'interrupted' WHERE id = 1;
	UPDATE bisect_point SET verdict = NULL, decided_seq = NULL WHERE bisection_id = 1 AND
	decided_seq = (SELECT max(decided_seq) FROM bisect_point WHERE bisection_id = 1)"
out=$("$SCHEDRIG" bisect --resume --db "$WORK/e.db" 2>&1) || fail "resume without an ID: $out"
assert_contains "$out" "bisection 1: 5 points" "the newest unfinished bisection is resumed"

# The good end's run fails: the bisection fails with that run's failure as
# its stored result (no advice to pick --op or --cell: no sample was made),
# --show without an ID says why, and --resume measures the good end again.
series gend 100:1 100:1 120:1
sed -i "s|$WORK/gend-p0.state|$WORK/later2/p0.state|" gend.yaml
rc=0
out=$("$SCHEDRIG" bisect gend.yaml --good p0 --bad p2 --db "$WORK/g.db" 2>&1) || rc=$?
assert_eq "$rc" 1 "a failed good end: exit status ($out)"
assert_contains "$out" "the good end p0 has 0 sample(s) of f:value: run 1 failed: variant p0" \
	"a failed good end: why"
! grep -q -- "--op/--cell" <<<"$out" || fail "a failed good end: advice to choose an op: $out"
assert_eq "$(q "$WORK/g.db" "SELECT status || ': ' || substr(result, 1, 50) FROM bisection")" \
	"failed: Failed: the good end p0 has 0 sample(s) of f:value" "a failed good end: stored"
out=$("$SCHEDRIG" bisect --show --db "$WORK/g.db" 2>&1) || fail "show of a failed good end: $out"
assert_contains "$out" "Failed: the good end p0 has 0 sample(s) of f:value: run 1" "--show says why"
! grep -q "bisection 0\|Not finished" <<<"$out" || fail "--show: $out"
mkdir "$WORK/later2"
out=$("$SCHEDRIG" bisect --resume --db "$WORK/g.db" 2>&1) || fail "resume after a failed good end: $out"
assert_contains "$out" "point 0 p0: run 1 failed: measuring it again" "the good end again"
assert_contains "$out" "First bad point: p2 (confirmed: p1 -> p2" "found once the good end is measured"
# Both ends fail: --show without an ID has no table to print, and says so
# naming the bisection by its ID.
series both fail fail
"$SCHEDRIG" bisect both.yaml --good p0 --bad p1 --db "$WORK/b.db" >/dev/null 2>&1 &&
	fail "a bisection of two failed ends succeeded"
out=$("$SCHEDRIG" bisect --show --db "$WORK/b.db" 2>&1) || true
assert_contains "$out" "Failed: the good end p0 has 0 sample(s) of f:value: run 1" "--show says why"
assert_contains "$out" "No table of the points of bisection 1: no run of theirs measured the metric" \
	"--show names the bisection"
