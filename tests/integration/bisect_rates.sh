#!/bin/bash
# The error rates bench/bisect_sim.c measures (docs/bisect.md), kept as a
# property: 1000 bisections per scenario through the rig's own decision
# procedure over synthetic series (built by make check beside the unit
# tests). In every scenario the rig names a wrong patch in at most the
# stated alpha (5 %) of them — null, steps of 1, 2 and 3 sigma, a gradual
# drift, a drifting machine with and without a step, two steps — and it
# finds at least 95 % of 3-sigma steps; main's rule (transcribed in the
# simulator) misses both, which is what the comparison is for.
source "$(dirname "$0")/lib.sh"
SIM=$BUILD/bench/bisect_sim
[ -x "$SIM" ] || fail "$SIM is not built (make check builds it)"
out=$("$SIM" 1000 1) || fail "bisect_sim exited $?: $out"
field() { # SCENARIO RULE FIELD
	awk -v s="$1" -v r="$2" -v f="$3" '$1 == s && $2 == r {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' <<<"$out"
}
for s in null step-1s step-2s step-3s gradual machine-null machine-3s two-steps; do
	w=$(field "$s" rig wrong)
	[ -n "$w" ] || fail "no line for scenario $s: $out"
	awk -v w="$w" 'BEGIN { exit !(w <= 5) }' || fail "$s: the rig named a wrong patch in $w % (> alpha 5 %)"
done
c=$(field step-3s rig correct)
awk -v c="$c" 'BEGIN { exit !(c >= 95) }' || fail "step-3s: the rig found $c % of 3-sigma steps (< 95 %)"
# The comparison is real: main's rule blames a patch for a gradual drift.
g=$(field gradual main wrong)
awk -v g="$g" 'BEGIN { exit !(g > 50) }' || fail "main's rule named a wrong patch for only $g % of drifts"
