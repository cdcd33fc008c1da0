#!/bin/bash
# A background load none of whose runs finishes inside the measured window
# yields no sample; its table cannot be printed, so a note under the tables
# names it and says why (before: it vanished without a word).
source "$(dirname "$0")/lib.sh"
DB=$WORK/s.db
cat >"$WORK/s.yaml" <<'YAML'
name: silent
iterations: 2
warmup_s: 0.2
loads:
  - name: hb
    tool: hackbench
    role: background
    params: {groups: 1, loops: 10000000, ipc: pipe}
  - name: ct
    tool: cyclictest
    params: {threads: 1, interval_us: 1000, duration_s: 1, mlock: false}
YAML
"$SCHEDRIG" run --quiet --db "$DB" "$WORK/s.yaml" >"$WORK/out" 2>&1 || fail "run: $(cat "$WORK/out")"
assert_eq "$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'hb'")" 0 "samples of the stopped background load"
note="No samples: load hb (background): none of its 2 run(s) in complete iterations finished (2 stopped when the measured load ended)"
assert_contains "$("$SCHEDRIG" compare --db "$DB")" "$note" "compare's note"
assert_contains "$("$SCHEDRIG" compare --db "$DB" --format json)" "$note" "the JSON note"
# The measured load's table is there; no note names it.
out=$("$SCHEDRIG" compare --db "$DB")
assert_contains "$out" "max_latency" "the measured load's table"
case "$out" in *"load ct ("*) fail "a note names the measured load: $out" ;; esac
echo ok
