#!/bin/bash
# schedrig restore writes only knob files: a results database whose journal
# names another file (anyone who can write the database can edit it) makes
# restore refuse that row, say why, leave the file alone and keep the row
# unrestored. A real journal row is not touched by this.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/f.yaml" <<'EOF'
name: rp
iterations: 1
loads:
  - tool: fake
EOF
DB=$WORK/r.db
"$SCHEDRIG" run "$WORK/f.yaml" --db "$DB" --quiet >"$WORK/out" 2>&1 || fail "run: $(cat "$WORK/out")"
printf 'precious\n' >"$WORK/victim"
ln -s "$WORK/victim" "$WORK/link"
boot=$(cat /proc/sys/kernel/random/boot_id)
host=$(uname -n)
for p in "$WORK/victim" "$WORK/link"; do
	q "$DB" "INSERT INTO knob (run_id, variant, seq, kind, name, path, old_value, requested_value,
		host, boot_id, changed_at) VALUES (1, 'running', 0, 'sysctl', 'kernel.x', '$p',
		'owned', '1', '$host', '$boot', '2026-01-01T00:00:00Z')"
done
rc=0
"$SCHEDRIG" restore --db "$DB" >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" "1" "restore exit status ($(cat "$WORK/out"))"
assert_contains "$(cat "$WORK/out")" "$WORK/victim ($WORK/victim) is not a knob schedrig sets" "refusal"
assert_contains "$(cat "$WORK/out")" "$WORK/link ($WORK/victim) is not a knob schedrig sets" "symlink refusal"
assert_contains "$(cat "$WORK/out")" "2 of 2 knob change(s) not restored" "summary"
assert_eq "$(cat "$WORK/victim")" "precious" "the file is untouched"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" "2" "rows stay unrestored"
echo ok
