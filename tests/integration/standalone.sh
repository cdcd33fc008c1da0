#!/bin/bash
# The project stands alone: README, HACKING, docs, configs, sources, scripts and
# tests point at nothing outside it (a design sketch or a seed thread in a
# neighbouring folder users do not have); a thread is cited by its list,
# date and subject instead.
source "$(dirname "$0")/lib.sh"
TOP=$(cd "$TESTS_DIR/.." && pwd)
cd "$TOP"
# /work/ as an absolute path (not a path's own work/ folder, "%s/work/x").
hits=$(grep -rnE '(^|[^%A-Za-z0-9_.}-])/work/|\.\./shared|shared/(DESIGN|SCHED-ABI|seeds|fixtures|lava)|SCHED-ABI\.md|DESIGN\.md' \
	README.md HACKING.md docs Makefile configs harness loads reports scripts bench tests/integration \
	tests/unit tests/slow tests/fuzz tests/run-tests 2>/dev/null | grep -v '^tests/integration/standalone.sh:' || true)
[ -z "$hits" ] || fail "pointers outside the project: $hits"
echo ok
