# How much the rig perturbs what it measures (issue 8), run by
# bench/run-bench: hackbench's "Time:" and cyclictest's max latency, each
# bare (the exact argv of the rig's plan, exec'd directly) and under
# `schedrig run` with the same parameters, alternating bare, rig, bare, rig
# ROUNDS (10) times. Prints the median of the per-round ratios rig / bare,
# target <= 1.01 for hackbench (the line labelled perturbation). cyclictest's
# max latency is a tail statistic, so its ratio is printed for reference.
# BENCH_QUICK=1: ROUNDS 4, cyclictest 1 s.
set -euo pipefail
: "${SCHEDRIG:?}"
ROUNDS=${ROUNDS:-10}
CYC_S=${CYC_S:-3}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ROUNDS=4; CYC_S=1; fi
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
    params: {groups: 2, loops: 2000, ipc: pipe}
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

hb_ratios=() cyc_ratios=()
for ((r = 1; r <= ROUNDS; r++)); do
	echo "perturbation round $r/$ROUNDS: hackbench bare, rig; cyclictest bare, rig" >&2
	a=$(bare_hb) b=$(rig_value "$WORK/hb.yaml" time)
	hb_ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')")
	a=$(bare_cyc) b=$(rig_value "$WORK/cyc.yaml" max_latency)
	cyc_ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (a > 0 ? b / a : 0) }')")
done
echo "hackbench rig/bare per round: ${hb_ratios[*]}" >&2
echo "cyclictest max rig/bare per round: ${cyc_ratios[*]}" >&2
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	printf "%.4f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m=$(median "${hb_ratios[@]}") c=$(median "${cyc_ratios[@]}")
printf 'perturbation: hackbench time rig / bare (median of %d A/B)\t%s\t<= 1.01\t%s\n' "$ROUNDS" "$m" \
	"$(awk -v r="$m" 'BEGIN { print r <= 1.01 ? "ok" : "missed" }')"
printf 'perturbation: cyclictest max latency rig / bare (median of %d)\t%s\t<= 1.01\t%s\n' "$ROUNDS" "$c" \
	"$(awk -v r="$c" 'BEGIN { print r <= 1.01 ? "ok" : "missed" }')"
