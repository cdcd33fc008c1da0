#!/bin/bash
# A results database damaged inside its pages (PRAGMA integrity_check
# fails) is refused by every command that opens it: exit status 1, and a
# first message with SQLite's own complaint, the file and what to do (sqlite3
# FILE .recover). Before, the damaged page read as rows that were not
# there: compare said "the results database holds no run yet", compare
# NAME "no run 'NAME'", list printed a run 96 of no name, all with exit 0.
# (import-lava is run --lava-log: run stands for it.)
source "$(dirname "$0")/lib.sh"

DB=$WORK/r.db
cat >"$WORK/c.yaml" <<'EOF'
name: damaged
iterations: 1
loads:
  - {tool: fake}
EOF
"$SCHEDRIG" import --csv "$(dirname "$0")/../data/netperf.csv" --db "$DB" >/dev/null
# The run table's root page: a cell pointer area of 0xff bytes points
# every row outside the page (what a torn write or a bad sector leaves).
page=$(q "$DB" "SELECT rootpage FROM sqlite_master WHERE name = 'run'")
size=$(q "$DB" "PRAGMA page_size")
head -c 200 /dev/zero | tr '\0' '\377' |
	dd of="$DB" bs=1 seek=$(((page - 1) * size + 8)) conv=notrunc 2>/dev/null
# sqlite3 itself may exit 11 ("database disk image is malformed") on the
# damage this test made on purpose: its output is what counts, not its
# status (under pipefail the status would stop the script half the time).
report=$(q "$DB" "PRAGMA integrity_check" 2>/dev/null || true)
complaint=$(sed -n 2p <<<"$report")
assert_contains "$complaint" "On tree page $page" "integrity_check on the damaged file"
sum=$(sha256sum <"$DB")

for args in "list" "show 1" "monitors 1" "compare" "compare tcp-rr" "report" "export" \
	"plot --output-dir $WORK/plots" "reparse 1" "restore" "import --csv $WORK/r.csv" \
	"mail --from a@example.org --to b@example.org --subject s --output $WORK/m.eml" \
	"run $WORK/c.yaml --quiet"; do
	rc=0
	cp "$(dirname "$0")/../data/netperf.csv" "$WORK/r.csv"
	# shellcheck disable=SC2086 # args is a word list on purpose
	"$SCHEDRIG" $args --db "$DB" >"$WORK/out" 2>"$WORK/err" || rc=$?
	c=${args%% *}
	assert_eq "$rc" 1 "$args on a damaged database: exit status ($(cat "$WORK/err"))"
	assert_eq "$(head -1 "$WORK/err")" "schedrig $c: $DB: the results database is damaged (SQLite:\
 $complaint). Keep a copy, then save what SQLite can still read into a new file: sqlite3 $DB\
 .recover | sqlite3 NEW.db" "$args on a damaged database: the message"
	[ ! -s "$WORK/out" ] || fail "$args printed on a damaged database: $(cat "$WORK/out")"
	assert_eq "$(sha256sum <"$DB")" "$sum" "$args left the damaged file as it was"
done
exit 0
