# What tracing costs what it measures (issue 28), run by bench/run-bench:
# hackbench's "Time:" bare (the rig's argv exec'd directly), under
# `schedrig run` without a trace (the always-on schedstat reads only) and
# with `trace: sched` (sched_switch, sched_waking, sched_wakeup,
# sched_migrate_task over the whole window), alternating bare, rig, rig
# traced ROUNDS (10) times. Prints the median of the per-round ratios rig /
# bare for both (target <= 1.01 without a trace; the traced one is the price
# of the trace, stated, not a target), the median of traced / untraced rig
# runs of the same round (the trace's own price, the rig's cost cancelled),
# and the trace's size per second of window (text bytes, and gzip bytes on
# disk); the load average before and after goes to stderr (the machine is
# shared: a wide spread of the per-round ratios says it was noisy).
# BENCH_QUICK=1: ROUNDS 4.
set -euo pipefail
: "${SCHEDRIG:?}"
ROUNDS=${ROUNDS:-10}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ROUNDS=4; fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/t.db
q() { sqlite3 -batch -noheader "$DB" "$1"; }

cat > "$WORK/off.yaml" <<EOF
name: trace-off
iterations: 1
loads:
  - {name: hb, tool: hackbench, params: {groups: 2, loops: 2000, ipc: pipe}}
EOF
sed -e 's/^name: trace-off/name: trace-on/' -e 's/^iterations: 1/iterations: 1\ntrace: sched/' \
	"$WORK/off.yaml" > "$WORK/on.yaml"
read -r -a hb <<< "$("$SCHEDRIG" run "$WORK/off.yaml" --db "$DB" --dry-run | sed -n 's/^ *argv: *//p' | head -1)"
[ "${#hb[@]}" -gt 0 ] || { echo "no argv in the plan" >&2; exit 1; }

rig_time() { # CONFIG -> hackbench's time of the run just made
	"$SCHEDRIG" run "$1" --db "$DB" --quiet > /dev/null 2> "$WORK/err" ||
		{ cat "$WORK/err" >&2; exit 1; }
	q "SELECT s.value FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
		WHERE v.run_id = (SELECT max(id) FROM run) AND s.metric = 'time'"
}
bare_hb() { "${hb[@]}" | sed -n 's/^Time: *//p'; }

off=() on=() tr=()
echo "trace-overhead: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
	echo "trace-overhead round $r/$ROUNDS: hackbench bare, rig, rig with trace: sched" >&2
	a=$(bare_hb) b=$(rig_time "$WORK/off.yaml") c=$(rig_time "$WORK/on.yaml")
	off+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')")
	on+=("$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.4f", c / a }')")
	tr+=("$(awk -v b="$b" -v c="$c" 'BEGIN { printf "%.4f", c / b }')")
done
echo "rig/bare per round: ${off[*]}" >&2
echo "rig traced/bare per round: ${on[*]}" >&2
echo "rig traced/rig per round: ${tr[*]}" >&2
echo "trace-overhead: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	printf "%.4f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m_off=$(median "${off[@]}") m_on=$(median "${on[@]}") m_tr=$(median "${tr[@]}")
gz=0
for f in "$WORK"/runs/*/traces/*.gz; do gz=$((gz + $(stat -c %s "$f"))); done
read -r text_s window_s <<< "$(q "SELECT sum(bytes), sum(window_end_ns - window_start_ns) / 1e9 FROM trace" | tr '|' ' ')"
lost=$(q "SELECT sum(lost_events) FROM trace")
printf 'trace-overhead: hackbench time rig / bare, no trace (median of %d)\t%s\t<= 1.01\t%s\n' \
	"$ROUNDS" "$m_off" "$(awk -v r="$m_off" 'BEGIN { print r <= 1.01 ? "ok" : "missed" }')"
printf 'trace-overhead: hackbench time rig / bare, trace: sched (median of %d)\t%s\tn/a\tn/a\n' \
	"$ROUNDS" "$m_on"
printf 'trace-overhead: hackbench time rig traced / rig untraced (median of %d)\t%s\tn/a\tn/a\n' \
	"$ROUNDS" "$m_tr"
printf 'trace-overhead: trace text per second of window (MB/s; %s events lost)\t%s\tn/a\tn/a\n' \
	"$lost" "$(awk -v b="$text_s" -v s="$window_s" 'BEGIN { printf "%.1f", b / s / 1e6 }')"
printf 'trace-overhead: trace gzip on disk per second of window (MB/s)\t%s\tn/a\tn/a\n' \
	"$(awk -v b="$gz" -v s="$window_s" 'BEGIN { printf "%.2f", b / s / 1e6 }')"
