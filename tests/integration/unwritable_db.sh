#!/bin/bash
# A results database that cannot be written is found before any load
# starts: exit status 1, one clear message, and the load (dbench, which
# creates DIR/clients as soon as it runs) never started. Cases: the
# database's directory is a regular file, a new database on a read-only
# tmpfs, an existing database on a tmpfs remounted read-only, the path is a
# directory, the file is not a database. And when the disk fills up mid-run,
# the run stops with the reason and the raw outputs of the iteration are kept.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

mkdir -p "$WORK/dbench"
cat >"$WORK/d.yaml" <<EOF
name: unwritable
iterations: 1
loads:
  - tool: dbench
    timeout_s: 60
    params: {dir: $WORK/dbench, duration_s: 2} # 1 s is all warm-up: Throughput 0
EOF
MNT=$WORK/mnt
mkdir -p "$MNT"
mounted=0
cleanup() {
	kill_leftovers
	[ "$mounted" = 0 ] || umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

# refused DB MESSAGE: `schedrig run --db DB` exits 1 with exactly MESSAGE and
# starts no load.
refused() {
	local rc=0
	"$SCHEDRIG" run --quiet --db "$1" "$WORK/d.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
	assert_eq "$rc" 1 "exit status with --db $1 ($(cat "$WORK/err"))"
	assert_eq "$(cat "$WORK/err")" "$2" "message with --db $1"
	[ -z "$(ls -A "$WORK/dbench")" ] || fail "a load ran with --db $1: $(ls "$WORK/dbench")"
	[ ! -s "$WORK/out" ] || fail "output with --db $1: $(cat "$WORK/out")"
}

# The directory of the database is a regular file.
echo not-a-dir >"$WORK/file"
refused "$WORK/file/r.db" "schedrig run: $WORK/file/r.db: unable to open database file: Not a directory"

# The path is a directory; the file is not a database.
mkdir "$WORK/adir"
refused "$WORK/adir" "schedrig run: $WORK/adir: unable to open database file: Is a directory"
echo hello >"$WORK/text"
refused "$WORK/text" "schedrig run: $WORK/text: file is not a database"

# A read-only tmpfs: no new database there, nor a directory for one.
mount -t tmpfs -o ro,size=4m tmpfs "$MNT" || fail "cannot mount a tmpfs (needs root)"
mounted=1
refused "$MNT/r.db" "schedrig run: $MNT/r.db: unable to open database file: Read-only file system"
refused "$MNT/sub/r.db" "schedrig: cannot create $MNT/sub: Read-only file system"
umount "$MNT"

# An existing database on a tmpfs remounted read-only.
mount -t tmpfs -o size=4m tmpfs "$MNT"
rc=0
"$SCHEDRIG" run --quiet --db "$MNT/r.db" "$WORK/d.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "$rc" 0 "run on the writable tmpfs ($(cat "$WORK/err"))"
[ -d "$WORK/dbench/clients" ] || fail "dbench did not run on the writable tmpfs"
rm -rf "${WORK:?}/dbench/"*
assert_eq "$(q "$MNT/r.db" 'SELECT count(*) FROM sample')" 2 "dbench samples (throughput, max_latency)"
mount -o remount,ro "$MNT"
refused "$MNT/r.db" "schedrig run: $MNT/r.db: the results database is not writable"
# (A WAL database on a read-only file system opens only as immutable.)
assert_eq "$(q "file:$MNT/r.db?immutable=1" 'SELECT count(*) FROM run')" 1 "runs in the read-only database"
assert_integrity "file:$MNT/r.db?immutable=1"
umount "$MNT"
mounted=0

# The disk fills up in the middle of a run (2 iterations stored, then the
# file system is filled): the run stops with the reason, and the raw outputs
# of the refused iteration are kept - not in the run directory on the full
# disk, but in a /tmp/schedrig-raw-* directory the message names.
mount -t tmpfs -o size=2m tmpfs "$MNT"
mounted=1
cat >"$WORK/h.yaml" <<'EOF2'
name: fills-up
iterations: 100
loads:
  - tool: hackbench
    params: {mode: process, ipc: pipe, groups: 1, loops: 500}
EOF2
start_rig run --quiet --db "$MNT/r.db" "$WORK/h.yaml"
for i in $(seq 600); do
	[ "$(q "$MNT/r.db" 'SELECT count(*) FROM iteration' 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.05
done
dd if=/dev/zero of="$MNT/fill" bs=64k 2>/dev/null || true
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 1 "exit status when the disk fills up"
err=$(cat "$WORK/rig.err")
assert_contains "$err" "database or disk is full" "the reason"
raw=$(sed -n 's/^schedrig: raw outputs of the iteration kept in //p' "$WORK/rig.err")
case "$raw" in /tmp/schedrig-raw-*) ;; *) fail "raw outputs not kept outside the full disk: $err" ;; esac
out=$(cat "$raw"/running-cell1-it*-hackbench-rep0.stdout)
rm -rf "$raw"
assert_contains "$out" "Time: " "the kept raw stdout of hackbench"
stored=$(q "$MNT/r.db" 'SELECT count(*) FROM iteration')
[ "$stored" -ge 2 ] && [ "$stored" -lt 100 ] || fail "iterations stored before the disk filled: $stored"
assert_integrity "$MNT/r.db"
assert_no_leftovers "after the disk filled up"
