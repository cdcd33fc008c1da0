# What the monitors cost (issue 7), run by bench/run-bench:
#  1. the rig's own CPU time (getrusage RUSAGE_SELF of schedrig run, stored
#     as the run's "rig cpu:" note) during a RUN_S (60) s run of the built-in
#     wakeup-lat load with monitors at 1 s, as % of one CPU; target <= 0.1 %.
#     The same run without monitors is printed for reference.
#  2. hackbench under the rig with monitors at 1 s against bare hackbench
#     (the same argv exec'd directly) and against the rig without monitors:
#     hackbench's own "Time:", median of ROUNDS (7) alternating runs each;
#     ratio of medians, target within 1 %.
# Prints ratios, not absolute times. BENCH_QUICK=1: RUN_S 10, ROUNDS 3.
set -euo pipefail
: "${SCHEDRIG:?}"
RUN_S=${RUN_S:-60}
ROUNDS=${ROUNDS:-7}
if [ "${BENCH_QUICK:-0}" = 1 ]; then RUN_S=10; ROUNDS=3; fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/b.db
q() { sqlite3 -batch -noheader "$DB" "$1"; }

# -- 1. rig CPU time during a long run --------------------------------------
rig_pct() { # CONFIG -> pct_of_one_cpu of the run just made
	"$SCHEDRIG" run "$1" --db "$DB" --quiet > /dev/null 2>"$WORK/err" ||
		{ cat "$WORK/err" >&2; exit 1; }
	q "SELECT message FROM event WHERE message LIKE 'rig cpu:%'
		AND run_id = (SELECT max(id) FROM run)" | sed 's/.*pct_of_one_cpu=//'
}
for mon in on off; do
	{
		echo "name: rig-cost-$mon"
		echo "iterations: 1"
		[ $mon = on ] && echo "monitors: {interval_ms: 1000}"
		echo "loads:"
		echo "  - tool: wakeup-lat"
		echo "    params: {runtime_s: $RUN_S}"
	} > "$WORK/cost-$mon.yaml"
done
echo "rig CPU: $RUN_S s with monitors at 1 s ..." >&2
pct_on=$(rig_pct "$WORK/cost-on.yaml")
echo "rig CPU: $RUN_S s without monitors ..." >&2
pct_off=$(rig_pct "$WORK/cost-off.yaml")
verdict=$(awk -v p="$pct_on" 'BEGIN { print p <= 0.1 ? "ok" : "missed" }')
printf 'rig CPU, %d s run, monitors 1 s (%% of one CPU)\t%s\t<= 0.1\t%s\n' "$RUN_S" "$pct_on" "$verdict"
printf 'rig CPU, %d s run, no monitors (%% of one CPU)\t%s\t-\tn/a\n' "$RUN_S" "$pct_off"

# -- 2. hackbench: rig + monitors vs bare vs rig without monitors ------------
for mon in on off; do
	{
		echo "name: hb-$mon"
		echo "iterations: 1"
		[ $mon = on ] && echo "monitors: {interval_ms: 1000}"
		echo "loads:"
		echo "  - name: hb"
		echo "    tool: hackbench"
		echo "    params: {groups: 2, loops: 2000, ipc: pipe}"
	} > "$WORK/hb-$mon.yaml"
done
# The exact argv the rig runs, from its plan.
argv=$("$SCHEDRIG" run "$WORK/hb-on.yaml" --db "$DB" --dry-run | sed -n 's/^ *argv: *//p' | head -1)
read -r -a hb <<< "$argv"
[ "${#hb[@]}" -gt 0 ] || { echo "no hackbench argv in the plan" >&2; exit 1; }
rig_time() {
	"$SCHEDRIG" run "$1" --db "$DB" --quiet > /dev/null 2>"$WORK/err" ||
		{ cat "$WORK/err" >&2; exit 1; }
	q "SELECT s.value FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
		WHERE v.run_id = (SELECT max(id) FROM run) AND s.metric = 'time'"
}
bare=() rigmon=() rignomon=()
for ((r = 1; r <= ROUNDS; r++)); do
	echo "hackbench round $r/$ROUNDS: bare, rig+monitors, rig" >&2
	bare+=("$("${hb[@]}" | sed -n 's/^Time: *//p')")
	rigmon+=("$(rig_time "$WORK/hb-on.yaml")")
	rignomon+=("$(rig_time "$WORK/hb-off.yaml")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mb=$(median "${bare[@]}") mm=$(median "${rigmon[@]}") mn=$(median "${rignomon[@]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }
within() { awk -v r="$1" 'BEGIN { print (r >= 0.99 && r <= 1.01) ? "ok" : "missed" }'; }
r1=$(ratio "$mm" "$mb") r2=$(ratio "$mm" "$mn")
printf 'hackbench time: rig+monitors / bare (median of %d)\t%s\t1 +- 0.01\t%s\n' "$ROUNDS" "$r1" "$(within "$r1")"
printf 'hackbench time: rig+monitors / rig without monitors\t%s\t1 +- 0.01\t%s\n' "$r2" "$(within "$r2")"
r3=$(ratio "$(printf '%s\n' "${bare[@]}" | sort -g | tail -1)" "$(printf '%s\n' "${bare[@]}" | sort -g | head -1)")
printf 'hackbench time: bare max / bare min (noise)\t%s\t-\tn/a\n' "$r3"
