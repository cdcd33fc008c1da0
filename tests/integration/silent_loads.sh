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

# A background load whose only run ended in the warm-up met no measured
# load: no sample, and the note says where its run went.
sed -e 's/name: silent/name: silent-warmup/' -e 's/iterations: 2/iterations: 1/' \
	-e 's/warmup_s: 0.2/warmup_s: 1.5/' -e 's/loops: 10000000/loops: 20/' \
	"$WORK/s.yaml" >"$WORK/w.yaml"
"$SCHEDRIG" run --quiet --db "$DB" "$WORK/w.yaml" >"$WORK/out" 2>&1 || fail "run: $(cat "$WORK/out")"
assert_eq "$(q "$DB" "SELECT state FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	JOIN variant v ON v.id = i.variant_id JOIN run r ON r.id = v.run_id
	WHERE r.name = 'silent-warmup' AND li.name = 'hb'")" warmup "the warm-up run's state"
assert_contains "$("$SCHEDRIG" compare --db "$DB" silent-warmup)" \
	"No samples: load hb (background): none of its 1 run(s) in complete iterations finished (0 stopped when the measured load ended, 1 ended in the warm-up)" \
	"compare's note on a run that ended in the warm-up"
echo ok
