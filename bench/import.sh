# Import beside SQLite's own (issue 31), run by bench/run-bench: schedrig
# import of ROWS (500 000) CSV rows (3 variants x 10 ops x iterations, the
# shape of an exported run) into a new results database, and sqlite3's own
# `.import` of the same file into a plain table of a new database, REPEATS
# (5) pairs run in turn (A B A B ...: a drifting machine moves both), each
# whole process timed from outside; the ratio schedrig / sqlite3 of each
# pair, median of the pairs, target <= 1.5, by wall and by CPU (user +
# system: other work on a shared machine counts against neither).
# BENCH_QUICK=1: 100 000 rows, 3 pairs.
set -euo pipefail
: "${SCHEDRIG:?}"
ROWS=${ROWS:-500000}
REPEATS=${REPEATS:-5}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ROWS=100000; REPEATS=3; fi
command -v sqlite3 > /dev/null || { echo "import: sqlite3 missing (scripts/install-deps)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

awk -v rows="$ROWS" 'BEGIN {
	srand(31)
	print "run,variant,cell,load,metric,unit,better,op,iteration,value"
	for (n = 0; n < rows; n++) {
		v = int(n / 10) % 3; it = int(n / 30) + 1; op = n % 10 + 1
		printf "bench,v%d,c,hackbench,time,s,lower,%d,%d,%.4f\n", v, op, it,
			1 + op * 0.1 + v * 0.01 + rand() * 0.05
	}
}' > "$WORK/in.csv"

# timed CMD...: "WALL CPU" seconds of the whole process.
timed() {
	local TIMEFORMAT='%3R %3U %3S' t
	{ time "$@" > /dev/null 2> "$WORK/err" || { cat "$WORK/err" >&2; exit 1; }; } 2> "$WORK/time"
	t=$(tail -1 "$WORK/time")
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<< "$t"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

walls=() cpus=() rig_walls=() sql_walls=()
for ((r = 0; r < REPEATS; r++)); do
	rm -f "$WORK"/rig.db* "$WORK"/plain.db*
	read -r rw rc <<< "$(timed "$SCHEDRIG" import --csv "$WORK/in.csv" --db "$WORK/rig.db")"
	read -r sw sc <<< "$(timed sqlite3 "$WORK/plain.db" ".mode csv" ".import $WORK/in.csv s")"
	echo "import: pair $((r + 1)): schedrig $rw s wall, $rc s CPU; sqlite3 $sw s wall, $sc s CPU" >&2
	rig_walls+=("$rw") sql_walls+=("$sw")
	walls+=("$(awk -v a="$rw" -v b="$sw" 'BEGIN { printf "%.3f", a / b }')")
	cpus+=("$(awk -v a="$rc" -v b="$sc" 'BEGIN { printf "%.3f", a / b }')")
done
[ "$(sqlite3 "$WORK/rig.db" 'SELECT count(*) FROM sample_value')" = "$ROWS" ] ||
	{ echo "import: schedrig stored the wrong number of samples" >&2; exit 1; }
[ "$(sqlite3 "$WORK/plain.db" 'SELECT count(*) FROM s')" = "$ROWS" ] ||
	{ echo "import: sqlite3 stored the wrong number of rows" >&2; exit 1; }
w=$(median "${walls[@]}") c=$(median "${cpus[@]}")
verdict() { awk -v r="$1" 'BEGIN { print (r <= 1.5 ? "ok" : "missed") }'; }
printf 'import %d rows / sqlite3 .import, median wall ratio\t%s\t<= 1.5\t%s\n' "$ROWS" "$w" "$(verdict "$w")"
printf 'import %d rows / sqlite3 .import, median CPU ratio\t%s\t<= 1.5\t%s\n' "$ROWS" "$c" "$(verdict "$c")"
printf 'import %d rows, median wall s (schedrig; shared machine)\t%s\t-\tn/a\n' "$ROWS" "$(median "${rig_walls[@]}")"
printf 'import %d rows, median wall s (sqlite3 .import)\t%s\t-\tn/a\n' "$ROWS" "$(median "${sql_walls[@]}")"
