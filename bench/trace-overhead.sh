# What tracing costs what it measures (issue 28), run by bench/run-bench:
# hackbench's "Time:" bare (the rig's argv exec'd directly), under
# `schedrig run` without a trace (the always-on schedstat reads only) and
# with `trace: sched` (sched_switch, sched_waking, sched_wakeup,
# sched_migrate_task over the whole window), ROUNDS (30) rounds of the
# three, in an order that turns over from round to round (ratio_ci order:
# each of the six orders in turn). Per round the ratios rig / bare, traced
# / bare and traced / rig; build/bench/ratio_ci gives each one's median and
# the distribution-free 95 % interval of that median, with the verdict on
# the target <= 1.01 (rig / bare without a trace; the traced ones are the
# trace's price, stated, not a target). Also the trace's size per second of
# window (text bytes, and gzip bytes on disk), and what the rig itself
# does while the window is open: one more run untraced and one traced,
# each watched by a tracefs instance of this bench's own, counting the
# rig's CPU time, wakeups and preemptions between hackbench's exec and
# its exit. The load average before and after goes to stderr (the
# machine is shared: a wide interval says it was noisy).
# LOOPS: hackbench's loops (4000). BENCH_QUICK=1: ROUNDS 6, LOOPS 2000.
set -euo pipefail
: "${SCHEDRIG:?}"
RATIO_CI=${BUILD:-$PWD/build}/bench/ratio_ci
ROUNDS=${ROUNDS:-30}
LOOPS=${LOOPS:-4000}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ROUNDS=6; LOOPS=2000; fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
TRACEFS=/sys/kernel/tracing
WATCH=$TRACEFS/instances/schedrig-bench-$$
cleanup() {
	if [ -d "$WATCH" ]; then
		echo 0 > "$WATCH/events/sched/sched_switch/enable" || true
		rmdir "$WATCH" || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
DB=$WORK/t.db
q() { sqlite3 -batch -noheader "$DB" "$1"; }

cat > "$WORK/off.yaml" <<EOF
name: trace-off
iterations: 1
loads:
  - {name: hb, tool: hackbench, params: {groups: 2, loops: $LOOPS, ipc: pipe}}
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
run_one() { # CONDITION (0 bare, 1 rig, 2 rig traced) -> hackbench's time
	case $1 in
	0) bare_hb ;;
	1) rig_time "$WORK/off.yaml" ;;
	2) rig_time "$WORK/on.yaml" ;;
	esac
}

# The rig's own CPU ms, wakeups (switches in after a sleep) and
# preemptions (switches out while runnable) during one untraced window
# (hackbench's exec to its exit), from a tracefs instance of this bench's
# own: sched_switch of tasks named schedrig, sched_process_exec and
# sched_process_exit of hackbench. CONFIG: the run's config. Prints
# "CPU_MS WAKEUPS PREEMPTED WINDOW_S" (nothing when tracefs is not
# writable).
rig_self_cost() {
	mkdir "$WATCH" 2> /dev/null || { echo "no tracefs instance: rig's own cost not measured" >&2; return 0; }
	local ev=$WATCH/events/sched
	echo 'prev_comm == "schedrig" || next_comm == "schedrig"' > "$ev/sched_switch/filter"
	echo 'comm == "hackbench"' > "$ev/sched_process_exit/filter"
	for e in sched_switch sched_process_exec sched_process_exit; do echo 1 > "$ev/$e/enable"; done
	"$SCHEDRIG" run "$1" --db "$DB" --quiet > /dev/null 2> "$WORK/err" &
	local rig=$!
	wait "$rig" || { cat "$WORK/err" >&2; exit 1; }
	for e in sched_switch sched_process_exec sched_process_exit; do echo 0 > "$ev/$e/enable"; done
	awk -v rig="$rig" '
	function field(name,   v) { v = $0; sub(".*" name "=", "", v); sub(/ .*/, "", v); return v }
	{ t = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(":", "", t); t += 0 } }
	/sched_process_exec:/ && field("filename") ~ /hackbench$/ && !hb { hb = field("pid"); begin = t }
	/sched_process_exit:/ && hb && field("pid") == hb { end = t }
	/sched_switch:/ && field("next_pid") == rig { on = t; if (begin && !end && slept) wakeups++ }
	/sched_switch:/ && field("prev_pid") == rig && on != "" {
		if (begin && !end) { cpu += t - (on > begin ? on : begin); if (field("prev_state") == "R" || field("prev_state") == "R+") preempted++ }
		slept = field("prev_state") != "R" && field("prev_state") != "R+"; on = ""
	}
	END { printf "%.3f %d %d %.3f\n", cpu * 1e3, wakeups, preempted, end - begin }' "$WATCH/trace"
	rmdir "$WATCH"
}

off=() on=() tr=()
echo "trace-overhead: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
	read -r -a order <<< "$("$RATIO_CI" order "$r" 3)"
	echo "trace-overhead round $r/$ROUNDS: order ${order[*]} (0 bare, 1 rig, 2 rig with trace: sched)" >&2
	t=()
	for c in "${order[@]}"; do t[c]=$(run_one "$c"); done
	off+=("${t[0]} ${t[1]}") on+=("${t[0]} ${t[2]}") tr+=("${t[1]} ${t[2]}")
done
echo "trace-overhead: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
printf '%s\n' "${off[@]}" | "$RATIO_CI" verdict "trace-overhead: hackbench time rig / bare, no trace" 1.01
printf '%s\n' "${on[@]}" | "$RATIO_CI" verdict "trace-overhead: hackbench time rig / bare, trace: sched" -
printf '%s\n' "${tr[@]}" | "$RATIO_CI" verdict "trace-overhead: hackbench time rig traced / rig untraced" -
gz=0
for f in "$WORK"/runs/*/traces/*.gz; do gz=$((gz + $(stat -c %s "$f"))); done
read -r text_s window_s <<< "$(q "SELECT sum(bytes), sum(window_end_ns - window_start_ns) / 1e9 FROM trace" | tr '|' ' ')"
lost=$(q "SELECT sum(lost_events) FROM trace")
printf 'trace-overhead: trace text per second of window (MB/s; %s events lost)\t%s\tn/a\tn/a\n' \
	"$lost" "$(awk -v b="$text_s" -v s="$window_s" 'BEGIN { printf "%.1f", b / s / 1e6 }')"
printf 'trace-overhead: trace gzip on disk per second of window (MB/s)\t%s\tn/a\tn/a\n' \
	"$(awk -v b="$gz" -v s="$window_s" 'BEGIN { printf "%.2f", b / s / 1e6 }')"
for c in off on; do
	read -r cpu_ms wakeups preempted win_s <<< "$(rig_self_cost "$WORK/$c.yaml")"
	[ -n "${cpu_ms:-}" ] || break
	what=$([ $c = off ] && echo untraced || echo "trace: sched")
	printf 'trace-overhead: rig CPU during one %s window (ms; window %s s)\t%s\tn/a\tn/a\n' "$what" "$win_s" "$cpu_ms"
	printf 'trace-overhead: rig wakeups during that window (preempted: %s)\t%s\tn/a\tn/a\n' "$preempted" "$wakeups"
done
