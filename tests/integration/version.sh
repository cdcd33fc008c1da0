#!/bin/bash
# schedrig --version and schedrig version print "schedrig VERSION" and exit
# 0; VERSION is the Makefile's and the one a run stores (run.schedrig_version,
# here of an imported run).
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
MAKEFILE=$(cd "$(dirname "$0")/../.." && pwd)/Makefile
DB=$WORK/v.db

want=$(sed -n 's/^VERSION *:= *//p' "$MAKEFILE")
[ -n "$want" ] || fail "no VERSION in $MAKEFILE"
out=$("$SCHEDRIG" --version) || fail "--version exit status $?"
assert_eq "$out" "schedrig $want" "--version"
out=$("$SCHEDRIG" version) || fail "version exit status $?"
assert_eq "$out" "schedrig $want" "version"

"$SCHEDRIG" import --csv "$DATA/dbench.csv" --run dbench --db "$DB" >/dev/null
assert_eq "$(q "$DB" "SELECT schedrig_version FROM run WHERE name = 'dbench'")" "$want" \
	"the version a run stores"

set +e
"$SCHEDRIG" version extra >/dev/null 2>&1
assert_eq "$?" 2 "version with an argument"
# Output that cannot be written is an error, not a silent success.
for cmd in --version --help "list --db $DB"; do
	# shellcheck disable=SC2086
	"$SCHEDRIG" $cmd >/dev/full 2>"$WORK/full.err"
	assert_eq "$?" 1 "exit status of $cmd into /dev/full"
	assert_eq "$(cat "$WORK/full.err")" "schedrig: cannot write the output: No space left on device" \
		"message of $cmd into /dev/full"
done
# A report command that checks its own write says so once.
"$SCHEDRIG" compare --db "$DB" dbench >/dev/full 2>"$WORK/full.err"
assert_eq "$?" 1 "exit status of compare into /dev/full"
assert_eq "$(cat "$WORK/full.err")" "schedrig compare: writing stdout failed" "message of compare into /dev/full"
set -e
exit 0
