#!/bin/bash
# schedrig track end to end with the fake load: 24 runs of one config with
# --revision r01..r24, the load's mean 100 for r01..r12 and 108 from r13
# (spread 1 %, 3 iterations each): exactly one change point, r12 -> r13,
# a regression (value is lower-is-better), whose means before and after
# are the Amean of the runs' Ameans computed here in python from
# schedrig export's samples, with p = 1/200 (199 permutations, none as
# large: the step is 8 times the spread); a flat history of 24 runs at 100
# has none; a step down (16 runs, 100 then 92 from r09) is an improvement. The revisions are stored per
# run (kernel_revision, schedrig show); a revision run twice is one
# revision whose runs are consecutive. JSON is the same twice with one
# seed. --plot draws that history with the change point at x 7.5.
# Refusals: --revision with --resume, a bad label, options of --follow
# without it, a bad --alpha. About 5 s here.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
DB=$WORK/t.db

# run_at NAME MEAN REVISION: one run of config NAME whose fake mean is MEAN.
run_at() {
	cat >"$WORK/$1.yaml" <<EOF
name: $1
iterations: 3
loads:
  - {tool: fake, params: {mean: $2, spread_pct: 1, seed: 5, state_file: "$WORK/$1.state"}}
EOF
	# Another schedrig changing knobs on this machine (a machine-wide lock)
	# refuses the run before anything is recorded: wait and run it again.
	local try
	for try in $(seq 30); do
		"$SCHEDRIG" run "$WORK/$1.yaml" --db "$DB" --revision "$3" --quiet \
			>"$WORK/run.out" 2>&1 && return 0
		grep -q "is changing kernel knobs on this machine" "$WORK/run.out" || break
		sleep 2
	done
	fail "run of $1 at $3: $(cat "$WORK/run.out")"
}
for i in $(seq -w 1 24); do
	run_at step "$([ "$i" -lt 13 ] && echo 100 || echo 108)" "r$i"
	run_at flat 100 "r$i"
	[ "$i" -gt 16 ] || run_at faster "$([ "$i" -lt 9 ] && echo 100 || echo 92)" "r$i"
done
# This machine is shared: another schedrig may set THP or the CPU latency
# limit while these 72 runs go on, and then their fingerprints differ and
# each history is rightly split (tested below). Such fields are made equal
# to the first run's here, said, so what follows tests the detector.
same_host_state() {
	local moved
	moved=$(q "$DB" "SELECT group_concat(field, ' ') FROM (SELECT field FROM host_state WHERE
		stable = 1 AND variant_id IS NOT NULL GROUP BY field HAVING COUNT(DISTINCT value) > 1)")
	[ -n "$moved" ] || return 0
	echo "note: the machine's state changed during the runs ($moved): made equal" >&2
	q "$DB" "UPDATE host_state SET value = (SELECT h.value FROM host_state h WHERE
		h.field = host_state.field AND h.variant_id IS NOT NULL ORDER BY h.run_id LIMIT 1)
		WHERE stable = 1 AND variant_id IS NOT NULL"
}
same_host_state
assert_eq "$(q "$DB" "SELECT group_concat(revision, ' ') FROM (SELECT k.revision FROM
	kernel_revision k JOIN run r ON r.id = k.run_id WHERE r.name = 'step' AND k.kind = 'label'
	ORDER BY r.id)")" "$(seq -f 'r%02g' 1 24 | tr '\n' ' ' | sed 's/ $//')" "the stored revisions"
assert_contains "$("$SCHEDRIG" show 1 --db "$DB")" "revision label r01" "show names the revision"

# (the load's own metric: the measured window's schedstat deltas are
# histories of their own)
out=$("$SCHEDRIG" track --config step --metric fake:value --db "$DB") || fail "track: $out"
"$SCHEDRIG" track --config step --metric fake:value --db "$DB" --format json >"$WORK/step.json" ||
	fail "track --format json"
"$SCHEDRIG" export --db "$DB" --format csv $(q "$DB" "SELECT id FROM run WHERE name = 'step'") \
	>"$WORK/step.csv" || fail "export"
python3 - "$WORK/step.json" "$WORK/step.csv" <<'PY' || fail "the change point of step"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
assert len(doc["histories"]) == 1, doc["histories"]
h = doc["histories"][0]
assert [p["revision"] for p in h["points"]] == ["r%02d" % i for i in range(1, 25)]
cps = h["change_points"]
assert len(cps) == 1, cps
c = cps[0]
assert (c["before"], c["after"], c["index"]) == ("r12", "r13", 12), c
assert c["regression"] is True, c
assert abs(c["p"] - 1 / 200) < 1e-12, c
# Each run's Amean from the exported samples, then the Amean of those.
runs = {}
for r in (r for r in csv.DictReader(open(sys.argv[2])) if r["metric"] == "value"):
    runs.setdefault(r["run"], []).append(float(r["value"]))
means = [sum(v) / len(v) for _, v in sorted(runs.items(), key=lambda kv: int(kv[0].split("#")[1]))]
assert len(means) == 24
before, after = sum(means[:12]) / 12, sum(means[12:]) / 12
assert abs(c["mean_before"] - before) < 1e-9 and abs(c["mean_after"] - after) < 1e-9, (c, before, after)
assert abs(c["change_pct"] - (after - before) / before * 100) < 1e-9
assert 99 < before < 101 and 107 < after < 109
d = doc["detector"]
assert (d["alpha"], d["permutations"], d["seed"], d["min_change_pct"]) == (0.01, 199, 1, 0.5), d
PY
assert_contains "$out" "step variant running, cell default, fake value (units, lower is better), op 0: 24 run(s) of 24 revision(s), r01 .. r24, run order" \
	"the history's title"
assert_contains "$out" "  r12              r13 " "the table's change point"
assert_contains "$out" "    0.005  yes" "its p and regression"
assert_contains "$out" "permutation test with 199 permutations (seed 1), alpha 0.01" "the rule"

out=$("$SCHEDRIG" track --config flat --metric fake:value --db "$DB") || fail "track flat: $out"
assert_contains "$out" "no change point: the likeliest, between" "a flat history"
case "$out" in *"regression"*) fail "a flat history has a table: $out" ;; esac
out=$("$SCHEDRIG" track --config faster --metric fake:value --db "$DB") || fail "track faster: $out"
assert_contains "$out" "  r08              r09 " "the step down"
assert_contains "$out" "-8." "a change of about -8 %"
assert_contains "$out" "  no" "a step down of a lower-is-better metric is no regression"

# All configs at once: three histories, in order of their first run.
out=$("$SCHEDRIG" track --metric fake:value --db "$DB")
assert_eq "$(grep -c ' run(s) of ' <<<"$out")" 3 "three histories"
# The same seed, the same answer; --metric selects.
"$SCHEDRIG" track --config step --metric fake:value --db "$DB" --format json >"$WORK/again.json"
cmp -s "$WORK/step.json" "$WORK/again.json" || fail "the same seed gave another answer"
out=$("$SCHEDRIG" track --config step --metric fake:nosuch --db "$DB" 2>&1) && fail "no history"
assert_contains "$out" "no history of config step" "a metric no run has"

# A revision run twice is one revision, its runs together.
run_at step 108 r13
same_host_state
out=$("$SCHEDRIG" track --config step --metric fake:value --db "$DB")
assert_contains "$out" "25 run(s) of 24 revision(s)" "r13 twice"
"$SCHEDRIG" track --config step --metric fake:value --db "$DB" --format json |
	python3 -c "import json,sys; h=json.load(sys.stdin)['histories'][0]
r=[p['revision'] for p in h['points']]; assert r[12:14] == ['r13', 'r13'], r
assert h['change_points'][0]['after'] == 'r13' and h['change_points'][0]['index'] == 12" ||
	fail "r13's runs are consecutive and the change begins at its first"

# Host fingerprints (host_state, store_host_digest): every run of flat
# has one; a stable field of the variants of r13..r24 made to differ splits
# the history in two, said, and no change point is sought across them.
[ "$(q "$DB" "SELECT COUNT(DISTINCT h.run_id) FROM host_state h JOIN run r ON r.id = h.run_id
	WHERE r.name = 'flat' AND h.variant_id IS NOT NULL")" = 24 ] || fail "flat's fingerprints"
field=$(q "$DB" "SELECT MIN(field) FROM host_state WHERE stable = 1 AND variant_id IS NOT NULL")
q "$DB" "UPDATE host_state SET value = value || '-other' WHERE stable = 1 AND field = '$field' AND variant_id IN
	(SELECT v.id FROM variant v JOIN run r ON r.id = v.run_id JOIN kernel_revision k ON
	k.run_id = r.id WHERE r.name = 'flat' AND k.revision > 'r12')"
out=$("$SCHEDRIG" track --config flat --metric fake:value --db "$DB") || fail "track of a split history: $out"
assert_contains "$out" "its runs have 2 host fingerprints (they differ in $field)," "the split said, with the field"
assert_contains "$out" "(part 1 of 2)" "part 1"
assert_contains "$out" "(part 2 of 2)" "part 2"
assert_eq "$(grep -c '12 run(s) of 12 revision(s)' <<<"$out")" 2 "12 runs each"

# --plot: the figure, the change point's dashed line between runs 12 and 13.
"$SCHEDRIG" track --config faster --metric fake:value --db "$DB" --plot "$WORK/fig/" >/dev/null 2>"$WORK/plot.err" ||
	fail "track --plot: $(cat "$WORK/plot.err")"
gp=$(ls "$WORK"/fig/*-history.gp)
[ -s "${gp%.gp}.png" ] && [ -s "${gp%.gp}.svg" ] || fail "no PNG or SVG"
assert_contains "$(cat "$gp")" "set arrow from 7.5, graph 0 to 7.5, graph 1" "the change point"
assert_contains "$(cat "$WORK/plot.err")" "wrote $WORK/fig/" "what --plot wrote"
grep -q "//" "$WORK/plot.err" "$gp" && fail "--plot DIR/ made paths with //: $(grep -h "//" "$WORK/plot.err" "$gp")"

# Refusals.
rc=0; out=$("$SCHEDRIG" run --resume 1 --revision x --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "--revision with --resume"
assert_contains "$out" "--revision does not go with --resume" "its message"
rc=0; out=$("$SCHEDRIG" run "$WORK/step.yaml" --revision "$(printf 'a\tb')" --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "a label with a tab"
runs_before=$(q "$DB" "SELECT count(*) FROM run")
rc=0; out=$("$SCHEDRIG" run "$WORK/step.yaml" --revision "$(printf 'a\xffb')" --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "a label that is not UTF-8"
assert_contains "$out" "bytes of UTF-8 without control characters" "its message"
rc=0; out=$("$SCHEDRIG" run "$WORK/step.yaml" --revision r1 --revision r2 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "--revision twice"
assert_contains "$out" "--revision is given twice ('r1', 'r2')" "its message"
assert_eq "$(q "$DB" "SELECT count(*) FROM run")" "$runs_before" "refused runs record nothing"
rc=0; out=$("$SCHEDRIG" track --branch master --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "--branch without --follow"
rc=0; out=$("$SCHEDRIG" track --alpha 1.5 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "--alpha 1.5"
assert_contains "$out" "--alpha must be a number between 0 and 1" "its message"
rc=0; out=$("$SCHEDRIG" track --alpha 0.001 --db "$DB" 2>&1) || rc=$?
assert_eq "$rc" 2 "--alpha below 1/(permutations+1)"
assert_contains "$out" "--alpha 0.001 cannot be reached with 199 permutation(s): the smallest p-value is 1/(199+1) = 0.005" "its message"
"$SCHEDRIG" track --alpha 0.001 --permutations 999 --config flat --db "$DB" >/dev/null ||
	fail "--alpha 0.001 with --permutations 999"
rc=0; out=$("$SCHEDRIG" track --db "$WORK/none.db" 2>&1) || rc=$?
assert_eq "$rc" 1 "a missing database"
[ ! -e "$WORK/none.db" ] || fail "track made a database"
