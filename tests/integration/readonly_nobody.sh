#!/bin/bash
# A WAL-mode database that user nobody cannot switch out of WAL mode is
# read by a read-only command without a file left beside it: a 0444 file
# in a writable directory (before: list left b.db-shm and b.db-wal), and a
# file in a directory of mode 555 (before: "cannot read it: attempt to
# write a readonly database"). Skipped when setpriv cannot drop to nobody.
source "$(dirname "$0")/lib.sh"

{ [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; } || skip "needs root and setpriv (to read as user nobody)"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
chmod 755 "$WORK"
"$SCHEDRIG" import --csv "$(dirname "$0")/../data/netperf.csv" --db "$WORK/a.db" >/dev/null
want=$("$SCHEDRIG" list --db "$WORK/a.db")
q "$WORK/a.db" "PRAGMA journal_mode = WAL" >/dev/null

# A read-only file in a directory anyone can write to.
mkdir -m 777 "$WORK/open" && cp "$WORK/a.db" "$WORK/open/b.db" && chmod 444 "$WORK/open/b.db"
sum=$(sha256sum <"$WORK/open/b.db")
got=$(as_nobody "$SCHEDRIG" list --db "$WORK/open/b.db") || fail "list of a 0444 WAL file as nobody"
assert_eq "$got" "$want" "list of a 0444 WAL file as nobody"
assert_eq "$(cd "$WORK/open" && ls)" "b.db" "files beside a 0444 WAL file after list as nobody"
assert_eq "$(sha256sum <"$WORK/open/b.db")" "$sum" "the 0444 WAL file after list as nobody"

# A directory of mode 555.
mkdir "$WORK/shut" && cp "$WORK/a.db" "$WORK/shut/b.db" && chmod 644 "$WORK/shut/b.db" && chmod 555 "$WORK/shut"
got=$(as_nobody "$SCHEDRIG" list --db "$WORK/shut/b.db" 2>&1) || fail "list in a 555 directory as nobody: $got"
assert_eq "$got" "$want" "list of a WAL file in a 555 directory as nobody"
assert_eq "$(cd "$WORK/shut" && ls)" "b.db" "files in the 555 directory after list as nobody"

# Beside a writer at work (its -wal holds pages the file has not), the
# immutable open would read past them: refused, saying what to do.
chmod 755 "$WORK/shut"
exec 3> >(sqlite3 "$WORK/shut/b.db" >/dev/null)
echo "PRAGMA wal_autocheckpoint = 0; CREATE TABLE busy(x); INSERT INTO busy VALUES (1);" >&3
for _ in $(seq 50); do [ -s "$WORK/shut/b.db-wal" ] && break; sleep 0.1; done
chmod 555 "$WORK/shut"
rc=0
got=$(as_nobody "$SCHEDRIG" list --db "$WORK/shut/b.db" 2>&1) || rc=$?
assert_eq "$rc" 1 "list beside a writer at work as nobody: exit status ($got)"
assert_contains "$got" "another connection is writing" "list beside a writer at work: the message"
chmod 755 "$WORK/shut"
exec 3>&-
wait
exit 0
