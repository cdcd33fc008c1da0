#!/bin/bash
# The knob journal of a results database is not trusted:
#  - schedrig restore writes a row only to the file the rig derives from
#    its kind and name: a journal row naming another file (anyone who can
#    write the database can edit it), directly or through a link, is
#    refused with why, the file left alone and the row kept unrestored;
#  - a run that cannot read its database's journal does not start: it
#    cannot tell whether a killed run left kernel knobs changed (it used to
#    go on as if the journal were empty).
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
assert_contains "$(cat "$WORK/out")" "journal row 1 (sysctl kernel.x, $WORK/victim): sysctl kernel.x is /proc/sys/kernel/x, not $WORK/victim: refused" "refusal"
assert_contains "$(cat "$WORK/out")" "journal row 2 (sysctl kernel.x, $WORK/link): sysctl kernel.x is /proc/sys/kernel/x, not $WORK/link: refused" "symlink refusal"
assert_contains "$(cat "$WORK/out")" "2 of 2 knob change(s) not restored" "summary"
assert_eq "$(cat "$WORK/victim")" "precious" "the file is untouched"
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE restored_at IS NULL")" "2" "rows stay unrestored"

# The journal unreadable: a knob table without its columns.
q "$DB" "DROP TABLE knob; CREATE TABLE knob (id INTEGER PRIMARY KEY)"
rc=0
"$SCHEDRIG" run "$WORK/f.yaml" --db "$DB" --quiet >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" "1" "exit status with an unreadable knob journal ($(cat "$WORK/out"))"
assert_contains "$(cat "$WORK/out")" "whether a killed run left knobs changed is unknown, so nothing runs" \
	"the refusal says why"
assert_eq "$(q "$DB" "SELECT count(*) FROM run")" "1" "no second run recorded"
echo ok
