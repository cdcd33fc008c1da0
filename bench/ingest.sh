# Storing samples (issue 8), run by bench/run-bench:
#  1. samples stored per second: build/bench/ingest (bench/ingest.c) pushes
#     1 000 000 synthetic samples through store_iteration_save, the path a
#     run stores by, in two shapes: 1 000 iterations of 1 000 samples (the
#     cost per sample; target >= 1 000 000/s) and 10 000 iterations of 100
#     (each iteration is one transaction whose commit appends its pages to
#     the WAL, about 80 us of CPU here, so this shape shows the cost per
#     iteration too). The rate is per CPU second of the storing process
#     (user + system; a shared machine's load does not count against it);
#     the rate per wall second is printed for reference.
#  2. the rig's peak RSS does not grow with duration: schedrig run of a
#     cyclictest with a histogram for SHORT_S (30) and LONG_S (120) s; VmHWM
#     of the rig process itself (not its loads), read from /proc/PID/status
#     while it runs; ratio long / short, target <= 1.05. What the rig holds
#     grows with the tool's output only: cyclictest -h lists the cycle
#     number of each histogram overflow, at most 1000 per thread, so a
#     loaded machine's output (and the rig's RSS) grows for the first tens
#     of seconds and then stays put; the short run is long enough to pass
#     that cap here.
# BENCH_QUICK=1: 100 000 samples, 5 s and 15 s runs.
set -euo pipefail
: "${SCHEDRIG:?}"
BUILD=${BUILD:-$PWD/build}
ITERATIONS=${ITERATIONS:-10000}
SHORT_S=${SHORT_S:-30}
LONG_S=${LONG_S:-120}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ITERATIONS=1000; SHORT_S=5; LONG_S=15; fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

[ -x "$BUILD/bench/ingest" ] || make -s "$BUILD/bench/ingest" >&2
ingest() { # ITERATIONS SAMPLES_PER_ITERATION
	echo "ingest: $1 x $2 samples through store_iteration_save ..." >&2
	local line n per_cpu per_wall verdict
	line=$("$BUILD/bench/ingest" "$WORK/ingest.db" "$1" "$2")
	echo "ingest: $line" >&2
	rm -f "$WORK"/ingest.db*
	n=$(sed -n 's/.*samples=\([^ ]*\).*/\1/p' <<< "$line")
	per_cpu=$(sed -n 's/.*per_cpu_s=\([^ ]*\).*/\1/p' <<< "$line")
	per_wall=$(sed -n 's/.*per_wall_s=\([^ ]*\).*/\1/p' <<< "$line")
	verdict=$(awk -v r="$per_cpu" 'BEGIN { print (r >= 1000000 ? "ok" : "missed") }')
	printf 'samples stored per CPU second (%s samples, %s/iteration)\t%s\t>= 1000000\t%s\n' \
		"$n" "$2" "$per_cpu" "$verdict"
	printf 'samples stored per wall second (%s/iteration, shared machine)\t%s\t-\tn/a\n' \
		"$2" "$per_wall"
}
ingest $((ITERATIONS / 10)) 1000
ingest "$ITERATIONS" 100

# -- 2. peak RSS of the rig: short vs long cyclictest run ---------------------
rig_hwm_kb() { # DURATION_S -> VmHWM (kB) of the schedrig process
	cat > "$WORK/cyc-$1.yaml" <<-EOF
	name: rss-$1
	iterations: 1
	loads:
	  - name: cyclictest
	    tool: cyclictest
	    timeout_s: $(($1 + 60))
	    params: {threads: 2, interval_us: 200, duration_s: $1, histogram_us: 2000}
	EOF
	"$SCHEDRIG" run "$WORK/cyc-$1.yaml" --db "$WORK/rss.db" --quiet > /dev/null 2> "$WORK/err" &
	local pid=$! hwm=0 v
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		[ -n "$v" ] && hwm=$v
		sleep 0.2
	done
	wait "$pid" || { cat "$WORK/err" >&2; exit 1; }
	echo "$hwm"
}
echo "rig RSS: cyclictest with histogram, $SHORT_S s ..." >&2
short=$(rig_hwm_kb "$SHORT_S")
echo "rig RSS: cyclictest with histogram, $LONG_S s ..." >&2
long=$(rig_hwm_kb "$LONG_S")
echo "rig VmHWM: $short kB ($SHORT_S s), $long kB ($LONG_S s)" >&2
r=$(awk -v a="$long" -v b="$short" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
verdict=$(awk -v r="$r" 'BEGIN { print ((r > 0 && r <= 1.05) ? "ok" : "missed") }')
printf 'rig peak RSS, cyclictest+histogram %d s / %d s\t%s\t<= 1.05\t%s\n' "$LONG_S" "$SHORT_S" "$r" "$verdict"
printf 'rig peak RSS, %d s run (kB)\t%s\t-\tn/a\n' "$LONG_S" "$long"
