#!/bin/bash
# A run that cannot read its database's knob journal does not start: it
# cannot tell whether a killed run left kernel knobs changed (it used to go
# on as if the journal were empty).
source "$(dirname "$0")/lib.sh"

cat >"$WORK/f.yaml" <<'EOF'
name: fc
iterations: 1
loads:
  - tool: fake
EOF
DB=$WORK/f.db
"$SCHEDRIG" run "$WORK/f.yaml" --db "$DB" --quiet >"$WORK/out" 2>&1 || fail "first run: $(cat "$WORK/out")"
# The journal unreadable: a knob table without its columns.
q "$DB" "DROP TABLE knob; CREATE TABLE knob (id INTEGER PRIMARY KEY)"
rc=0
"$SCHEDRIG" run "$WORK/f.yaml" --db "$DB" --quiet >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" "1" "exit status with an unreadable knob journal ($(cat "$WORK/out"))"
assert_contains "$(cat "$WORK/out")" "whether a killed run left knobs changed is unknown, so nothing runs" \
	"the refusal says why"
assert_eq "$(q "$DB" "SELECT count(*) FROM run")" "1" "no second run recorded"
echo ok
