#!/bin/bash
# 8 `schedrig run --concurrent` at once on one results database, with a reader looping
# `schedrig list` and `schedrig export` on it meanwhile: every run ends
# complete with every iteration and every sample stored, no command fails,
# and nothing ever reports "database is locked".
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

DB=$WORK/db/results.db
cat >"$WORK/many.yaml" <<'EOF'
name: many
iterations: 10
loads:
  - tool: hackbench
    timeout_s: 60
    params: {mode: process, ipc: pipe, groups: 1, loops: [50, 100]}
EOF

# A first run creates the database (and is the reader's fixed target).
start_rig run --quiet --db "$DB" "$WORK/many.yaml"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 0 "first run ($(cat "$WORK/rig.err"))"

# The reader: list and export in a loop until told to stop.
reader() {
	local n=0
	while [ ! -e "$WORK/stop-reader" ]; do
		"$SCHEDRIG" list --db "$DB" >/dev/null 2>>"$WORK/reader.err" ||
			echo "list failed: $?" >>"$WORK/reader.fail"
		"$SCHEDRIG" export --db "$DB" 1 >"$WORK/export.csv" 2>>"$WORK/reader.err" ||
			echo "export failed: $?" >>"$WORK/reader.fail"
		[ "$(grep -c ',hackbench,time,' "$WORK/export.csv")" = 20 ] ||
			echo "export of run 1: $(wc -l <"$WORK/export.csv") lines" >>"$WORK/reader.fail"
		n=$((n + 1))
	done
	echo "$n" >"$WORK/reader.rounds"
}
reader &
reader_pid=$!

pids=()
for i in $(seq 8); do
	(cd "$RIGDIR" && exec env --default-signal=INT,TERM,HUP "$SCHEDRIG" run --quiet --concurrent \
		--db "$DB" "$WORK/many.yaml") >"$WORK/run$i.out" 2>"$WORK/run$i.err" &
	pids+=($!)
done
for i in $(seq 8); do
	rc=0
	wait "${pids[$((i - 1))]}" || rc=$?
	assert_eq "$rc" 0 "concurrent run $i exit status ($(cat "$WORK/run$i.err"))"
done
touch "$WORK/stop-reader"
wait "$reader_pid"
assert_no_leftovers "after the concurrent runs"

[ ! -s "$WORK/reader.fail" ] || fail "reader: $(head -5 "$WORK/reader.fail")"
[ "$(cat "$WORK/reader.rounds")" -ge 1 ] || fail "the reader never ran"
if grep -il 'locked\|busy' "$WORK"/run*.err "$WORK/reader.err" "$WORK/rig.err" 2>/dev/null; then
	fail "a command reported a locked or busy database: $(grep -ih 'locked\|busy' "$WORK"/*.err | head -3)"
fi
assert_integrity "$DB"
assert_eq "$(q "$DB" 'SELECT count(*) FROM run')" 9 "runs"
assert_eq "$(q "$DB" "SELECT count(*) FROM run WHERE status = 'complete'")" 9 "complete runs"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" 180 \
	"complete iterations (9 runs x 2 cells x 10 iterations)"
# One hackbench "time" sample per iteration, 20 in every run.
assert_eq "$(q "$DB" "SELECT group_concat(n, ' ') FROM (SELECT count(s.load_instance_id) AS n FROM run r
	LEFT JOIN variant v ON v.run_id = r.id LEFT JOIN iteration i ON i.variant_id = v.id
	LEFT JOIN load_instance li ON li.iteration_id = i.id
	LEFT JOIN sample s ON s.load_instance_id = li.id GROUP BY r.id ORDER BY r.id)")" \
	"20 20 20 20 20 20 20 20 20" "samples per run"
for id in $(seq 2 9); do
	"$SCHEDRIG" export --db "$DB" "$id" >"$WORK/export$id.csv" || fail "export of run $id"
	assert_eq "$(grep -c ',hackbench,time,' "$WORK/export$id.csv")" 20 "exported samples of run $id"
done
echo "reader rounds: $(cat "$WORK/reader.rounds")"
