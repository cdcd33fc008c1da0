#!/bin/bash
# Every load tool a boot: local variant runs must be installed here. run
# checks that once, for all local variants, before it records anything: with
# PATH holding neither hackbench nor cyclictest it says so in one message
# naming each tool and its load, exits 1 and leaves no run behind (nor, on
# --resume, any change to the run). --dry-run prints the plan and exits 1
# with the same message; check-config warns and exits 0 (a config is often
# checked elsewhere than where it runs). Built-in loads (argv[0] schedrig)
# need nothing from PATH. Files a load reads here (kernbench's source,
# dbench's load file) are checked alike.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/bin"
cd "$WORK"

cat >"$WORK/missing.yaml" <<'EOF2'
name: missing-tools
iterations: 3
warmup_s: 0
variants: [{name: one, boot: local}, {name: two, boot: local}]
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
missing="load 'bg': tool 'hackbench' is not installed here (no executable file of that name in PATH); load 'lat': tool 'cyclictest' is not installed here (no executable file of that name in PATH)"
rc=0
PATH="$WORK/bin" "$SCHEDRIG" run "$WORK/missing.yaml" --db "$WORK/m.db" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "exit status ($(cat "$WORK/err"))"
assert_eq "$(cat "$WORK/err")" "schedrig: $WORK/missing.yaml: $missing; nothing was run" \
	"the one message for both local variants"
[ ! -e "$WORK/m.db" ] || fail "a run was recorded: $(q "$WORK/m.db" "SELECT id, status FROM run")"

# --dry-run: the plan, then the same message; exit 1.
rc=0
PATH="$WORK/bin" "$SCHEDRIG" run --dry-run "$WORK/missing.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "--dry-run exit status ($(cat "$WORK/err"))"
assert_contains "$(cat "$WORK/out")" "argv:  cyclictest " "--dry-run still prints the plan"
assert_eq "$(cat "$WORK/err")" "schedrig: $WORK/missing.yaml: $missing; run would refuse to start" \
	"--dry-run message"

# check-config: valid config, a warning, exit 0.
rc=0
PATH="$WORK/bin" "$SCHEDRIG" check-config "$WORK/missing.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 0 "check-config exit status ($(cat "$WORK/err"))"
assert_contains "$(cat "$WORK/out")" "missing.yaml: ok (missing-tools, 2 variant(s)" "check-config verdict"
assert_eq "$(cat "$WORK/err")" "$WORK/missing.yaml: warning: $missing" "check-config warning"

# A qemu variant gets its tools packed from here: missing here, they are
# missing in the guest, which preflight refuses (exit 2), naming the
# variant and each load.
sed 's/^variants: .*/variants: [{name: g, boot: qemu, kernel: \/nonexistent\/bzImage}]/' \
	"$WORK/missing.yaml" >"$WORK/guest.yaml"
rc=0
PATH="$WORK/bin" "$SCHEDRIG" run --dry-run "$WORK/guest.yaml" >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 2 "--dry-run of a qemu variant with an empty PATH ($(cat "$WORK/err"))"
assert_contains "$(cat "$WORK/err")" "guest.yaml: variant g, load bg: tool 'hackbench' is not installed here, so it cannot go into the guest" \
	"hackbench missing in the guest"
assert_contains "$(cat "$WORK/err")" "guest.yaml: variant g, load lat: tool 'cyclictest' is not installed here, so it cannot go into the guest" \
	"cyclictest missing in the guest"

# --resume checks too, before it touches the run: a failed run (its second
# load times out) resumed without its tools stays as it was.
cat >"$WORK/resumable.yaml" <<'EOF2'
name: resumable
iterations: 1
warmup_s: 0
loads:
  - {name: bg, tool: hackbench, role: background, params: {groups: 1, loops: 100}}
  - {name: fk, tool: fake}
  - {name: stuck, tool: fake, timeout_s: 0.2, params: {sleep_ms: 5000}}
EOF2
"$SCHEDRIG" run "$WORK/resumable.yaml" --db "$WORK/r.db" --quiet >/dev/null 2>&1 && fail "the run should fail"
before=$(q "$WORK/r.db" "SELECT status || ' ' || ended_at || ' ' || (SELECT count(*) FROM event) FROM run")
rc=0
PATH="$WORK/bin" "$SCHEDRIG" run --resume 1 --db "$WORK/r.db" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "--resume exit status ($(cat "$WORK/err"))"
assert_eq "$(cat "$WORK/err")" "schedrig: $WORK/resumable.yaml: load 'bg': tool 'hackbench' is not installed here (no executable file of that name in PATH); nothing was run" \
	"--resume message"
assert_eq "$(q "$WORK/r.db" "SELECT status || ' ' || ended_at || ' ' || (SELECT count(*) FROM event) FROM run")" \
	"$before" "the run after a refused --resume"

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

# Files a load reads here are checked the same way: kernbench's kernel
# source and dbench's load file, missing, stop run (exit 1, nothing
# recorded) and --dry-run (exit 1); check-config warns.
cat >"$WORK/files.yaml" <<EOF2
name: missing-files
iterations: 1
loads:
  - {name: kb, tool: kernbench, params: {source: $WORK/no-linux.tar.xz}}
  - {name: db, tool: dbench, params: {loadfile: $WORK/no-client.txt, duration_s: 2}}
EOF2
files="load 'kb': no kernel source here: $WORK/no-linux.tar.xz (apt-get install linux-source-6.12); load 'db': dbench: load file $WORK/no-client.txt is not readable: No such file or directory"
rc=0
"$SCHEDRIG" run "$WORK/files.yaml" --db "$WORK/f.db" >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "missing files: exit status ($(cat "$WORK/err"))"
assert_eq "$(cat "$WORK/err")" "schedrig: $WORK/files.yaml: $files; nothing was run" "missing files: message"
[ ! -e "$WORK/f.db" ] || fail "a run with missing files was recorded"
rc=0
"$SCHEDRIG" run --dry-run "$WORK/files.yaml" >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "missing files: --dry-run exit status ($(cat "$WORK/err"))"
"$SCHEDRIG" check-config "$WORK/files.yaml" >/dev/null 2>"$WORK/err" ||
	fail "missing files: check-config: $(cat "$WORK/err")"
assert_eq "$(cat "$WORK/err")" "$WORK/files.yaml: warning: $files" "missing files: check-config warning"
exit 0
