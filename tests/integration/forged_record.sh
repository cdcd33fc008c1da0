#!/bin/bash
# Another user cannot steer root through the 1777 /run/lock: a knob record
# planted there by nobody (naming nobody's database) is refused as not
# trusted, naming its owner, and never advertises that database; schedrig
# restore refuses a database nobody could write. Runs in a mount namespace
# with a tmpfs on /run/lock, so the host's locks are not touched.
if [ -z "${SCHEDRIG_FORGED_NS:-}" ]; then
	[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null &&
		exec unshare -m env SCHEDRIG_FORGED_NS=1 bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh"
[ -n "${SCHEDRIG_FORGED_NS:-}" ] || skip "needs root and unshare -m (a tmpfs on /run/lock, files of another uid)"
mount -t tmpfs -o mode=1777 tmpfs /run/lock || skip "cannot mount a tmpfs on /run/lock"

cat >"$WORK/f.yaml" <<'YAML'
name: forged
iterations: 1
loads:
  - tool: fake
YAML
chmod 755 "$WORK"
mkdir "$WORK/evil"
"$SCHEDRIG" run "$WORK/f.yaml" --db "$WORK/evil/evil.db" --quiet >"$WORK/out" 2>&1 ||
	fail "run: $(cat "$WORK/out")"
chown -R 65534:65534 "$WORK/evil"
setpriv --reuid 65534 --regid 65534 --clear-groups sh -c \
	"printf 'pid 1\nrun 1\nboot -\ndb $WORK/evil/evil.db\n' >/run/lock/schedrig-knobs.pending" ||
	fail "nobody could not write the record"

rc=0
"$SCHEDRIG" run "$WORK/f.yaml" --db "$WORK/r.db" --quiet >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" 1 "run beside a forged record: exit status ($(cat "$WORK/out"))"
assert_contains "$(cat "$WORK/out")" "record /run/lock/schedrig-knobs.pending is owned by uid 65534 (mode 0644), not trusted; remove it" "refusal"
case "$(cat "$WORK/out")" in *evil.db*) fail "the forged record steered: $(cat "$WORK/out")" ;; esac

rc=0
"$SCHEDRIG" restore --db "$WORK/evil/evil.db" >"$WORK/out" 2>&1 || rc=$?
assert_eq "$rc" 1 "restore of nobody's database: exit status ($(cat "$WORK/out"))"
assert_contains "$(cat "$WORK/out")" "not trusted" "restore refusal"
assert_contains "$(cat "$WORK/out")" "refused (restore writes kernel knobs" "restore says why"

rm /run/lock/schedrig-knobs.pending
"$SCHEDRIG" run "$WORK/f.yaml" --db "$WORK/r.db" --quiet >"$WORK/out" 2>&1 ||
	fail "run once the record is removed: $(cat "$WORK/out")"
echo ok
