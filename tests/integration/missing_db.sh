#!/bin/bash
# Commands that read the results database (main's table: CMD_STORE_READ) get
# it opened once, read-only, by main's set-up: a database that does not exist
# is one clear error, exit 1, and is not created. show once crashed here
# (SIGSEGV after the message: it closed a store it never opened).
source "$(dirname "$0")/lib.sh"

DB=$WORK/none.db
for args in "list" "show" "show 1" "monitors" "compare" "compare 1 2" "report" "export"; do
	rc=0
	# shellcheck disable=SC2086 # args is a word list on purpose
	"$SCHEDRIG" $args --db "$DB" >"$WORK/out" 2>"$WORK/err" || rc=$?
	c=${args%% *}
	assert_eq "$rc" "1" "$args on a missing database: exit status"
	assert_eq "$(cat "$WORK/err")" "schedrig $c: $DB: no such results database" \
		"$args on a missing database: the message"
	[ ! -e "$DB" ] || fail "$args created $DB"
done

# --help and a usage error need no database.
"$SCHEDRIG" show --help --db "$DB" >/dev/null || fail "show --help with a missing database"
rc=0
"$SCHEDRIG" list --bogus --db "$DB" >/dev/null 2>&1 || rc=$?
assert_eq "$rc" "2" "a usage error before any database"
[ ! -e "$DB" ] || fail "a usage error created $DB"
exit 0
