# How much the rig perturbs what it measures (issue 8), run by
# bench/run-bench: hackbench's "Time:" and cyclictest's max latency, each
# bare (the exact argv of the rig's plan, exec'd directly) and under
# `schedrig run` with the same parameters, ROUNDS (30) pairs of each in
# ABBA order (ratio_ci order: bare first in odd rounds, the rig first in
# even ones). build/bench/ratio_ci prints the median of the per-pair ratios
# rig / bare with the distribution-free 95 % interval of that median and
# the verdict on the target <= 1.01 for hackbench (the line labelled
# perturbation). cyclictest's max latency is a tail statistic, so its
# ratio is printed for reference (no target).
# LOOPS: hackbench's loops (4000). BENCH_QUICK=1: ROUNDS 6, LOOPS 2000,
# cyclictest 1 s.
set -euo pipefail
: "${SCHEDRIG:?}"
RATIO_CI=${BUILD:-$PWD/build}/bench/ratio_ci
ROUNDS=${ROUNDS:-30}
LOOPS=${LOOPS:-4000}
CYC_S=${CYC_S:-3}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ROUNDS=6; LOOPS=2000; CYC_S=1; fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/p.db
q() { sqlite3 -batch -noheader "$DB" "$1"; }

cat > "$WORK/hb.yaml" <<EOF
name: perturbation-hackbench
iterations: 1
loads:
  - name: hb
    tool: hackbench
    params: {groups: 2, loops: $LOOPS, ipc: pipe}
EOF
cat > "$WORK/cyc.yaml" <<EOF
name: perturbation-cyclictest
iterations: 1
loads:
  - name: cyc
    tool: cyclictest
    params: {threads: 1, interval_us: 1000, duration_s: $CYC_S}
EOF
plan_argv() { # CONFIG -> the argv the rig runs, from its plan
	"$SCHEDRIG" run "$1" --db "$DB" --dry-run | sed -n 's/^ *argv: *//p' | head -1
}
read -r -a hb <<< "$(plan_argv "$WORK/hb.yaml")"
read -r -a cyc <<< "$(plan_argv "$WORK/cyc.yaml")"
[ "${#hb[@]}" -gt 0 ] && [ "${#cyc[@]}" -gt 0 ] || { echo "no argv in the plans" >&2; exit 1; }

rig_value() { # CONFIG METRIC -> the sample of the run just made
	"$SCHEDRIG" run "$1" --db "$DB" --quiet > /dev/null 2> "$WORK/err" ||
		{ cat "$WORK/err" >&2; exit 1; }
	q "SELECT max(s.value) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
		WHERE v.run_id = (SELECT max(id) FROM run) AND s.metric = '$2'"
}
bare_hb() { "${hb[@]}" | sed -n 's/^Time: *//p'; }
bare_cyc() { "${cyc[@]}" | sed -n 's/.*Max: *\([0-9]*\).*/\1/p' | sort -n | tail -1; }

pair() { # ROUND BARE_CMD RIG_CMD... -> "BARE RIG", in the round's order
	local first a b
	first=$("$RATIO_CI" order "$1" 2)
	if [ "$first" = "0 1" ]; then a=$($2) b=$($3 "$4" "$5"); else b=$($3 "$4" "$5") a=$($2); fi
	echo "$a $b"
}
hb_pairs=() cyc_pairs=()
echo "perturbation: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
	echo "perturbation round $r/$ROUNDS: hackbench bare and rig, cyclictest bare and rig ($("$RATIO_CI" order "$r" 2 | sed 's/0 1/bare first/; s/1 0/rig first/'))" >&2
	hb_pairs+=("$(pair "$r" bare_hb rig_value "$WORK/hb.yaml" time)")
	cyc_pairs+=("$(pair "$r" bare_cyc rig_value "$WORK/cyc.yaml" max_latency)")
done
echo "perturbation: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
printf '%s\n' "${hb_pairs[@]}" | "$RATIO_CI" verdict "perturbation: hackbench time rig / bare" 1.01
printf '%s\n' "${cyc_pairs[@]}" | "$RATIO_CI" verdict "perturbation: cyclictest max latency rig / bare" -
