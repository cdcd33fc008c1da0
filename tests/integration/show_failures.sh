#!/bin/bash
# schedrig show tells why a load failed in the tool's own words: the last
# lines of a failed instance's stderr and stdout (a stress-ng stressor that
# does not exist), and nothing of the kind for an instance that succeeded.
source "$(dirname "$0")/lib.sh"
command -v stress-ng >/dev/null || fail "stress-ng is not installed (scripts/install-deps)"

cat >"$WORK/bad.yaml" <<'EOF2'
name: bad-stressor
iterations: 1
loads:
  - name: sn
    tool: stress-ng
    params: {stressor: [cpu, nosuchstressor], duration_s: 1}
EOF2
rc=0
"$SCHEDRIG" run "$WORK/bad.yaml" --db "$WORK/s.db" --quiet >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" 1 "exit status with a failed load ($(cat "$WORK/out"))"
show=$("$SCHEDRIG" show --db "$WORK/s.db" latest)
failed=$(sed -n '/sn.stressor=nosuchstressor iteration 1 (failed)/,/^  \[/p' <<<"$show")
assert_contains "$failed" "      stderr" "stderr of the failed instance"
assert_contains "$failed" "        | " "output lines of the failed instance"
assert_contains "$failed" "nosuchstressor" "stress-ng's own complaint"
assert_contains "$failed" "requested: (nothing: the defaults)" "requested line without attributes"
ok=$(sed -n '/sn.stressor=cpu iteration 1 (complete)/,/^  \[/p' <<<"$show")
[ -n "$ok" ] || fail "no complete cpu instance in: $show"
case "$ok" in *"      stderr"*) fail "output lines shown for an instance that succeeded: $ok" ;; esac
echo ok
