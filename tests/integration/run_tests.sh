#!/bin/bash
# tests/run-tests itself: a skipped integration script (exit 77, lib.sh
# skip) and a cmocka skip() are counted as skipped, never as passed, and
# each is shown with its reason; the last line is "N passed, N failed,
# N skipped".
source "$(dirname "$0")/lib.sh"
RUN_TESTS=$TESTS_DIR/run-tests

mkdir -p "$WORK/t"
printf '#!/bin/bash\nexit 0\n' >"$WORK/t/good.sh"
printf '#!/bin/bash\nsource "%s/integration/lib.sh"\nskip "needs a frobnicator"\n' \
	"$TESTS_DIR" >"$WORK/t/lacking.sh"
printf '#!/bin/bash\necho broken >&2\nexit 1\n' >"$WORK/t/bad.sh"
rc=0
out=$(TESTS= "$RUN_TESTS" "$WORK/t" 2>&1) || rc=$?
assert_eq "$rc" "1" "run-tests exit status with a failure ($out)"
assert_contains "$out" "[ t ] lacking: skipped: needs a frobnicator" "the skip and its reason"
assert_contains "$out" "skipped: lacking: needs a frobnicator" "the skip listed at the end"
assert_eq "$(tail -1 <<<"$out")" "1 passed, 1 failed, 1 skipped" "last line"
rm "$WORK/t/bad.sh"
out=$(TESTS= "$RUN_TESTS" "$WORK/t" 2>&1) || fail "run-tests without a failure: $out"
assert_eq "$(tail -1 <<<"$out")" "1 passed, 0 failed, 1 skipped" "last line without a failure"

# A cmocka binary with one skipped test (its real output format).
mkdir -p "$WORK/build/tests"
cat >"$WORK/build/tests/test_zzfake" <<'EOF2'
#!/bin/bash
cat <<'OUT'
[==========] Running 3 test(s).
[ RUN      ] test_a
[       OK ] test_a
[ RUN      ] test_b
[  SKIPPED ] test_b
[ RUN      ] test_c
[       OK ] test_c
[==========] 3 test(s) run.
[  PASSED  ] 2 test(s).
[  SKIPPED ] 1 test(s), listed below:
[  SKIPPED ] test_b

 1 SKIPPED TEST(S)
OUT
EOF2
chmod +x "$WORK/build/tests/test_zzfake"
out=$(BUILD=$WORK/build TESTS=zzfake "$RUN_TESTS" 2>&1) || fail "run-tests with a cmocka skip: $out"
assert_contains "$out" "skipped: test_zzfake: test_b" "the cmocka skip listed"
assert_eq "$(tail -1 <<<"$out")" "2 passed, 0 failed, 1 skipped" "cmocka skip counted"
echo ok
