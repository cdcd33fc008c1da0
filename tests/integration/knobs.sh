#!/bin/bash
# Variant knobs on the running kernel (root needed): autogroup off reads back
# during the run and is restored after it; a sched_feature the kernel refuses
# (EPERM: debugfs is locked down here) is found by preflight and refuses the
# whole run (exit 2) before any variant runs, naming the variant and the
# file, changing nothing and recording nothing; SIGINT restores; kill -9
# leaves the journal for `schedrig restore`, which puts the value back and is
# idempotent. Also: a schema v1 database (tests/fixtures/schema-v1.sql)
# migrates and gets the journal.
source "$(dirname "$0")/lib.sh"

AG=/proc/sys/kernel/sched_autogroup_enabled
if [ "$(id -u)" -ne 0 ] || [ ! -w "$AG" ]; then
	skip "needs root and a writable $AG"
fi
orig=$(cat "$AG")
want=$((1 - orig))
on_off=$([ "$want" -eq 1 ] && echo on || echo off)
# Whatever happens, the host gets its value back.
trap 'echo "$orig" >"$AG"; rm -rf "$WORK"' EXIT

DB=$WORK/r.db
debugfs_mounted() {
	awk '$2 == "/sys/kernel/debug" && $3 == "debugfs" { m = 1 } END { print m ? "yes" : "no" }' /proc/self/mounts
}
debugfs_before=$(debugfs_mounted)
cat >"$WORK/k.yaml" <<EOF
name: knobs
iterations: 1
variants:
  - name: tuned
    autogroup: $on_off
  - name: features
    sched_features: [NO_PLACE_LAG]
  - name: plain
loads:
  - tool: wakeup-lat
    params: {runtime_s: 1}
EOF

# 1. The locked feature refuses the run before tuned (first) changes anything.
rc=0
"$SCHEDRIG" run "$WORK/k.yaml" --db "$DB" --quiet >"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
assert_eq "$rc" 2 "exit status with a knob the kernel refuses ($(cat "$WORK/run.err"))"
assert_contains "$(cat "$WORK/run.err")" \
	"$WORK/k.yaml: variant features: knob: /sys/kernel/debug/sched/features: Operation not permitted (the kernel is locked down?)" \
	"EPERM message"
assert_contains "$(cat "$WORK/run.err")" "nothing was run" "refusal"
[ ! -e "$DB" ] || fail "a refused run created $DB"
assert_eq "$(cat "$AG")" "$orig" "autogroup after the refusal"
assert_eq "$(debugfs_mounted)" "$debugfs_before" "debugfs mounted after the refusal (preflight unmounts what it mounted)"

# tuned applies and restores, plain runs.
sed '/- name: features/,+1d' "$WORK/k.yaml" >"$WORK/k2.yaml"
rc=0
"$SCHEDRIG" run "$WORK/k2.yaml" --db "$DB" --quiet >"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
assert_eq "$rc" 0 "exit status ($(cat "$WORK/run.err"))"
assert_eq "$(cat "$AG")" "$orig" "autogroup after the run"
assert_eq "$(q "$DB" "SELECT path || ' ' || old_value || ' ' || requested_value || ' ' || applied_value FROM knob WHERE variant = 'tuned'")" \
	"$AG $orig $want $want" "journalled change of tuned (applied = read back during the run)"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" 0 "unrestored rows"
assert_eq "$(q "$DB" "SELECT name || ' ' || status FROM variant ORDER BY seq" | paste -sd, -)" \
	"tuned complete,plain complete" "variant statuses"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id WHERE v.name = 'plain' AND i.status = 'complete'")" \
	1 "plain's iteration"
assert_eq "$(debugfs_mounted)" "$debugfs_before" "debugfs mounted after the run (only what the rig mounted is unmounted)"
show=$("$SCHEDRIG" show --db "$DB" latest)
assert_contains "$show" "[tuned] sysctl kernel.sched_autogroup_enabled: $orig -> $want (requested $want), restored 20" \
	"schedrig show knobs"
assert_eq "$("$SCHEDRIG" restore --db "$DB")" "nothing to restore: every journalled knob is restored" \
	"restore with nothing to do"

# A long-running variant for the interrupt tests.
cat >"$WORK/long.yaml" <<EOF
name: knobs-long
iterations: 1
variants:
  - name: tuned
    sysctl: {kernel.sched_autogroup_enabled: $want}
loads:
  - tool: wakeup-lat
    params: {runtime_s: 30}
EOF

# wait_value VALUE: until autogroup reads VALUE (10 s at most).
wait_value() {
	for _ in $(seq 100); do
		[ "$(cat "$AG")" = "$1" ] && return 0
		sleep 0.1
	done
	fail "autogroup never read $1"
}

# 2. SIGINT while the knob is changed: the run stops and restores.
"$SCHEDRIG" run "$WORK/long.yaml" --db "$DB" --quiet >"$WORK/int.out" 2>"$WORK/int.err" &
pid=$!
wait_value "$want"
sleep 1
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 130 "exit status after SIGINT ($(cat "$WORK/int.err"))"
assert_eq "$(cat "$AG")" "$orig" "autogroup after SIGINT"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" 0 "unrestored rows after SIGINT"
assert_eq "$(q "$DB" "SELECT applied_value FROM knob WHERE run_id = (SELECT max(id) FROM run)")" \
	"$want" "applied value of the interrupted run"

# 3. kill -9 while the knob is changed: the value stays; restore puts it back.
"$SCHEDRIG" run "$WORK/long.yaml" --db "$DB" --quiet >"$WORK/kill.out" 2>"$WORK/kill.err" &
pid=$!
wait_value "$want"
sleep 1
kids=$(pgrep -P "$pid" || true)
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null || true
[ -z "$kids" ] || kill -9 $kids 2>/dev/null || true
assert_eq "$(cat "$AG")" "$want" "autogroup after kill -9 (nobody restored it)"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" 1 "unrestored rows after kill -9"
out=$("$SCHEDRIG" restore --db "$DB") || fail "schedrig restore failed: $out"
assert_contains "$out" "restored $AG = $orig (was set to $want)" "restore output"
assert_eq "$(cat "$AG")" "$orig" "autogroup after schedrig restore"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" 0 "unrestored rows after restore"
out=$("$SCHEDRIG" restore --db "$DB") || fail "second schedrig restore failed: $out"
assert_eq "$out" "nothing to restore: every journalled knob is restored" "restore is idempotent"

# 4. A journal row that cannot be restored: exit 1, and it stays unrestored.
q "$DB" "INSERT INTO knob (run_id, variant, seq, kind, name, path, old_value, requested_value, host, boot_id, changed_at) VALUES (1, 'tuned', 9, 'sysctl', 'kernel.no_such_knob', '/proc/sys/kernel/no_such_knob', '1', '0', '$(uname -n)', '$(cat /proc/sys/kernel/random/boot_id)', '2000-01-01T00:00:00Z')"
rc=0
"$SCHEDRIG" restore --db "$DB" >"$WORK/bad.out" 2>"$WORK/bad.err" || rc=$?
assert_eq "$rc" 1 "restore exit status with a failing row"
assert_contains "$(cat "$WORK/bad.err")" "/proc/sys/kernel/no_such_knob: cannot write '1': No such file or directory" \
	"restore failure message"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" 1 "failed row stays unrestored"

# 5. A schema v1 database migrates to the current version and journals knobs.
V1=$WORK/v1.db
sqlite3 "$V1" <"$TESTS_DIR/fixtures/schema-v1.sql"
q "$V1" "PRAGMA user_version = 1; INSERT INTO run (name, status, started_at) VALUES ('old', 'complete', '2024-01-01T00:00:00Z')"
rc=0
"$SCHEDRIG" run "$WORK/k2.yaml" --db "$V1" --quiet >"$WORK/v1.out" 2>"$WORK/v1.err" || rc=$?
assert_eq "$rc" 0 "exit status on the migrated database ($(cat "$WORK/v1.err"))"
assert_eq "$(q "$V1" "PRAGMA user_version")" "$(q "$DB" "PRAGMA user_version")" \
	"schema version after migration (that of a new database)"
assert_eq "$(q "$V1" "SELECT name FROM run ORDER BY id" | paste -sd, -)" "old,knobs" "runs kept"
assert_eq "$(q "$V1" "SELECT applied_value || ' ' || (restored_at IS NOT NULL) FROM knob")" "$want 1" \
	"knob journal in the migrated database"
assert_eq "$(cat "$AG")" "$orig" "autogroup at the end"
echo ok
