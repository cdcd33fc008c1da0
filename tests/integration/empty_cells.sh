#!/bin/bash
# What has no sample is named under the table, not silently left out: a cell
# whose every iteration timed out (fake sleeps 3 s with timeout_s 1) on both
# variants, and a variant that failed before running anything (a qemu
# variant whose kernel is a file but no kernel: preflight cannot tell, the
# guest never starts: it is recorded failed, its kernel unknown). compare
# exits 0 with the table of what did complete and one "No samples:" line
# each, in config order, then where to look.
source "$(dirname "$0")/lib.sh"
# An ELF file that is no kernel passes the preflight (it looks like a
# vmlinux) and the guest never starts.
cp /bin/true "$WORK/not-a-kernel"

cat >"$WORK/empty.yaml" <<EOF2
name: empty-cells
iterations: 2
variants:
  - {name: a}
  - {name: broken, boot: qemu, kernel: $WORK/not-a-kernel}
  - {name: b}
loads:
  - name: fake
    tool: fake
    timeout_s: 1
    params: {state_file: $WORK/state, sleep_ms: [0, 3000]}
EOF2
rc=0
"$SCHEDRIG" run "$WORK/empty.yaml" --db "$WORK/e.db" --quiet >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" 1 "exit status of a run with failures ($(cat "$WORK/out"))"
assert_contains "$("$SCHEDRIG" show --db "$WORK/e.db" 1)" \
	"broken               boot qemu     kernel -                        failed" \
	"the broken variant in show"
out=$("$SCHEDRIG" compare --db "$WORK/e.db" latest) || fail "compare failed: $out"
assert_contains "$out" "cell fake.sleep_ms=0, run empty-cells" "table of the complete cell"
assert_eq "$(grep -c 'cell fake.sleep_ms=3000, run' <<<"$out")" 0 "tables of the empty cell"
assert_eq "$(grep '^No samples:' <<<"$out")" "No samples: cell fake.sleep_ms=3000 on variant a: none of 2 iteration(s) complete
No samples: variant broken (failed): no complete iteration
No samples: cell fake.sleep_ms=3000 on variant b: none of 2 iteration(s) complete
No samples: the failures are in schedrig show 1" "notes of what has no sample"
echo ok
