#!/bin/bash
# Lock files and the cache live where other users can write (/run/lock,
# /tmp): a symbolic link planted there must not make the rig truncate or
# delete what it points to, a lock file or cache directory of another
# user is refused with a message that says what to remove, and a lock file
# is mode 0600, so that no other user can open it and hold its flock. Root
# replaces a lock file or link another user planted in a sticky directory,
# and a non-root user's run has its own measuring lock file.
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

# 5. In a sticky directory (/run/lock, /tmp) anyone may plant a lock file or
# a link; root replaces it with its own (its run is not stopped), and the
# link's target is untouched.
if [ "$(id -u)" = 0 ]; then
	mkdir "$WORK/sticky"
	chmod 1777 "$WORK/sticky"
	runuser -u nobody -- touch "$WORK/sticky/planted.lock"
	SCHEDRIG_MEASURE_LOCK=$WORK/sticky/planted.lock "$SCHEDRIG" run --quiet --db "$WORK/e.db" \
		"$WORK/f.yaml" >"$WORK/out" 2>&1 || fail "root run beside a planted lock: $(cat "$WORK/out")"
	assert_contains "$(cat "$WORK/out")" "was not root's own: replaced it" "note of the replacement"
	assert_eq "$(stat -c '%u %a' "$WORK/sticky/planted.lock")" "0 600" "the replaced lock file"
	runuser -u nobody -- ln -s "$WORK/victim" "$WORK/sticky/link.lock"
	SCHEDRIG_MEASURE_LOCK=$WORK/sticky/link.lock "$SCHEDRIG" run --quiet --db "$WORK/g.db" \
		"$WORK/f.yaml" >"$WORK/out" 2>&1 || fail "root run beside a planted link: $(cat "$WORK/out")"
	assert_eq "$(cat "$WORK/victim")" "IMPORTANT CONTENT" "the planted link's target"
	[ ! -L "$WORK/sticky/link.lock" ] || fail "the planted link is still the lock"
fi

# 6. The default measuring lock (in a mount namespace with a tmpfs on
# /run/lock: the host's locks are not touched): after a root run made its
# 0600 lock file, another user's run takes its own (schedrig-measure-UID.lock).
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir -m 777 "$WORK/nobody"
	cp "$WORK/f.yaml" "$WORK/nobody/f.yaml"
	chmod 644 "$WORK/nobody/f.yaml"
	uid=$(id -u nobody)
	unshare -m env -u SCHEDRIG_MEASURE_LOCK WORK="$WORK" SCHEDRIG="$SCHEDRIG" bash -c '
		mount -t tmpfs -o mode=1777 tmpfs /run/lock || exit 3
		"$SCHEDRIG" run --quiet --db "$WORK/h.db" "$WORK/f.yaml" || exit 4
		stat -c "%n %u %a" /run/lock/schedrig-measure.lock
		runuser -u nobody -- "$SCHEDRIG" run --quiet --db "$WORK/nobody/i.db" \
			"$WORK/nobody/f.yaml" || exit 5
		stat -c "%n %U %a" /run/lock/schedrig-measure-*.lock' >"$WORK/out" 2>&1 ||
		fail "runs of root and then nobody (status $?): $(cat "$WORK/out")"
	assert_contains "$(cat "$WORK/out")" "/run/lock/schedrig-measure.lock 0 600" "root's lock file"
	assert_contains "$(cat "$WORK/out")" "/run/lock/schedrig-measure-$uid.lock nobody 600" \
		"nobody's lock file"
fi
echo ok
