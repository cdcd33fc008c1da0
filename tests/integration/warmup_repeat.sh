#!/bin/bash
# A repeating background load whose runs are shorter than the warm-up is
# restarted during the warm-up too, so the measured load always meets it:
# hackbench runs of about 0.1 s, a 1.5 s warm-up, 1 s of cyclictest give
# far more than one repetition (before the fix: exactly one, ended in the
# warm-up, and cyclictest measured alone). The repetitions that ended in
# the warm-up are no samples (before: each was one).
source "$(dirname "$0")/lib.sh"
DB=$WORK/w.db
cat >"$WORK/w.yaml" <<'YAML'
name: warmup-repeat
iterations: 1
warmup_s: 1.5
loads:
  - name: hb
    tool: hackbench
    role: background
    repeat: true
    params: {groups: 1, loops: 20, ipc: pipe}
  - name: ct
    tool: cyclictest
    params: {threads: 1, interval_us: 1000, duration_s: 1, mlock: false}
YAML
"$SCHEDRIG" run --quiet --db "$DB" "$WORK/w.yaml" >"$WORK/out" 2>&1 || fail "run: $(cat "$WORK/out")"
n=$(q "$DB" "SELECT count(*) FROM load_instance WHERE name = 'hb'")
[ "$n" -ge 4 ] || fail "hackbench ran $n time(s): not restarted during the warm-up"
# Some repetition was running when cyclictest started (started before and
# ended after it): the measured load had its competition.
overlap=$(q "$DB" "SELECT count(*) FROM load_instance hb, load_instance ct
	WHERE hb.name = 'hb' AND ct.name = 'ct' AND hb.started_ns <= ct.ended_ns
	AND hb.ended_ns >= ct.started_ns")
[ "$overlap" -ge 1 ] || fail "no hackbench repetition overlapped cyclictest"

# Only repetitions that overlap the measured window are samples. Counted
# here from the stored times and raw outputs, not from the rig's verdicts
# on them: a repetition that printed its time and ended after cyclictest
# started (straddling its start or inside it) is one sample; one that
# ended before (in the warm-up) is none, but is kept with its raw output.
# (The one the rig stopped at the window's end is no sample either.)
ct_start=$(q "$DB" "SELECT started_ns FROM load_instance WHERE name = 'ct'")
finished="name = 'hb' AND exit_code = 0 AND state != 'stopped' AND id IN (SELECT
	load_instance_id FROM raw_output WHERE CAST(stdout AS TEXT) LIKE '%Time: %')"
in_window=$(q "$DB" "SELECT count(*) FROM load_instance WHERE $finished AND ended_ns > $ct_start")
in_warmup=$(q "$DB" "SELECT count(*) FROM load_instance WHERE $finished AND ended_ns < $ct_start")
[ "$in_window" -ge 1 ] || fail "no hackbench repetition ended inside cyclictest's window"
[ "$in_warmup" -ge 1 ] || fail "no hackbench repetition ended in the warm-up"
assert_eq "$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li
	ON li.id = s.load_instance_id WHERE li.name = 'hb'")" "$in_window" \
	"hackbench samples (repetitions ended inside the measured window)"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance WHERE name = 'hb' AND state = 'warmup'")" \
	"$in_warmup" "repetitions recorded as ended in the warm-up"
assert_eq "$(q "$DB" "SELECT status FROM iteration")" complete "the iteration's status"
assert_contains "$("$SCHEDRIG" show --db "$DB")" \
	"reason:    ended in the warm-up, before the measured loads started: not a sample" \
	"show's reason for a warm-up repetition"

# reparse agrees with the run, and applies the rule from the stored times
# to a run recorded before it (warm-up repetitions stored as "ok").
assert_contains "$("$SCHEDRIG" reparse --db "$DB" latest)" ", 0 changed" "reparse of the run"
q "$DB" "UPDATE load_instance SET state = 'ok', reason = NULL WHERE state = 'warmup'"
assert_contains "$("$SCHEDRIG" reparse --db "$DB" latest)" "$in_warmup changed" \
	"reparse of warm-up repetitions stored as ok"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance WHERE name = 'hb' AND state = 'warmup'")" \
	"$in_warmup" "warm-up repetitions after reparse"

# A repetition that exited by itself a moment after cyclictest ended (the
# runner sent it no stop: state ok) stays a sample; reparse must not call
# it stopped from its end time (before: "ok, 1 sample(s) -> stopped").
ct_end=$(q "$DB" "SELECT ended_ns FROM load_instance WHERE name = 'ct'")
late=$(q "$DB" "SELECT min(id) FROM load_instance WHERE name = 'hb' AND state = 'ok'")
q "$DB" "UPDATE load_instance SET ended_ns = $ct_end + 118000 WHERE id = $late"
assert_contains "$("$SCHEDRIG" reparse --db "$DB" latest)" ", 0 changed" \
	"reparse of a repetition that ended just after the measured load"
echo ok
