#!/bin/bash
# schedrig reparse RUN: a real hackbench run, then its database made to look
# as an older, looser parser left it (a hexadecimal "Time: 0x1p4" stored as
# a 16 s sample; a sample missing). Reparse replaces what the drivers of
# today find, says what changed, and does it all or nothing.
source "$(dirname "$0")/lib.sh"
command -v hackbench >/dev/null || fail "hackbench is not installed (scripts/install-deps)"

cat >"$WORK/hb.yaml" <<'EOF2'
name: hb-reparse
iterations: 3
loads:
  - name: hb
    tool: hackbench
    params: {groups: 1, loops: 2000, fds: 2}
EOF2
DB=$WORK/r.db
"$SCHEDRIG" run "$WORK/hb.yaml" --db "$DB" --quiet >"$WORK/run.out" 2>&1 ||
	fail "hackbench run: $(cat "$WORK/run.out")"
assert_eq "$(q "$DB" "SELECT status FROM run")" "complete" "run status"
ids=($(q "$DB" "SELECT id FROM load_instance ORDER BY id"))
assert_eq "${#ids[@]}" "3" "instances"
v2=$(q "$DB" "SELECT value FROM sample WHERE load_instance_id = ${ids[1]}")

# Unchanged output: nothing changes.
out=$("$SCHEDRIG" reparse --db "$DB" latest) || fail "reparse of an intact run: $out"
assert_contains "$out" "3 instance(s) reparsed, 0 changed" "intact run"

# Iteration 1 as an old parser stored it: hexadecimal time, 16 s sample.
q "$DB" "UPDATE raw_output SET stdout = CAST('Time: 0x1p4' || char(10) AS BLOB)
	WHERE load_instance_id = ${ids[0]};
	UPDATE sample_value SET value = 16 WHERE load_instance_id = ${ids[0]}"
# Iteration 2's sample lost.
q "$DB" "DELETE FROM sample_value WHERE load_instance_id = ${ids[1]}"
before=$(q "$DB" "SELECT count(*) FROM sample")

# All or nothing: an instance the stored config does not know (iteration 3
# made to claim load 2) fails the reparse after the two above were redone:
# nothing of them may stay.
q "$DB" "UPDATE load_instance SET seq = 1 WHERE id = ${ids[2]}"
rc=0
err=$("$SCHEDRIG" reparse --db "$DB" hb-reparse 2>&1 >/dev/null) || rc=$?
assert_eq "$rc" "1" "reparse exit status with an unknown instance"
assert_contains "$err" "has no load hb as its load 2" "reparse error"
assert_contains "$err" "(nothing changed)" "reparse error says nothing changed"
assert_eq "$(q "$DB" "SELECT state || ' ' || value FROM load_instance li JOIN sample s
	ON s.load_instance_id = li.id WHERE li.id = ${ids[0]}")" "ok 16.0" "instance 1 untouched"
assert_eq "$(q "$DB" "SELECT count(*) FROM sample")" "$before" "samples untouched"
q "$DB" "UPDATE load_instance SET seq = 0 WHERE id = ${ids[2]}"

out=$("$SCHEDRIG" reparse --db "$DB" 1) || fail "reparse: $out"
assert_contains "$out" "variant running cell default iteration 1 load hb: ok, 1 sample(s) -> failed, 0 sample(s): unparsable Time line: \"Time: 0x1p4\"" "the changed instance is printed"
assert_contains "$out" "iteration 2 load hb: ok, 0 sample(s) -> ok, 1 sample(s)" "the restored sample is printed"
assert_contains "$out" "variant running cell default iteration 1: complete -> failed" "iteration status"
assert_contains "$out" "run: complete -> failed" "run status"
assert_contains "$out" "3 instance(s) reparsed, 2 changed (1 now failed, 0 now ok, 1 with other samples)" "summary"
assert_eq "$(q "$DB" "SELECT state || ': ' || reason FROM load_instance WHERE id = ${ids[0]}")" \
	'failed: unparsable Time line: "Time: 0x1p4"' "stored failure"
assert_eq "$(q "$DB" "SELECT count(*) FROM sample WHERE load_instance_id = ${ids[0]}")" "0" \
	"no sample from the garbage"
assert_eq "$(q "$DB" "SELECT value FROM sample WHERE load_instance_id = ${ids[1]}")" "$v2" \
	"the lost sample is back, the same value"
assert_eq "$(q "$DB" "SELECT status FROM iteration ORDER BY iteration" | tr '\n' ' ')" \
	"failed complete complete " "iteration statuses"
assert_eq "$(q "$DB" "SELECT message FROM event WHERE kind = 'failure'")" \
	'variant running cell default iteration 1 load hb: failed: unparsable Time line: "Time: 0x1p4"' \
	"failure event"
# compare now names the failure instead of counting 16 s.
cmp=$("$SCHEDRIG" compare --db "$DB" 1 2>&1 || true)
case "$cmp" in *"16.00"*) fail "compare still shows the 16 s sample: $cmp" ;; esac

# Reparsing again changes nothing.
out=$("$SCHEDRIG" reparse --db "$DB" 1) || fail "second reparse: $out"
assert_contains "$out" "3 instance(s) reparsed, 0 changed" "second reparse"

# An imported run has no raw output to parse.
"$SCHEDRIG" export --db "$DB" --format csv 1 >"$WORK/x.csv"
"$SCHEDRIG" import --db "$DB" --csv "$WORK/x.csv" --run imp >/dev/null
rc=0
err=$("$SCHEDRIG" reparse --db "$DB" imp 2>&1) || rc=$?
assert_eq "$rc" "1" "reparse of an imported run"
assert_contains "$err" "is imported: it has no raw output" "imported run refused"
echo ok
