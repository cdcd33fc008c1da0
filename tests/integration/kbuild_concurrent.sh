#!/bin/bash
# Two builds of one key at once, and what killed builds leave (stand-in
# tree, standin.bash). Asserted: two `schedrig build` of the same inputs
# started together both succeed with one cache entry, the second saying it
# waited for the first and finding its entry (no second make); a build
# killed with SIGKILL during make leaves its temporary directory, which the
# next build of any key removes (so do temporary directories of any PID,
# a live one's too, and of any age, under builds/ and sources/), and a
# planted temporary directory holding a finished-looking entry is never
# used; `schedrig cache --clear-stale` removes them without a build, and
# leaves a build in progress alone. About 15 s here.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/standin.bash"

SRC=$WORK/linux
make_standin "$SRC"
cat >"$WORK/k.yaml" <<EOF
name: kbuild-concurrent
kernels:
  slow: {source: $SRC, config: [tinyconfig], make_args: [SLEEP=3]}
  other: {source: $SRC, config: [tinyconfig]}
variants:
  - {name: vs, boot: qemu, kernel: {build: slow}}
  - {name: vo, boot: qemu, kernel: {build: other}}
loads: [{tool: hackbench}]
EOF
# The stand-in sleeps in make when asked (SLEEP=N), like a long compile.
sed -i 's|^\t@echo "  CC      kernel/sched/core.o"|\t@echo "  CC      kernel/sched/core.o"; if [ -n "$(SLEEP)" ]; then sleep $(SLEEP); fi|' \
	"$SRC/Makefile"
DB=$WORK/results/schedrig.db
CACHE=$WORK/results/cache
mkdir -p "$WORK/one" "$WORK/two"

# Two at once: one builds, the other waits and gets the same entry.
(cd "$WORK/one" && exec "$SCHEDRIG" build "$WORK/k.yaml" vs --db "$DB") >"$WORK/one.out" 2>&1 &
first=$!
for _ in $(seq 100); do
	grep -q "building slow: make" "$WORK/one.out" 2>/dev/null && break
	sleep 0.1
done
(cd "$WORK/two" && exec "$SCHEDRIG" build "$WORK/k.yaml" vs --db "$DB") >"$WORK/two.out" 2>&1 &
second=$!
wait "$first" || fail "the first build: $(cat "$WORK/one.out")"
wait "$second" || fail "the second build: $(cat "$WORK/two.out")"
assert_contains "$(cat "$WORK/one.out")" "kernel slow: built $CACHE/builds/" "the first build"
assert_contains "$(cat "$WORK/two.out")" "waiting for another build of the same inputs (pid $first" \
	"the second build waited"
assert_contains "$(cat "$WORK/two.out")" "kernel slow: cached $CACHE/builds/" "the second build"
assert_eq "$(ls "$CACHE/builds" | wc -l)" 1 "one cache entry for two builds of one key"
assert_eq "$(grep -c '^schedrig: make ' "$CACHE"/builds/*/build.log)" 3 \
	"one build's makes (tinyconfig, olddefconfig, bzImage)"

# SIGKILL during make: the temporary directory stays behind.
"$SCHEDRIG" build "$WORK/k.yaml" vs --db "$WORK/k2/schedrig.db" >"$WORK/killed.out" 2>&1 &
rig=$!
for _ in $(seq 100); do
	grep -q "building slow: make" "$WORK/killed.out" 2>/dev/null && break
	sleep 0.1
done
kill -KILL "$rig"
wait "$rig" || true
K2=$WORK/k2/cache
killed=$(ls -d "$K2"/builds/.tmp-*)
[ -d "$killed" ] || fail "no temporary directory after SIGKILL"
# Stale ones of other kinds: an older rig's name with a live PID (1) and an
# old mtime, an unpacked source's, and one planted with a finished entry.
mkdir -p "$K2/builds/.tmp-0123456789abcdef-1/entry" "$K2/sources/0123456789abcdef.tmp"
touch -d 2001-01-01 "$K2/builds/.tmp-0123456789abcdef-1"
# The next build of another key removes every one of them.
out=$("$SCHEDRIG" build "$WORK/k.yaml" vo --db "$WORK/k2/schedrig.db" 2>&1) || fail "build: $out"
assert_eq "$(ls -A "$K2/builds" | grep -c '^\.tmp' || true)" 0 "temporary directories after the next build"
assert_eq "$(ls -A "$K2/sources" | grep -c 'tmp' || true)" 0 "an unpacked source's temporary directory"
# A planted temporary directory with a bzImage in it is never an entry.
mkdir -p "$killed/entry"
echo "not a kernel" >"$killed/entry/bzImage"
out=$("$SCHEDRIG" build "$WORK/k.yaml" vs --db "$WORK/k2/schedrig.db" 2>&1) || fail "build: $out"
assert_contains "$out" "kernel slow: built" "the killed build's kernel, built again"
img=$(sed -n 's/^kernel slow: built \([^ ]*\) .*/\1/p' <<<"$out")
assert_contains "$(cat "$img")" "int slice = 3;" "a real image, not the planted one"
assert_eq "$(ls -A "$K2/builds" | grep -c '^\.tmp' || true)" 0 "no temporary directory left"

# --clear-stale: a killed build's directory goes, a running build's stays.
sed -i 's/SLEEP=3/SLEEP=4/' "$WORK/k.yaml"
"$SCHEDRIG" build "$WORK/k.yaml" vs --db "$WORK/k2/schedrig.db" >"$WORK/running.out" 2>&1 &
rig=$!
for _ in $(seq 100); do
	grep -q "building slow: make" "$WORK/running.out" 2>/dev/null && break
	sleep 0.1
done
mkdir -p "$K2/builds/.tmp-$(printf 'f%.0s' $(seq 64))/src"
out=$("$SCHEDRIG" cache --clear-stale --db "$WORK/k2/schedrig.db")
assert_contains "$out" "removed $K2/builds/.tmp-ffff" "the stale directory"
assert_contains "$out" "1 stale temporary directory removed" "only the stale one"
wait "$rig" || fail "the build --clear-stale ran beside: $(cat "$WORK/running.out")"
assert_contains "$(cat "$WORK/running.out")" "kernel slow: built" "the build beside --clear-stale"
assert_none_left "$WORK" "after the builds"
