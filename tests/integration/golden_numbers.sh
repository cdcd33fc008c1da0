#!/bin/bash
# The golden tables are snapshots written by the code under test (or, in
# tests/data/mmtests/, by mmtests): check every number in them against the
# CSV samples they summarise, recomputed here with Python's statistics
# module. Printed values must be the recomputed ones rounded to their
# decimals (an undefined statistic as mmtests prints it: 0 with 0.00%,
# CoeffVar 0 where its mean or spread is undefined); the full-precision
# CSV summary must agree to 1e-9; stars must be where Welch's test (p from
# the regularised incomplete beta) or mmtests' CI-overlap rule puts them.
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
command -v python3 >/dev/null || fail "python3 is needed"

NUMBERS="python3 $(dirname "$0")/mmtests_numbers.py"
total=0
# check KIND FILE CSV [ARG]: one golden file, its count added to total
check() {
	local n
	n=$($NUMBERS "$1" "$DATA/$2" "$DATA/$3" ${4:+"$4"}) ||
		fail "a golden number of $2 disagrees with python's statistics"
	total=$((total + n))
}
check titled dbench.mmtests.txt dbench.csv
check titled dbench.ci-overlap.txt dbench.csv
check titled netperf.mmtests.txt netperf.csv
check titled units.mmtests.txt units.csv
for name in hackbench netperf zero-mean; do
	check plain "mmtests/$name.classic.txt" "mmtests/$name.csv"
done
for name in hackbench netperf zero-mean missing-op one-sample one-sample-hmean; do
	check plain "mmtests/$name.newer.txt" "mmtests/$name.csv" wide
done
check summary netperf.csv.txt netperf.csv vanilla
echo "checked $total numbers"
[ "$total" -gt 900 ] || fail "only $total numbers checked"
