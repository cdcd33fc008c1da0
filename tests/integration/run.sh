# schedrig run end to end on the running kernel: real hackbench in the
# background, real cyclictest measured, a slice_us axis; samples, applied
# attributes, exit codes, leftovers, list/show/export.
source "$(dirname "$0")/lib.sh"
DB=$WORK/r.db
mkdir "$WORK/rig"
# The rig and its loads run in their own directory: leftovers are found by cwd.
rig() { (cd "$WORK/rig" && exec "$SCHEDRIG" "$@"); }
cat > "$WORK/tiny.yaml" <<'YAML'
name: tiny
iterations: 2
warmup_s: 0.2
loads:
  - name: hb
    tool: hackbench
    role: background
    repeat: true
    params: {groups: 1, loops: 200, ipc: pipe}
    sched: {nice: 5}
  - name: ct
    tool: cyclictest
    params: {threads: 2, interval_us: 1000, duration_s: 2}
    sched: {policy: other, slice_us: [300, 3000]}
YAML

# --dry-run prints the plan and runs nothing.
out=$("$SCHEDRIG" run "$WORK/tiny.yaml" --db "$DB" --dry-run)
assert_contains "$out" "2 cell(s) x 2 iteration(s)" "dry-run plan size"
assert_contains "$out" "cell 2/2 ct.slice_us=3000" "dry-run cell name"
assert_contains "$out" "cyclictest -q -d 0" "dry-run argv"
[ ! -e "$DB" ] || fail "dry-run created the database"

rig run "$WORK/tiny.yaml" --db "$DB" > "$WORK/out.txt" 2>&1 || fail "run failed: $(cat "$WORK/out.txt")"
assert_eq "$(q "$DB" "SELECT status FROM run")" "complete" "run status"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" "4" "complete iterations"
# cyclictest: 3 metrics x 2 threads per iteration, per cell.
for cell in ct.slice_us=300 ct.slice_us=3000; do
	n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		JOIN iteration i ON i.id = li.iteration_id JOIN cell c ON c.id = i.cell_id
		WHERE c.name = '$cell' AND li.name = 'ct' AND s.metric = 'max_latency'")
	assert_eq "$n" "4" "max_latency samples in $cell (2 threads x 2 iterations)"
done
# The kernel applied the slice that was asked for (sched_getattr read-back).
applied=$(q "$DB" "SELECT DISTINCT sched_applied FROM load_instance WHERE name = 'ct'
	AND sched_requested = 'policy=other slice_us=300'")
assert_contains "$applied" "slice_us=300 " "applied slice"
assert_contains "$applied" "se.slice_ns=300000" "se.slice in /proc/PID/sched"
applied=$(q "$DB" "SELECT DISTINCT sched_applied FROM load_instance WHERE name = 'hb' LIMIT 1")
assert_contains "$applied" "nice=5" "applied nice of the background load"
# Every sample has its raw output.
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance li LEFT JOIN raw_output r
	ON r.load_instance_id = li.id WHERE r.load_instance_id IS NULL")" "0" "raw output per instance"
# hackbench completed repetitions are samples of the background load.
n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'hb' AND s.metric = 'time'")
[ "$n" -ge 1 ] || fail "no hackbench repetition was stored"
assert_none_left "$WORK/rig" "after the run"

# The comparison table was printed after the run.
assert_contains "$(cat "$WORK/out.txt")" "max_latency" "table after run"

out=$("$SCHEDRIG" list --db "$DB")
assert_contains "$out" "tiny" "list shows the run"
out=$("$SCHEDRIG" show 1 --db "$DB")
assert_contains "$out" "requested: policy=other slice_us=300" "show requested"
assert_contains "$out" "applied:   policy=other nice=0 slice_us=300" "show applied"

# Export: header exactly as documented, one row per sample (the load's own
# and the measured window's schedstat deltas).
"$SCHEDRIG" export --db "$DB" --format csv > "$WORK/e.csv"
assert_eq "$(head -1 "$WORK/e.csv")" "run,variant,cell,load,metric,unit,better,op,iteration,value,tool,repetition" "csv header"
assert_eq "$(($(wc -l < "$WORK/e.csv") - 1))" \
	"$(q "$DB" "SELECT (SELECT count(*) FROM sample) + (SELECT count(*) FROM window_sample)")" "csv rows"
# The tool column carries each load's driver, so import gives back the same
# tables byte for byte (cyclictest's 0 decimals for load ct, not the 2 of an
# unknown load); only the run's own notes (its Order) stay behind.
grep -q ',ct,max_latency,us,lower,0,1,[0-9]*,cyclictest,0$' "$WORK/e.csv" || fail "no tool in the export: $(head -3 "$WORK/e.csv")"
# A repeating background load stores several samples per iteration, one per
# repetition: the repetition column keeps them apart, so the whole export
# imports, every sample, and gives the same tables byte for byte.
reps=$(q "$DB" "SELECT max(li.repetition) FROM load_instance li JOIN sample s
	ON s.load_instance_id = li.id WHERE li.name = 'hb'")
[ "$reps" -ge 1 ] || fail "no iteration with two hb repetitions to export (max repetition '$reps')"
grep -q ",hb,time,s,lower,[^,]*,[0-9]*,[^,]*,hackbench,$reps\$" "$WORK/e.csv" ||
	fail "no repetition $reps of hb in the export: $(grep ',hb,' "$WORK/e.csv" | head -3)"
"$SCHEDRIG" import --csv "$WORK/e.csv" --db "$WORK/back.db" >/dev/null || fail "import of the export"
assert_eq "$(q "$WORK/back.db" "SELECT count(*) FROM sample")" "$(($(wc -l <"$WORK/e.csv") - 1))" \
	"samples imported"
"$SCHEDRIG" export --db "$WORK/back.db" --format csv | cut -d, -f2- >"$WORK/e2.csv"
diff -u <(cut -d, -f2- "$WORK/e.csv") "$WORK/e2.csv" || fail "export, import, export differs"
"$SCHEDRIG" compare --db "$DB" >"$WORK/before.txt"
"$SCHEDRIG" compare --db "$WORK/back.db" >"$WORK/after.txt"
grep -q '^Max ' "$WORK/after.txt" || fail "no table: $(cat "$WORK/after.txt")"
grep -q 'hb' "$WORK/after.txt" || fail "no table of hb: $(cat "$WORK/after.txt")"
assert_eq "$(tail -2 "$WORK/before.txt" | tr '\n' '|')" "|Order: interleaved|" "the run's note"
# the same tables, but an import has no kernel to name (no variant row's uname -r)
grep -q "^Kernel running: $(uname -r) (local)$" "$WORK/before.txt" || fail "no Kernel line: $(cat "$WORK/before.txt")"
grep -q '^Kernel ' "$WORK/after.txt" && fail "a Kernel line for imported samples"
diff -u <(head -n -2 "$WORK/before.txt" | grep -v '^Kernel ') "$WORK/after.txt" ||
	fail "tables differ after export and import"
grep -v ',hb,' "$WORK/e.csv" >"$WORK/ct.csv"
# A CSV from before the tool column imports as before: decimals from the
# load's name, 2 for ct.
cut -d, -f1-10 "$WORK/ct.csv" >"$WORK/old.csv"
"$SCHEDRIG" import --csv "$WORK/old.csv" --db "$WORK/old.db" >/dev/null || fail "import without tool"
grep -Eq '^Max +[0-9]+ +[0-9]+\.[0-9]{2} ' <("$SCHEDRIG" compare --db "$WORK/old.db") ||
	fail "old csv decimals: $("$SCHEDRIG" compare --db "$WORK/old.db")"

# Exit codes: bad usage 2, bad config 2, missing tool is a recorded failure 1.
set +e
"$SCHEDRIG" run >/dev/null 2>&1; assert_eq "$?" "2" "no config"
printf 'name: x\nloads: [{tool: nosuch}]\n' > "$WORK/bad.yaml"
"$SCHEDRIG" run "$WORK/bad.yaml" --db "$DB" 2>/dev/null; assert_eq "$?" "2" "bad config"
cat > "$WORK/fail.yaml" <<'YAML'
name: failing
iterations: 1
loads:
  - tool: stress-ng
    params: {stressor: no-such-stressor, duration_s: 1}
YAML
"$SCHEDRIG" run "$WORK/fail.yaml" --db "$DB" > "$WORK/f.txt" 2>&1; rc=$?
set -e
assert_eq "$rc" "1" "failing tool"
assert_eq "$(q "$DB" "SELECT state FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	JOIN variant v ON v.id = i.variant_id JOIN run r ON r.id = v.run_id WHERE r.name = 'failing'")" \
	"failed" "failure recorded"
assert_eq "$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
	JOIN run r ON r.id = v.run_id WHERE r.name = 'failing'")" "0" "no sample from a failure"
