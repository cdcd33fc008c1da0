#!/bin/bash
# A repeating background load whose runs are shorter than the warm-up is
# restarted during the warm-up too, so the measured load always meets it:
# hackbench runs of about 0.1 s, a 1.5 s warm-up, 1 s of cyclictest give
# far more than one repetition (before the fix: exactly one, ended in the
# warm-up, and cyclictest measured alone).
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
echo ok
