#!/bin/bash
# order: the sequence of a run's (variant, cell, iteration) visits, in the
# database (iteration ids), in show and under the tables: interleaved by
# default (variant a iteration 1, b 1, a 2, b 2, cells inside), blocked on
# request, random from a stored seed; run --resume keeps the order.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

visits() {
	q "$1" "SELECT v.name || c.seq || '#' || i.iteration FROM iteration i
		JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id
		WHERE i.status = 'complete' ORDER BY i.id" | tr '\n' ' '
}

complete() { q "$1" "SELECT count(*) FROM iteration WHERE status = 'complete'" 2>/dev/null || echo 0; }

interrupt_after() { # CONFIG DB N TOTAL: SIGINT once N iterations are complete
	env --default-signal=INT "$SCHEDRIG" run "$1" --db "$2" --quiet >/dev/null 2>&1 &
	local rig=$! i
	for i in $(seq 200); do
		[ "$(complete "$2")" -ge "$3" ] && break
		sleep 0.05
	done
	kill -INT "$rig"
	wait "$rig" || true
	[ "$(complete "$2")" -lt "$4" ] || fail "$1 ended before the interrupt"
}

write_config() { # NAME ORDER-LINES ITERATIONS SLEEP_MS
	cat >"$1.yaml" <<YAML
name: $1
iterations: $3
$2
variants:
  - {name: a, boot: local}
  - {name: b, boot: local}
loads:
  - tool: fake
    params: {mean: [1, 2], sleep_ms: $4}
YAML
}

write_config inter "" 2 0
"$SCHEDRIG" run inter.yaml --db i.db --quiet >/dev/null 2>&1 || fail "interleaved run"
assert_eq "$(visits i.db)" "a0#1 a1#1 b0#1 b1#1 a0#2 a1#2 b0#2 b1#2 " "interleaved order"
# (captured first: grep -q leaving early would make show's write fail under pipefail)
shown=$("$SCHEDRIG" show --db i.db 1) || fail "show of run 1"
grep -q '^  order      interleaved$' <<<"$shown" || fail "show: $(head -12 <<<"$shown")"
"$SCHEDRIG" compare --db i.db | tail -1 | grep -q '^Order: interleaved$' || fail "no order note"

write_config block "order: blocked" 2 0
"$SCHEDRIG" run block.yaml --db b.db --quiet >/dev/null 2>&1 || fail "blocked run"
assert_eq "$(visits b.db)" "a0#1 a0#2 a1#1 a1#2 b0#1 b0#2 b1#1 b1#2 " "blocked order"

# seed 7, 2 variants x 2 cells x 3 iterations: the rounds as
# tests/unit/test_order.c computes them independently
write_config rand "order: random
seed: 7" 3 0
"$SCHEDRIG" run rand.yaml --db r.db --quiet >/dev/null 2>&1 || fail "random run"
assert_eq "$(visits r.db)" "a0#1 a1#1 b0#1 b1#1 a0#2 a1#2 b1#2 b0#2 a1#3 b0#3 a0#3 b1#3 " "random order"
assert_eq "$(q r.db "SELECT message FROM event WHERE kind = 'order'")" "random, seed 7" "stored seed"
# without a seed: one is drawn and stored
write_config rand2 "order: random" 1 0
"$SCHEDRIG" run rand2.yaml --db r2.db --quiet >/dev/null 2>&1 || fail "random run without seed"
q r2.db "SELECT message FROM event WHERE kind = 'order'" | grep -qE '^random, seed [0-9]+$' || fail "drawn seed"

# Interrupted in round 2 and resumed: the rest of the rounds, in order,
# nothing twice.
write_config res "" 3 300
interrupt_after res.yaml s.db 5 12
"$SCHEDRIG" run --resume 1 --db s.db --quiet >/dev/null 2>&1 || fail "resume"
assert_eq "$(complete s.db)" 12 "complete after resume"
assert_eq "$(q s.db "SELECT count(*) FROM event WHERE kind = 'order'")" 1 "one stored order"
# iteration ids of the resumed part keep the round order
resumed=$(q s.db "SELECT v.name || c.seq || '#' || i.iteration FROM iteration i
	JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id
	WHERE i.status = 'complete' ORDER BY i.iteration, v.seq, c.seq" | tr '\n' ' ')
assert_eq "$resumed" "a0#1 a1#1 b0#1 b1#1 a0#2 a1#2 b0#2 b1#2 a0#3 a1#3 b0#3 b1#3 " "all visits"
last=$(q s.db "SELECT v.name || c.seq || '#' || i.iteration FROM iteration i
	JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id ORDER BY i.id DESC LIMIT 1")
assert_eq "$last" "b1#3" "the last visit ran last"

# Adaptive iterations interleave too: every cell stops at min (no spread)
cat >adapt.yaml <<'YAML'
name: adapt
iterations: {min: 2, max: 4, ci_pct: 5}
variants:
  - {name: a}
  - {name: b}
loads:
  - tool: fake
    params: {mean: [1, 2], spread_pct: 0}
YAML
"$SCHEDRIG" run adapt.yaml --db d.db --quiet >/dev/null 2>&1 || fail "adaptive run"
assert_eq "$(visits d.db)" "a0#1 a1#1 b0#1 b1#1 a0#2 a1#2 b0#2 b1#2 " "adaptive interleaved"

# ... and an interrupted one resumes: each cell stops at 3 (its CI), one
# stop note per cell, the visits in rounds
cat >adres.yaml <<YAML
name: adres
iterations: {min: 3, max: 10, ci_pct: 5}
loads:
  - tool: fake
    params: {spread_pct: 1, seed: [7, 8], state_file: "$WORK/adres.state", sleep_ms: 300}
YAML
interrupt_after adres.yaml e.db 3 6
"$SCHEDRIG" run --resume 1 --db e.db --quiet >/dev/null 2>&1 || fail "adaptive resume"
assert_eq "$(visits e.db)" "running0#1 running1#1 running0#2 running1#2 running0#3 running1#3 " "adaptive rounds"
assert_eq "$(q e.db "SELECT count(*) FROM event WHERE kind = 'iterations' AND message LIKE '%3 iteration(s), CI%'")" 2 \
	"one stop note per cell"

# a seed without order: random is a config error
printf 'name: x\nseed: 3\nloads:\n  - tool: fake\n' >bad.yaml
set +e
err=$("$SCHEDRIG" check-config bad.yaml 2>&1)
assert_eq "$?" 2 "seed without random"
set -e
assert_contains "$err" "bad.yaml:2:7: seed: only with order: random" "message"
