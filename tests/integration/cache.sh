#!/bin/bash
# The rig's cache is apart from results: $XDG_CACHE_HOME/schedrig (or
# ~/.cache/schedrig); kernbench prepares its tree there by default.
# `schedrig cache` says how much each part holds; --clear empties it but
# keeps a kernbench tree that is being built.
source "$(dirname "$0")/lib.sh"
command -v flock >/dev/null || fail "flock (util-linux) is not installed"

out=$(env -u XDG_CACHE_HOME HOME="$WORK/home" "$SCHEDRIG" cache)
assert_eq "$out" "cache $WORK/home/.cache/schedrig: empty (not created yet)" "the default place"
# A relative XDG_CACHE_HOME is invalid (XDG Base Directory Specification):
# the cache must not move with the working directory.
out=$(XDG_CACHE_HOME=rel/xdg HOME="$WORK/home" "$SCHEDRIG" cache)
assert_eq "$out" "cache $WORK/home/.cache/schedrig: empty (not created yet)" "a relative XDG_CACHE_HOME ignored"
export XDG_CACHE_HOME=$WORK/xdg
C=$XDG_CACHE_HOME/schedrig

# A kernbench without cache_dir prepares its tree in the cache.
TREE=$WORK/tree
mkdir -p "$TREE"
cat >"$TREE/Makefile" <<'MAKE'
.PHONY: tinyconfig clean vmlinux
tinyconfig:
	echo CONFIG_X=y > .config
clean:
	rm -f vmlinux
vmlinux:
	head -c 2000000 /dev/zero > vmlinux
MAKE
"$SCHEDRIG" load kernbench --source "$TREE" --jobs 1 >"$WORK/kb.out" 2>"$WORK/kb.err" ||
	fail "kernbench: $(cat "$WORK/kb.err")"
entry=$(find "$C/kernbench" -mindepth 1 -maxdepth 1 -type d)
[ -n "$entry" ] && [ -f "$entry/src/vmlinux" ] || fail "no kernbench tree in $C/kernbench"
mkdir -p "$C/debs"
head -c 3000000 /dev/urandom >"$C/debs/linux-image-x.deb"
out=$("$SCHEDRIG" cache)
assert_contains "$out" "cache $C:" "where"
assert_contains "$out" "  debs                3.0 MB" "debs"
assert_contains "$out" "  disks               0.0 MB" "disks (none built)"
awk '$1 == "kernbench" && $2 >= 2.0 { found = 1 } END { exit !found }' <<<"$out" ||
	fail "kernbench part under 2 MB: $out"

# --clear keeps the tree a kernbench is building (its build.lock held).
exec 9>"$entry/build.lock"
flock 9
out=$("$SCHEDRIG" cache --clear) || fail "cache --clear: $out"
assert_contains "$out" "kept $entry: a kernbench is using it" "the busy tree kept"
[ ! -e "$C/debs/linux-image-x.deb" ] || fail "--clear left the package"
[ -f "$entry/src/vmlinux" ] || fail "--clear removed the tree in use"
exec 9>&-
out=$("$SCHEDRIG" cache --clear) || fail "second cache --clear: $out"
[ ! -e "$entry" ] || fail "the tree outlived a --clear without a build"
assert_contains "$("$SCHEDRIG" cache)" "  total               0.0 MB" "empty after --clear"
echo ok
