# Helpers of the bisect tests (sourced after lib.sh).

# series NAME POINT...: NAME.yaml, one fake load (3..6 adaptive iterations,
# stop at CI 50 %) and bisect: points p0, p1, ...; POINT is MEAN:SPREAD_PCT
# (seed 10+k, state file of its own, so point k's samples are draws 0, 1,
# ... of seed 10+k), or "fail" (a state file that cannot be created: the
# fake load fails). Also sets SPECS for bisect_check.py.
series() {
	local name=$1 k=0 p mean spread
	shift
	SPECS=()
	{
		echo "name: $name"
		echo "iterations: {min: 3, max: 6, ci_pct: 50}"
		echo "warmup_s: 0"
		echo "loads:"
		echo "  - {name: f, tool: fake, params: {mean: 100, spread_pct: 1, seed: 1, sleep_ms: ${SLEEP_MS:-0}}}"
		echo "bisect:"
		echo "  points:"
		for p in "$@"; do
			if [ "$p" = fail ]; then
				echo "    - {name: p$k, params: {f: {state_file: $WORK/no/such/dir/p$k}}}"
				SPECS+=(-)
			else
				mean=${p%%:*}
				spread=${p##*:}
				echo "    - {name: p$k, params: {f: {mean: $mean, spread_pct: $spread, seed: $((10 + k)), state_file: $WORK/$name-p$k.state}}}"
				SPECS+=("$mean:$spread:$((10 + k))")
			fi
			k=$((k + 1))
		done
	} >"$WORK/$name.yaml"
}

# check DB ID: the stored samples, p-values and verdicts against python.
check() {
	local why
	why=$(python3 "$TESTS_DIR/integration/bisect_check.py" "$1" "$2" "${SPECS[@]}" 2>&1) ||
		fail "bisection $2 disagrees with the independent computation: $why"
}

# measured DB ID: the points measured, in order ("0 8 4 6 5").
measured() {
	q "$1" "SELECT k FROM bisect_point WHERE bisection_id = $2 AND verdict IS NOT NULL
		ORDER BY decided_seq" | tr '\n' ' ' | sed 's/ $//'
}
