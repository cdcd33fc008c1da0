#!/bin/bash
# Lock files and the cache live where other users can write (/run/lock,
# /tmp): a symbolic link planted there must not make the rig truncate or
# delete what it points to, a lock file or cache directory of another
# user is refused with a message that says what to remove, and a lock file
# is mode 0600, so that no other user can open it and hold its flock.
source "$(dirname "$0")/lib.sh"
id nobody >/dev/null 2>&1 || skip "no user nobody"
cat >"$WORK/f.yaml" <<'YAML'
name: locks
iterations: 1
loads:
  - tool: fake
    params: {mean: 100}
YAML
echo "IMPORTANT CONTENT" >"$WORK/victim"

# 1. The measuring lock as a symbolic link to a victim file.
ln -s "$WORK/victim" "$WORK/measure.lock"
rc=0
SCHEDRIG_MEASURE_LOCK=$WORK/measure.lock "$SCHEDRIG" run --quiet --db "$WORK/a.db" "$WORK/f.yaml" \
	>"$WORK/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a run took a lock that is a symbolic link"
assert_contains "$(cat "$WORK/out")" "a symbolic link: remove it" "message for a linked lock"
assert_eq "$(cat "$WORK/victim")" "IMPORTANT CONTENT" "the link's target after the run"

# 2. The measuring lock owned by another user.
rm "$WORK/measure.lock"
touch "$WORK/measure.lock"
chown nobody "$WORK/measure.lock"
rc=0
SCHEDRIG_MEASURE_LOCK=$WORK/measure.lock "$SCHEDRIG" run --quiet --db "$WORK/b.db" "$WORK/f.yaml" \
	>"$WORK/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a run took a lock file of another user"
assert_contains "$(cat "$WORK/out")" "another user's file" "message for another user's lock"

# 3. The cache directory as a link to another user's directory.
mkdir -p "$WORK/target/kernels" "$WORK/xdg"
echo keep >"$WORK/target/kernels/file"
chown -R nobody "$WORK/target"
ln -s "$WORK/target" "$WORK/xdg/schedrig"
rc=0
XDG_CACHE_HOME=$WORK/xdg "$SCHEDRIG" cache --clear >"$WORK/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "cache --clear went through a linked cache directory"
assert_contains "$(cat "$WORK/out")" "remove it, or set XDG_CACHE_HOME or HOME" "message for a linked cache"
assert_eq "$(cat "$WORK/target/kernels/file")" keep "the linked directory's files after cache --clear"
[ ! -e "$WORK/target/.lock" ] || fail "a lock file was created in the linked directory"

# 4. A lock file the rig creates is 0600: another user cannot open it (to
# hold its flock); one an older rig left 0644 is narrowed to 0600.
mkdir "$WORK/pub"
chmod 711 "$WORK"
chmod 755 "$WORK/pub"
SCHEDRIG_MEASURE_LOCK=$WORK/pub/new.lock "$SCHEDRIG" run --quiet --db "$WORK/c.db" "$WORK/f.yaml" \
	>"$WORK/out" 2>&1 || fail "run with a new lock file: $(cat "$WORK/out")"
assert_eq "$(stat -c %a "$WORK/pub/new.lock")" "600" "mode of a new lock file"
if runuser -u nobody -- flock -n "$WORK/pub/new.lock" true 2>/dev/null; then
	fail "another user opened and locked the lock file"
fi
install -m 644 /dev/null "$WORK/pub/old.lock"
SCHEDRIG_MEASURE_LOCK=$WORK/pub/old.lock "$SCHEDRIG" run --quiet --db "$WORK/d.db" "$WORK/f.yaml" \
	>"$WORK/out" 2>&1 || fail "run with a 0644 lock file: $(cat "$WORK/out")"
assert_eq "$(stat -c %a "$WORK/pub/old.lock")" "600" "mode of an old 0644 lock file after a run"
echo ok
