#!/bin/bash
# Regenerate the golden files of this directory with mmtests' own
# compare-mmtests.pl (see README.md). Needs two checkouts of
# https://github.com/gormanm/mmtests: CLASSIC at commit
# 096661fda3d6d2885b8e43d600d6a7f4ab4e9476 (2025-11-24, the last before the
# shellpack conversion) and NEWER at 638401e07e70d67fa5a1e6295e1315ae0af831b2
# (2026-06-25); R (Debian r-base-core) for qnorm, and the Perl modules
# File::Which, File::Slurp, YAML::PP (Debian libfile-which-perl,
# libfile-slurp-perl, libyaml-pp-perl).
#   usage: tests/data/mmtests/regen.sh CLASSIC_DIR NEWER_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
classic=$(cd "$1" && pwd)
newer=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# golden NAME CSV BENCHMARK FLAVOUR MMTESTS_DIR
golden() {
	local names
	names=$(python3 "$here/mklogs.py" "$here/$2" "$3" "$4" "$work/$1")
	(cd "$5" && perl bin/compare-mmtests.pl -d "$work/$1" -b "$3" -n "$names") >"$here/$1.txt"
}
golden hackbench.classic hackbench.csv hackbench classic "$classic"
golden hackbench.newer hackbench.csv hackbench newer "$newer"
golden netperf.classic netperf.csv netperf-tcp-rr classic "$classic"
golden netperf.newer netperf.csv netperf-tcp-rr newer "$newer"
