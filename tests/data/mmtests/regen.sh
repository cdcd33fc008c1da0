#!/bin/bash
# Regenerate the golden files of this directory with mmtests' own
# compare-mmtests.pl (see README.md). Needs two copies of
# https://github.com/gormanm/mmtests: CLASSIC at commit
# 096661fda3d6d2885b8e43d600d6a7f4ab4e9476 (2025-11-24, the last before the
# shellpack conversion) and NEWER at 638401e07e70d67fa5a1e6295e1315ae0af831b2
# (2026-06-25); R (Debian r-base-core) for qnorm, and the Perl modules
# File::Which, File::Slurp, YAML::PP (Debian libfile-which-perl,
# libfile-slurp-perl, libyaml-pp-perl).
#   usage: tests/data/mmtests/regen.sh CLASSIC_DIR NEWER_DIR
# A golden file whose run of compare-mmtests.pl fails is not written: the
# 2025 script dies where a column has no interval for an op of the
# baseline (n = 1, a missing op), so those sets have newer files only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
classic=$(cd "$1" && pwd)
newer=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# golden NAME CSV BENCHMARK FLAVOUR MMTESTS_DIR [OPTION...]
golden() {
	local name=$1 csv=$2 bench=$3 flavour=$4 dir=$5 names
	shift 5
	names=$(python3 "$here/mklogs.py" "$here/$csv" "$bench" "$flavour" "$work/$name")
	(cd "$dir" && perl bin/compare-mmtests.pl -d "$work/$name" -b "$bench" -n "$names" "$@") \
		>"$work/$name.txt"
	mv "$work/$name.txt" "$here/$name.txt"
}

# both NAME CSV BENCHMARK: the classic and newer tables and ratio views
both() {
	golden "$1.classic" "$2" "$3" classic "$classic"
	golden "$1.newer" "$2" "$3" newer "$newer"
	golden "$1.ratio.classic" "$2" "$3" classic "$classic" --print-ratio
	golden "$1.ratio.newer" "$2" "$3" newer "$newer" --print-ratio
}
both hackbench hackbench.csv hackbench
both netperf netperf.csv netperf-tcp-rr
both zero-mean zero-mean.csv hackbench
golden missing-op.newer missing-op.csv netperf-tcp-rr newer "$newer"
golden missing-op.ratio.classic missing-op.csv netperf-tcp-rr classic "$classic" --print-ratio
golden missing-op.ratio.newer missing-op.csv netperf-tcp-rr newer "$newer" --print-ratio
for set in one-sample:hackbench one-sample-hmean:netperf-tcp-rr; do
	golden "${set%:*}.newer" "${set%:*}.csv" "${set#*:}" newer "$newer"
	golden "${set%:*}.ratio.newer" "${set%:*}.csv" "${set#*:}" newer "$newer" --print-ratio
done
golden one-sample-baseline.ratio.newer one-sample-baseline.csv hackbench newer "$newer" --print-ratio
