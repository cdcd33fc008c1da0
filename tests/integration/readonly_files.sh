#!/bin/bash
# Commands that only read the results database (compare, export, show,
# list, report) open it read-only and leave nothing beside it:
# no -wal or -shm file, the file itself unchanged. A writer (import here)
# keeps the file in WAL mode while it writes and leaves it in rollback mode
# when it closes; a file an older schedrig left in WAL mode is switched by
# the first reader. Before, every reader left r.db-wal and r.db-shm.
source "$(dirname "$0")/lib.sh"

DB=$WORK/r.db
CSV=$(dirname "$0")/../data/netperf.csv

# beside WHAT: nothing but r.db in WORK's database files.
beside() {
	assert_eq "$(cd "$WORK" && ls r.db*)" "r.db" "files beside the database after $1"
}

"$SCHEDRIG" import --csv "$CSV" --db "$DB" >/dev/null
beside "import"
assert_eq "$(q "$DB" "PRAGMA journal_mode")" "delete" "journal mode at rest"
sum=$(sha256sum <"$DB")
for args in "list" "show 1" "compare" "compare tcp-rr" "report" "export"; do
	# shellcheck disable=SC2086 # args is a word list on purpose
	"$SCHEDRIG" $args --db "$DB" >"$WORK/out" 2>"$WORK/err" ||
		fail "$args: $(cat "$WORK/err")"
	[ -s "$WORK/out" ] || fail "$args printed nothing"
	beside "$args"
	assert_eq "$(sha256sum <"$DB")" "$sum" "the database after $args"
done

# A database at rest in WAL mode (as schedrig 0.1.0 before this change, or
# a writer that closed beside a reader, left it): the reader switches it.
q "$DB" "PRAGMA journal_mode = WAL" >/dev/null
beside "sqlite3 set WAL mode"
"$SCHEDRIG" compare --db "$DB" >/dev/null || fail "compare of a WAL database"
beside "compare of a database in WAL mode"
assert_eq "$(q "$DB" "PRAGMA journal_mode")" "delete" "journal mode after the reader"

# Beside another connection to the file in WAL mode, a reader reads
# through that connection's WAL files (its switch is refused as busy); the
# last writer to close leaves none behind.
"$SCHEDRIG" import --csv "$CSV" --run second --db "$DB" >/dev/null
exec 3> >(sqlite3 "$DB" >/dev/null)
echo "PRAGMA journal_mode = WAL; BEGIN; SELECT count(*) FROM run;" >&3
"$SCHEDRIG" list --db "$DB" >"$WORK/out" || fail "list beside another connection"
assert_contains "$(cat "$WORK/out")" "second" "list beside another connection"
echo "COMMIT;" >&3
exec 3>&-
wait
"$SCHEDRIG" import --csv "$CSV" --run third --db "$DB" >/dev/null
beside "the last writer closed"
exit 0
