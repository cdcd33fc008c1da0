# Bisection simulator (issue 26), run by bench/run-bench: build/bench/bisect_sim
# (bench/bisect_sim.c) runs BISECTIONS (1000) bisections per scenario in
# process through the rig's own decision procedure (bisect_engine.h) over
# synthetic series of 17 points (sigma 1 % of the mean, iterations 3..10,
# alpha 0.05), with each --rule (welch, mann-whitney, range), and the same series through main's rule before issue 26
# (transcribed in bisect_sim.c) for comparison. Targets: the wrong-patch
# rate at most the stated alpha (5 %) in every scenario, a 3-sigma step
# found >= 95 %, and the runs of a clean 3-sigma step within 1.5 times
# main's rule's.
set -euo pipefail
BUILD=${BUILD:-$PWD/build}
BISECTIONS=${BISECTIONS:-1000}
[ -x "$BUILD/bench/bisect_sim" ] || make -s "$BUILD/bench/bisect_sim" >&2
out=$("$BUILD/bench/bisect_sim" "$BISECTIONS" 1)
echo "$out" >&2
field() { # SCENARIO RULE FIELD
	awk -v s="$1" -v r="$2" -v f="$3" '$1 == s && $2 == r {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' <<<"$out"
}
verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
	ok = op == "<=" ? v <= t : v >= t; print ok ? "ok" : "missed" }'; }
for rule in welch mann-whitney range; do
	for s in null step-1s step-2s step-3s gradual machine-null machine-3s two-steps; do
		w=$(field "$s" "$rule" wrong)
		printf 'bisect %s --rule %s: wrong patch %% (%s bisections; main: %s)\t%s\t<= 5\t%s\n' \
			"$s" "$rule" "$BISECTIONS" "$(field "$s" main wrong)" "$w" "$(verdict "$w" "<=" 5)"
		printf 'bisect %s --rule %s: no answer %% (main: %s)\t%s\t-\tn/a\n' "$s" "$rule" \
			"$(field "$s" main none)" "$(field "$s" "$rule" none)"
		printf 'bisect %s --rule %s: runs per bisection (main: %s)\t%s\t-\tn/a\n' "$s" "$rule" \
			"$(field "$s" main runs)" "$(field "$s" "$rule" runs)"
	done
done
c=$(field step-3s welch correct)
printf 'bisect step-3s: correct patch %% (main: %s)\t%s\t>= 95\t%s\n' "$(field step-3s main correct)" \
	"$c" "$(verdict "$c" ">=" 95)"
r=$(awk -v a="$(field step-3s welch runs)" -v b="$(field step-3s main runs)" 'BEGIN { printf "%.2f", a / b }')
printf 'bisect step-3s: runs, rig (welch) / main rule\t%s\t<= 1.5\t%s\n' "$r" "$(verdict "$r" "<=" 1.5)"
