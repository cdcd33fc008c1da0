#!/bin/bash
# boot: local checks that every load tool of the plan is installed before
# anything runs: with PATH holding neither hackbench nor cyclictest the
# variant fails at once with one message naming each tool and its load, no
# iteration is attempted, and the run exits 1. Built-in loads (argv[0]
# schedrig) need nothing from PATH and run.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/bin"
cd "$WORK"

cat >"$WORK/missing.yaml" <<'EOF2'
name: missing-tools
iterations: 3
warmup_s: 0
loads:
  - name: bg
    tool: hackbench
    role: background
    params: {mode: process, ipc: pipe, groups: 1, loops: 100}
  - name: lat
    tool: cyclictest
    params: {threads: 1, interval_us: 1000, duration_s: 1, mlock: false}
  - name: fk
    tool: fake
EOF2
rc=0
PATH="$WORK/bin" "$SCHEDRIG" run "$WORK/missing.yaml" --db "$WORK/m.db" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "exit status ($(cat "$WORK/err"))"
line=$(grep "^schedrig: variant running: " "$WORK/err") || fail "no variant failure: $(cat "$WORK/err")"
assert_eq "$line" "schedrig: variant running: load 'bg': tool 'hackbench' is not installed here (no executable file of that name in PATH); load 'lat': tool 'cyclictest' is not installed here (no executable file of that name in PATH); no iteration ran" "the message"
assert_eq "$(q "$WORK/m.db" "SELECT status FROM variant")" failed "variant status"
assert_eq "$(q "$WORK/m.db" "SELECT count(*) FROM iteration")" 0 "iterations attempted"
assert_eq "$(q "$WORK/m.db" "SELECT count(*) FROM load_instance")" 0 "load instances started"
assert_contains "$(q "$WORK/m.db" "SELECT message FROM event WHERE kind = 'failure'")" \
	"load 'lat': tool 'cyclictest' is not installed here" "the stored failure"

# Only the built-in fake load: the same PATH is enough.
cat >"$WORK/builtin.yaml" <<'EOF2'
name: builtin-only
iterations: 2
loads:
  - {name: fk, tool: fake}
EOF2
PATH="$WORK/bin" "$SCHEDRIG" run "$WORK/builtin.yaml" --db "$WORK/b.db" --quiet >/dev/null 2>"$WORK/err" ||
	fail "built-in load with an empty PATH: $(cat "$WORK/err")"
assert_eq "$(q "$WORK/b.db" "SELECT count(*) FROM iteration WHERE status = 'complete'")" 2 \
	"iterations of the built-in load"
exit 0
