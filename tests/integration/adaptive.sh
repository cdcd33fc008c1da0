# Adaptive iterations end to end with the deterministic built-in fake load:
# a low-variance stream stops at min, a high-variance one at max, a slow one
# at its time budget; the reason is recorded and printed.
source "$(dirname "$0")/lib.sh"
DB=$WORK/a.db

run_cfg() { # NAME SPREAD_PCT ITERATIONS_YAML [SLEEP_MS]
	cat > "$WORK/$1.yaml" <<YAML
name: $1
iterations: $3
loads:
  - tool: fake
    params: {spread_pct: $2, seed: 7, state_file: "$WORK/$1.state", sleep_ms: ${4:-0}}
YAML
	"$SCHEDRIG" run "$WORK/$1.yaml" --db "$DB" > "$WORK/$1.out" 2>&1 || fail "$1: $(cat "$WORK/$1.out")"
}
iterations_of() {
	q "$DB" "SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id
		JOIN run r ON r.id = v.run_id WHERE r.name = '$1' AND i.status = 'complete'"
}

run_cfg steady 1 "{min: 3, max: 10, ci_pct: 5}"  # spread <= 1 % bounds the CI at n=3 by 2.5 %
assert_eq "$(iterations_of steady)" "3" "low variance stops at min"
assert_contains "$(cat "$WORK/steady.out")" "3 iteration(s), CI" "reason printed"

run_cfg noisy 50 "{min: 3, max: 6, ci_pct: 1}"
assert_eq "$(iterations_of noisy)" "6" "high variance runs to max"
assert_contains "$(q "$DB" "SELECT message FROM event WHERE kind = 'iterations' AND message LIKE '%6 iteration(s)%'")" \
	"max reached, CI" "reason stored"

# A budget of 2 s (it comes before min): the cell stops after the first
# iteration that ends 2 s or more after the cell's first began (its load's
# CLOCK_MONOTONIC times as stored), so every iteration before the last
# ended within 2 s; at most 7 of 300 ms each (the 7th ends at 2.1 s or
# later), however loaded the machine is.
run_cfg slow 50 "{min: 2, max: 30, ci_pct: 0.01, max_time_s: 2}" 300
n=$(iterations_of slow)
[ "$n" -ge 1 ] && [ "$n" -le 7 ] || fail "time budget: $n iterations of 300 ms in 2 s"
ends_ms=$(q "$DB" "SELECT (li.ended_ns - (SELECT min(l2.started_ns) FROM load_instance l2
		JOIN iteration i2 ON i2.id = l2.iteration_id WHERE i2.variant_id = i.variant_id)) / 1000000
	FROM load_instance li JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
	JOIN run r ON r.id = v.run_id WHERE r.name = 'slow' ORDER BY i.iteration" | tr '\n' ' ')
read -ra ends <<<"$ends_ms"
assert_eq "${#ends[@]}" "$n" "one load instance per iteration"
for ((k = 0; k < n - 1; k++)); do
	[ "${ends[k]}" -lt 2000 ] || fail "time budget: iteration $((k + 1)) of $n ended ${ends[k]} ms into the cell, past 2 s ($ends_ms)"
done
assert_contains "$(q "$DB" "SELECT message FROM event WHERE kind = 'iterations' AND message LIKE '%cell default%' ORDER BY id DESC LIMIT 1")" \
	"max_time_s 2 reached" "time budget reason"

# --iterations N makes it a fixed count again.
"$SCHEDRIG" run "$WORK/noisy.yaml" --db "$DB" --iterations 2 --quiet > /dev/null 2>&1 || fail "fixed override"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE variant_id = (SELECT max(id) FROM variant)")" "2" "--iterations override"

# Only complete iterations measure a cell: with its second load timing out
# every time, the primary load's steady values (spread 0: CI 0 %) must not
# stop the cell at min; it runs to max, the failures counted and named.
cat > "$WORK/failing.yaml" <<YAML
name: failing
iterations: {min: 3, max: 5, ci_pct: 5}
loads:
  - {name: steady, tool: fake, params: {spread_pct: 0}}
  - {name: stuck, tool: fake, timeout_s: 0.2, params: {sleep_ms: 5000}}
YAML
rc=0
"$SCHEDRIG" run "$WORK/failing.yaml" --db "$DB" > "$WORK/failing.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "exit status when every iteration fails ($(cat "$WORK/failing.out"))"
assert_eq "$(q "$DB" "SELECT group_concat(i.status) FROM iteration i JOIN variant v ON v.id = i.variant_id
	JOIN run r ON r.id = v.run_id WHERE r.name = 'failing'")" "failed,failed,failed,failed,failed" \
	"an always-failing cell runs to max"
note="variant running cell default: 5 iteration(s), 5 failed, max reached, no complete iteration"
assert_eq "$(q "$DB" "SELECT group_concat(message) FROM event WHERE kind = 'iterations'
	AND run_id = (SELECT id FROM run WHERE name = 'failing')")" "$note" "stop note of a failing cell"
assert_contains "$(cat "$WORK/failing.out")" "$note" "stop note printed"

# run --resume goes on where the run stopped: interrupted in cell 2 (order:
# blocked: cell 1 runs all its iterations first), the resumed run leaves
# cell 1 (stopped at 3 by its CI) alone and takes cell 2 from its complete
# iterations to 3; one stop note per cell. (tests/integration/order.sh
# resumes an interleaved adaptive run.)
cat > "$WORK/resumed.yaml" <<YAML
name: resumed
order: blocked
iterations: {min: 3, max: 10, ci_pct: 5}
loads:
  - tool: fake
    params: {spread_pct: 1, seed: [7, 8], state_file: "$WORK/resumed.state", sleep_ms: 400}
YAML
complete_in() { # CELL_SEQ: complete iterations of that cell of run "resumed"
	q "$DB" "SELECT count(*) FROM iteration i JOIN cell c ON c.id = i.cell_id JOIN run r ON r.id = c.run_id
		WHERE r.name = 'resumed' AND c.seq = $1 AND i.status = 'complete'"
}
# (bash starts background commands with SIGINT ignored: give it back)
env --default-signal=INT "$SCHEDRIG" run "$WORK/resumed.yaml" --db "$DB" > "$WORK/resumed1.out" 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ "$(complete_in 1 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.05
done
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "exit status of the interrupted run ($(cat "$WORK/resumed1.out"))"
assert_eq "$(complete_in 0)" 3 "cell 1 before resume"
before=$(complete_in 1)
[ "$before" -ge 1 ] && [ "$before" -lt 3 ] || fail "cell 2 had $before complete iterations when interrupted"
run=$(q "$DB" "SELECT id FROM run WHERE name = 'resumed'")
cell1=$(q "$DB" "SELECT group_concat(i.id || '@' || i.started_at) FROM iteration i JOIN cell c ON c.id = i.cell_id
	WHERE c.run_id = $run AND c.seq = 0")
"$SCHEDRIG" run --resume "$run" --db "$DB" > "$WORK/resumed2.out" 2>&1 ||
	fail "resume: $(cat "$WORK/resumed2.out")"
assert_eq "$(complete_in 0)" 3 "cell 1 after resume (it had stopped)"
assert_eq "$(q "$DB" "SELECT group_concat(i.id || '@' || i.started_at) FROM iteration i JOIN cell c ON c.id = i.cell_id
	WHERE c.run_id = $run AND c.seq = 0")" "$cell1" "cell 1's iterations untouched"
assert_eq "$(complete_in 1)" 3 "cell 2 after resume (min 3, CI narrow)"
assert_eq "$(grep -c 'iteration [0-9]*/10:' "$WORK/resumed2.out")" $((3 - before)) \
	"iterations the resume ran"
notes=$(q "$DB" "SELECT message FROM event WHERE run_id = $run AND kind = 'iterations' ORDER BY id")
assert_eq "$(echo "$notes" | wc -l)" 2 "stop notes ($notes)"
assert_contains "$(echo "$notes" | sed -n 1p)" "variant running cell fake.seed=7: 3 iteration(s), CI" "cell 1 note"
assert_contains "$(echo "$notes" | sed -n 2p)" "variant running cell fake.seed=8: 3 iteration(s), CI" "cell 2 note"
