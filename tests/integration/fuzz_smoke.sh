#!/bin/bash
# The libFuzzer targets (tests/fuzz/fuzz_*.c, clang -fsanitize=fuzzer,
# address,undefined): build them (make fuzz-build), replay every kept crash
# input of tests/fuzz/regressions/, then fuzz each for 20 s from its seeds
# (tests/fuzz/run-fuzz). Any crash, leak, UB or broken property fails.
source "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
secs=${FUZZ_SMOKE_SECONDS:-20}
command -v "${FUZZ_CC:-clang}" >/dev/null ||
	fail "clang missing: the fuzz targets need clang with libFuzzer (scripts/install-deps installs it)"
make -C "$TOP" -j2 fuzz-build >"$WORK/build.log" 2>&1 ||
	fail "make fuzz-build failed: $(tail -20 "$WORK/build.log")"
targets=$(cd "$TOP/tests/fuzz" && ls fuzz_*.c | sed 's/\.c$//')
[ -n "$targets" ] || fail "no tests/fuzz/fuzz_*.c"
rc=0
"$TOP/tests/fuzz/run-fuzz" "$secs" >"$WORK/fuzz.log" 2>&1 || rc=$?
cat "$WORK/fuzz.log"
assert_eq "$rc" 0 "tests/fuzz/run-fuzz $secs"
for t in $targets; do
	assert_contains "$(cat "$WORK/fuzz.log")" "== $t: fuzzing for ${secs}s" "$t ran"
	n=$(ls "$TOP/tests/fuzz/regressions/$t" 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ]; then
		assert_contains "$(cat "$WORK/fuzz.log")" "== $t: replaying $n regression input(s)" \
			"$t replayed its regression inputs"
	fi
done
# Each target did real work.
runs=$(grep -ac '^stat::number_of_executed_units: [1-9]' "$WORK/fuzz.log" || true)
assert_eq "$runs" "$(echo "$targets" | wc -w)" "fuzz targets that executed inputs"
