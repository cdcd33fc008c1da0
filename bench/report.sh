# How fast compare reports (issue 8), run by bench/run-bench:
#  1. schedrig compare of 3 variants x 10 ops x 100 iterations (3 000
#     samples), imported once from a generated CSV, run REPEATS (7) times;
#     median wall time in ms, target < 50 ms (absolute: measured on a shared,
#     loaded machine, so the CPU time of the compare process, user + system,
#     is printed beside it).
#  2. the same for 1 000 000 samples (3 variants x 10 ops x 33 334
#     iterations), target < 1 s.
# BENCH_QUICK=1: 3 repeats, 100 000 samples for the second figure.
set -euo pipefail
: "${SCHEDRIG:?}"
REPEATS=${REPEATS:-7}
BIG_ITERATIONS=${BIG_ITERATIONS:-33334}
if [ "${BENCH_QUICK:-0}" = 1 ]; then REPEATS=3; BIG_ITERATIONS=3334; fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/r.db

gen_csv() { # ITERATIONS -> CSV of 3 variants x 10 ops x ITERATIONS on stdout
	awk -v n="$1" 'BEGIN {
		srand(8)
		print "run,variant,cell,load,metric,unit,better,op,iteration,value"
		for (v = 0; v < 3; v++)
			for (i = 1; i <= n; i++)
				for (op = 1; op <= 10; op++)
					printf "bench,v%d,c,hackbench,time,s,lower,%d,%d,%.4f\n",
						v, op, i, 1 + op * 0.1 + v * 0.01 + rand() * 0.05
	}'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_compare RUN -> "WALL_MS CPU_MS" medians of REPEATS runs of compare
time_compare() {
	local walls=() cpus=() TIMEFORMAT='%3R %3U %3S' t
	for ((r = 0; r < REPEATS; r++)); do
		{ time "$SCHEDRIG" compare --db "$DB" "$1" > "$WORK/out" 2> "$WORK/err" ||
			{ cat "$WORK/err" >&2; exit 1; }; } 2> "$WORK/time"
		t=$(tail -1 "$WORK/time")
		walls+=("$(awk '{ printf "%.1f", $1 * 1000 }' <<< "$t")")
		cpus+=("$(awk '{ printf "%.0f", ($2 + $3) * 1000 }' <<< "$t")")
	done
	[ -s "$WORK/out" ] || { echo "compare printed nothing" >&2; exit 1; }
	echo "$(median "${walls[@]}") $(median "${cpus[@]}")"
}

for size in small big; do
	if [ $size = small ]; then its=100; else its=$BIG_ITERATIONS; fi
	n=$((3 * 10 * its))
	echo "report: importing $n samples ..." >&2
	gen_csv "$its" > "$WORK/$size.csv"
	"$SCHEDRIG" import --db "$DB" --csv "$WORK/$size.csv" --run "$size" > /dev/null
	rm -f "$WORK/$size.csv"
	echo "report: compare of $n samples, $REPEATS times ..." >&2
	read -r wall cpu <<< "$(time_compare "$size")"
	if [ $size = small ]; then
		v=$(awk -v w="$wall" 'BEGIN { print w < 50 ? "ok" : "missed" }')
		printf 'compare 3 var x 10 ops x 100 it, median wall ms (shared machine)\t%s\t< 50\t%s\n' "$wall" "$v"
		printf 'compare 3 var x 10 ops x 100 it, median CPU ms (user+sys)\t%s\t-\tn/a\n' "$cpu"
	else
		v=$(awk -v w="$wall" 'BEGIN { print w < 1000 ? "ok" : "missed" }')
		printf 'compare %d samples, median wall ms (shared machine)\t%s\t< 1000\t%s\n' "$n" "$wall" "$v"
		printf 'compare %d samples, median CPU ms (user+sys)\t%s\t-\tn/a\n' "$n" "$cpu"
	fi
done
