#!/bin/bash
# Seed 002's config without a kernel (configs/seed-002-latency-nice-grid.yaml):
# check-config and run --dry-run say both kernels will be built cold into an
# empty cache; the plan is the 3 x 3 grid with the rows (hackbench 0, 19,
# -20) and columns (cyclictest 19, 0, -20) in the order the config writes
# them; the vanilla variant runs only the cell (0, 0) (its cells:); a
# cells: naming a value its axis lacks, or no axis, is refused at its
# file:line:col before anything runs. Nothing is built. About 2 s here.
source "$(dirname "$0")/lib.sh"

CONFIG=configs/seed-002-latency-nice-grid.yaml
DB=$WORK/results/schedrig.db
out=$("$SCHEDRIG" check-config "$CONFIG" --db "$DB" 2>&1) || fail "check-config: $out"
assert_contains "$out" "ok (seed-002-latency-nice-grid, 2 variant(s), 9 cell(s)" "check-config"
assert_contains "$out" "note: kernel v6.12 will be built cold" "the base's cold build"
assert_contains "$out" "note: kernel v6.12-latnice will be built cold" "the patched kernel"
[ ! -e "$WORK/results/cache/builds" ] || [ -z "$(ls "$WORK/results/cache/builds")" ] ||
	fail "check-config built something"

plan=$("$SCHEDRIG" run --dry-run "$CONFIG" --db "$DB" 2>&1) || fail "dry-run: $plan"
cells=$(printf '%s\n' "$plan" | sed -n 's/^cell [0-9]*\/9 //p' | tr '\n' ' ')
want=""
for hb in 0 19 -20; do
	for ct in 19 0 -20; do
		want+="hackbench.latency_nice=$hb,cyclictest.latency_nice=$ct "
	done
done
assert_eq "$cells" "$want" "cells in the config's order"
runs=$(printf '%s\n' "$plan" | grep '^  runs cell' || true)
assert_eq "$runs" "  runs cell 2/9 hackbench.latency_nice=0,cyclictest.latency_nice=0 (cells:, 1 of 9)" \
	"the vanilla variant's one cell"
assert_contains "$plan" "cyclictest   measured   sched: policy=other latency_nice=-20" "an instance"

# A value the axis lacks, and a key that is no axis: refused where written.
sed 's/cyclictest.latency_nice: 0}}/cyclictest.latency_nice: 5}}/' "$CONFIG" >"$WORK/bad-value.yaml"
line=$(grep -n 'cyclictest.latency_nice: 5' "$WORK/bad-value.yaml" | cut -d: -f1)
col=$(($(grep 'cyclictest.latency_nice: 5' "$WORK/bad-value.yaml" | awk -F'cyclictest.latency_nice: ' '{print length($1)}') + 26))
set +e
err=$("$SCHEDRIG" check-config "$WORK/bad-value.yaml" --db "$DB" 2>&1)
rc=$?
set -e
assert_eq "$rc" 2 "exit status of a bad value"
assert_contains "$err" "$WORK/bad-value.yaml:$line:$col: variant v6.12: cells: cyclictest.latency_nice: 5 is not one of the axis' values (19, 0, -20)" "bad value"
sed 's/cells: {hackbench.latency_nice: 0/cells: {hackbench.nice: 0/' "$CONFIG" >"$WORK/bad-axis.yaml"
set +e
err=$("$SCHEDRIG" run --dry-run "$WORK/bad-axis.yaml" --db "$DB" 2>&1)
rc=$?
set -e
assert_eq "$rc" 2 "exit status of a bad axis"
assert_contains "$err" ":$line:14: variant v6.12: cells: 'hackbench.nice' is not an axis of the matrix (its axes: hackbench.latency_nice, cyclictest.latency_nice)" "bad axis"
[ ! -e "$DB" ] || fail "a refused config wrote $DB"
echo "seed002_config: ok"
