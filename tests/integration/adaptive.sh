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

run_cfg slow 50 "{min: 2, max: 30, ci_pct: 0.01, max_time_s: 1}" 300
n=$(iterations_of slow)
[ "$n" -ge 3 ] && [ "$n" -le 6 ] || fail "time budget: $n iterations of 300 ms in 1 s"
assert_contains "$(q "$DB" "SELECT message FROM event WHERE kind = 'iterations' AND message LIKE '%cell default%' ORDER BY id DESC LIMIT 1")" \
	"max_time_s 1 reached" "time budget reason"

# --iterations N makes it a fixed count again.
"$SCHEDRIG" run "$WORK/noisy.yaml" --db "$DB" --iterations 2 --quiet > /dev/null 2>&1 || fail "fixed override"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE variant_id = (SELECT max(id) FROM variant)")" "2" "--iterations override"
