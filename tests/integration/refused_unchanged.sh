#!/bin/bash
# A command that refuses to write into a database leaves the file byte for
# byte as it was: before, store_open switched it to WAL mode (header bytes
# 18-19 from 1 1 to 2 2) before migrate's checks refused it. And an import
# of a CSV whose last line has no newline (a cut file: head -c) is refused
# as truncated, nothing imported: before, its last value was stored cut
# (1.9658 as 1.965).
source "$(dirname "$0")/lib.sh"

cat >"$WORK/c.yaml" <<'YAML'
name: refused
iterations: 1
loads:
  - {tool: fake}
YAML
cp "$(dirname "$0")/../data/netperf.csv" "$WORK/r.csv"

# A foreign database (tables, no schema version) and one from a newer schedrig.
q "$WORK/foreign.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1)"
"$SCHEDRIG" import --csv "$WORK/r.csv" --db "$WORK/newer.db" >/dev/null
q "$WORK/newer.db" "PRAGMA user_version = 999"
for db in foreign newer; do
	want="not writing into it"
	[ $db = foreign ] || want="schema version 999 is newer"
	for args in "import --csv $WORK/r.csv" "run $WORK/c.yaml --quiet" "reparse 1" "restore"; do
		f=$WORK/$db.db
		before=$(sha256sum <"$f")
		assert_eq "$(od -An -tu1 -j18 -N2 "$f" | tr -s ' ')" " 1 1" "$db: rollback mode at first"
		rc=0
		# shellcheck disable=SC2086 # args is a word list on purpose
		"$SCHEDRIG" $args --db "$f" >"$WORK/out" 2>"$WORK/err" || rc=$?
		assert_eq "$rc" 1 "$args on the $db database: exit status ($(cat "$WORK/err"))"
		assert_contains "$(cat "$WORK/err")" "$want" "$args on the $db database: the message"
		assert_eq "$(sha256sum <"$f")" "$before" "$args left the $db database byte for byte"
		[ ! -e "$f-wal" ] && [ ! -e "$f-shm" ] || fail "$args left -wal/-shm beside $db"
	done
done

# A truncated CSV: cut mid-value, no final newline.
full=$(wc -c <"$WORK/r.csv")
head -c $((full - 2)) "$WORK/r.csv" >"$WORK/cut.csv"
lines=$(wc -l <"$WORK/r.csv")
rc=0
"$SCHEDRIG" import --csv "$WORK/cut.csv" --db "$WORK/cut.db" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "a truncated CSV: exit status ($(cat "$WORK/err"))"
assert_eq "$(cat "$WORK/err")" "schedrig import: $WORK/cut.csv:$lines: the last line ends\
 without a newline: the file is truncated (an export always ends with one) (nothing imported)" \
	"a truncated CSV: the message"
if [ -e "$WORK/cut.db" ]; then
	assert_eq "$(q "$WORK/cut.db" "SELECT count(*) FROM sample")" 0 "a truncated CSV: no sample"
fi
exit 0
