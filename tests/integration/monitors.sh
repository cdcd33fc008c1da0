# Monitors end to end: a run with monitors at 200 ms while hackbench runs
# stores series for every CPU with positive context-switch rates, per-task
# series of the load, rusage of its process tree; schedrig monitors prints
# the table; config errors name file:line:col.
source "$(dirname "$0")/lib.sh"
DB=$WORK/m.db
NCPU=$(grep -c '^cpu[0-9]' /proc/stat)
cat > "$WORK/mon.yaml" <<'YAML'
name: monitored
iterations: 2
monitors: {interval_ms: 200}
loads:
  - name: hb
    tool: hackbench
    params: {groups: 2, loops: 1500, ipc: pipe}
YAML

"$SCHEDRIG" run "$WORK/mon.yaml" --db "$DB" > "$WORK/out.txt" 2>&1 ||
	fail "run failed: $(cat "$WORK/out.txt")"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" "2" "iterations"

# Every CPU has utilisation series in every iteration, and they are sane.
for it in 1 2; do
	n=$(q "$DB" "SELECT count(DISTINCT s.cpu) FROM series s JOIN iteration i ON i.id = s.iteration_id
		WHERE i.iteration = $it AND s.monitor = 'stat' AND s.key = 'user_pct' AND s.cpu IS NOT NULL")
	assert_eq "$n" "$NCPU" "CPUs with stat series in iteration $it"
done
assert_eq "$(q "$DB" "SELECT count(*) FROM series WHERE monitor = 'stat' AND key LIKE '%_pct'
	AND (value < 0 OR value > 100)")" "0" "percentages within 0..100"
# user + system + ... + idle = 100 for every CPU and interval.
assert_eq "$(q "$DB" "SELECT count(*) FROM (SELECT sum(value) AS t FROM series WHERE monitor = 'stat'
	AND key LIKE '%_pct' GROUP BY iteration_id, cpu, t_ms) WHERE abs(t - 100) > 0.001")" "0" \
	"columns add up to 100 %"

# Context switches while hackbench runs: several intervals, every rate positive.
n=$(q "$DB" "SELECT count(*) FROM series WHERE monitor = 'stat' AND key = 'ctxt_per_s'")
[ "$n" -ge 4 ] || fail "only $n ctxt_per_s points"
assert_eq "$(q "$DB" "SELECT count(*) FROM series WHERE monitor = 'stat' AND key = 'ctxt_per_s'
	AND NOT value > 0")" "0" "context-switch rates positive"
min=$(q "$DB" "SELECT min(value) FROM series WHERE monitor = 'stat' AND key = 'ctxt_per_s'")
awk -v m="$min" 'BEGIN { exit !(m > 100) }' || fail "context switches/s $min while hackbench runs"
# Points are in time order within the iteration.
assert_eq "$(q "$DB" "SELECT count(*) FROM series WHERE t_ms < 0")" "0" "t_ms offsets"

# The load's process: sampled at start, per interval and at its end; rusage.
for it in 1 2; do
	pid=$(q "$DB" "SELECT li.pid FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
		WHERE i.iteration = $it AND li.name = 'hb'")
	n=$(q "$DB" "SELECT count(*) FROM series s JOIN iteration i ON i.id = s.iteration_id
		WHERE i.iteration = $it AND s.monitor = 'sched' AND s.key = 'nr_switches' AND s.pid = $pid")
	[ "$n" -ge 3 ] || fail "hackbench $pid sampled $n times in iteration $it"
	assert_eq "$(q "$DB" "SELECT tgid FROM series WHERE monitor = 'sched' AND pid = $pid LIMIT 1")" \
		"$pid" "tgid of the load process"
	v=$(q "$DB" "SELECT value FROM series s JOIN iteration i ON i.id = s.iteration_id
		WHERE i.iteration = $it AND s.monitor = 'rusage' AND s.key = 'nvcsw' AND s.pid = $pid")
	[ "${v%.*}" -gt 0 ] || fail "rusage nvcsw of hackbench's process tree: '$v'"
done
[ -r /proc/schedstat ] || assert_contains "$(cat "$WORK/out.txt")" \
	"/proc/schedstat is absent" "schedstat note"
assert_eq "$(q "$DB" "SELECT count(*) FROM event WHERE message LIKE 'rig cpu: user_s=%'")" "1" \
	"rig cost note"

out=$("$SCHEDRIG" monitors --db "$DB")
assert_contains "$out" "monitors: run 1 monitored" "table title"
assert_contains "$out" "Context switches/s Mean" "table row"
assert_contains "$out" "hb Invol switches/CPU s" "per-load row"
assert_contains "$out" "hb Duration Elapsed" "duration row"
line=$(printf '%s\n' "$out" | grep '^Context switches/s Mean')
val=$(echo "$line" | awk '{print $NF}')
awk -v v="$val" 'BEGIN { exit !(v > 0) }' || fail "table context switches: $line"
case "$out" in *%\)*) fail "percent columns in the monitor table" ;; esac

# Without monitors: no series, and schedrig monitors says so.
sed -e '/^monitors:/d' -e 's/^name: monitored/name: bare/' "$WORK/mon.yaml" > "$WORK/bare.yaml"
"$SCHEDRIG" run "$WORK/bare.yaml" --db "$DB" --iterations 1 --quiet > /dev/null 2>&1 || fail "bare run"
assert_eq "$(q "$DB" "SELECT count(*) FROM series s JOIN iteration i ON i.id = s.iteration_id
	JOIN variant v ON v.id = i.variant_id WHERE v.run_id = 2")" "0" "no series without monitors"
set +e
err=$("$SCHEDRIG" monitors --db "$DB" bare 2>&1); rc=$?
set -e
assert_eq "$rc" "1" "monitors on a run without series"
assert_contains "$err" "has no monitor series" "message"

# Config errors with file:line:col.
printf 'name: x\nmonitors: {interval_ms: 5}\nloads: [{tool: hackbench}]\n' > "$WORK/b1.yaml"
printf 'name: x\nmonitors:\n  perf: true\nloads: [{tool: hackbench}]\n' > "$WORK/b2.yaml"
printf 'name: x\nmonitors: {intervall_ms: 100}\nloads: [{tool: hackbench}]\n' > "$WORK/b3.yaml"
printf 'name: x\nmonitors: true\nloads: [{tool: hackbench}]\n' > "$WORK/ok.yaml"
set +e
e1=$("$SCHEDRIG" check-config "$WORK/b1.yaml" 2>&1)
e2=$("$SCHEDRIG" check-config "$WORK/b2.yaml" 2>&1)
e3=$("$SCHEDRIG" check-config "$WORK/b3.yaml" 2>&1)
"$SCHEDRIG" check-config "$WORK/ok.yaml" > /dev/null 2>&1; rc=$?
set -e
assert_contains "$e1" "b1.yaml:2:25: interval_ms must be between 10 and 3600000, not 5" "interval range"
assert_contains "$e2" "b2.yaml:3:9: monitors: perf: true is not supported" "perf refused"
assert_contains "$e3" "b3.yaml:2:12: unknown key 'intervall_ms' in monitors (did you mean 'interval_ms'?)" \
	"unknown key"
assert_eq "$rc" "0" "monitors: true"
