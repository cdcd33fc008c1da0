#!/bin/bash
# Kernels from source without a kernel: a small tree whose Makefile answers
# tinyconfig, olddefconfig and bzImage the way the kernel's does (a .config,
# the olddefconfig that drops an option the tree does not know, a bzImage
# file made of the .config and the patched source) drives the whole of
# schedrig build and run's building: source copy (the user's tree is never
# written), the series (a directory, an mbox), the config merge and the
# missing-option error, the build key and the cache (a second build runs no
# make), a tarball unpacked once into the cache and hard-linked into each
# build's tree (the cached tree is never written: the patched file is
# unshared first), provenance in show, Ctrl-C during make (no process, no
# half entry left), and in run: a patch that does not apply, a build that fails and a
# missing option are variant failures with their messages and logs under
# results/runs/ID/, and the boot: local variant still runs. The real kernel
# builds are in tests/kernels/kbuild_*.sh. A missing patch file is refused by
# check-config, run --dry-run, build and run alike. About 50 s here (two
# qemu starts refusing the stand-in bzImage; the machine shared).
source "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
TREE=$WORK/linux
mkdir -p "$TREE/kernel/sched" "$WORK/series"
cat >"$TREE/Makefile" <<'EOF'
# A stand-in for the kernel's Makefile (schedrig's tests/integration/kbuild.sh):
# out of the tree in $(O), as kbuild builds with O=.
tinyconfig:
	printf 'CONFIG_64BIT=y\n# CONFIG_SMP is not set\nCONFIG_HZ=100\n' > $(O)/.config
olddefconfig:
	grep -v '^CONFIG_NOT_IN_TREE' $(O)/.config > $(O)/.config.new; mv $(O)/.config.new $(O)/.config
bzImage:
	@echo "  CC      kernel/sched/core.o"
	@if [ -n "$(SLEEP)" ]; then sleep $(SLEEP); fi
	@if [ -n "$(FAIL)" ]; then echo "kernel/sched/core.c:2:1: error: expected ';'"; exit 2; fi
	mkdir -p $(O)/arch/x86/boot
	cat $(O)/.config kernel/sched/core.c > $(O)/arch/x86/boot/bzImage
EOF
printf 'int slice = 3;\nint lag = 1;\n' >"$TREE/kernel/sched/core.c"
patch_file() { # NAME FROM TO SUBJECT
	cat <<EOF
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: t <t@example.org>
Subject: [PATCH] $4

---
--- a/kernel/sched/core.c
+++ b/kernel/sched/core.c
@@ -1,2 +1,2 @@
-$2
+$3
 int lag = 1;
EOF
}
patch_file 1 "int slice = 3;" "int slice = 4;" "sched: Four" >"$WORK/series/0001-four.patch"
patch_file 2 "int slice = 4;" "int slice = 5;" "sched: Five" >"$WORK/series/0002-five.patch"
echo "not a patch" >"$WORK/series/README"
{ patch_file 1 "int slice = 3;" "int slice = 4;" "sched: Four"; echo
  patch_file 2 "int slice = 4;" "int slice = 5;" "sched: Five"; } >"$WORK/series.mbox"
patch_file 9 "int slice = 7;" "int slice = 8;" "sched: Does not apply" >"$WORK/bad.patch"
printf 'CONFIG_HZ=250\n# CONFIG_SWAP is not set\n' >"$WORK/frag.config"
before=$(cd "$TREE" && find . -type f | sort | xargs sha256sum)
tar -cf "$WORK/linux.tar" -C "$WORK" linux

cat >"$WORK/k.yaml" <<EOF
name: kbuild-test
iterations: 1
order: blocked
kernels:
  base:   {source: $TREE, config: [tinyconfig, $WORK/frag.config, "CONFIG_SMP=n"]}
  dir:    {base: base, patches: [$WORK/series/]}
  mbox:   {base: base, patches: [$WORK/series.mbox]}
  tar:    {source: $WORK/linux.tar, config: [tinyconfig], patches: [$WORK/series/]}
  sleepy: {base: tar, make_args: [SLEEP=30]}
  badpatch: {base: dir, patches: [$WORK/bad.patch]}
  badbuild: {base: base, make_args: [FAIL=1]}
  missing:  {base: base, config: [tinyconfig, CONFIG_NOT_IN_TREE=y]}
variants:
  - {name: v-dir, boot: qemu, kernel: {build: dir}}
  - {name: v-mbox, boot: qemu, kernel: {build: mbox}}
  - {name: v-tar, boot: qemu, kernel: {build: tar}}
  - {name: v-sleepy, boot: qemu, kernel: {build: sleepy}}
  - {name: v-badpatch, boot: qemu, kernel: {build: badpatch}}
  - {name: v-badbuild, boot: qemu, kernel: {build: badbuild}}
  - {name: v-missing, boot: qemu, kernel: {build: missing}}
  - {name: here, boot: local}
loads:
  - {name: sleeper, tool: stress-ng, params: {stressor: cpu, workers: 1, duration_s: 1}}
EOF
mkdir "$WORK/cwd"
DB=$WORK/results/schedrig.db
CACHE=$WORK/results/cache

# A missing patch file is refused before anything runs, with its position.
sed "s|$WORK/bad.patch|$WORK/gone.patch|" "$WORK/k.yaml" >"$WORK/gone.yaml"
line=$(grep -n gone.patch "$WORK/gone.yaml" | cut -d: -f1)
col=$(($(grep gone.patch "$WORK/gone.yaml" | sed 's/gone.patch.*//' | wc -c) - ${#WORK} - 1))
want="$WORK/gone.yaml:$line:$col: kernel 'badpatch': patches: $WORK/gone.patch: No such file or directory"
out=$("$SCHEDRIG" check-config "$WORK/gone.yaml" 2>&1) && fail "check-config accepted it"
assert_contains "$out" "$want" "check-config with a missing patch"
for cmd in "run --dry-run" "build" "run"; do
	rc=0
	out=$("$SCHEDRIG" $cmd "$WORK/gone.yaml" --db "$DB" 2>&1) || rc=$?
	assert_eq "$rc" 2 "exit status of $cmd with a missing patch"
	assert_contains "$out" "$want" "$cmd with a missing patch"
done
[ ! -e "$DB" ] || fail "a refused config created the database"

# Build two kernels: the directory series and the same series as an mbox
# give the same patches, so the same key: the second is a cache hit.
out=$("$SCHEDRIG" build "$WORK/k.yaml" v-dir v-mbox --db "$DB" 2>&1) || fail "build: $out"
assert_contains "$out" "kernel dir: built $CACHE/builds/" "the first build"
assert_contains "$out" "kernel mbox: cached $CACHE/builds/" "the same series as an mbox"
key=$(ls "$CACHE/builds")
assert_eq "$(echo "$key" | wc -l)" 1 "one cache entry"
img=$CACHE/builds/$key/bzImage
assert_eq "$(cat "$img")" "$(printf 'CONFIG_64BIT=y\nCONFIG_HZ=250\n# CONFIG_SWAP is not set\nCONFIG_SMP=n\nint slice = 5;\nint lag = 1;')" \
	"the bzImage: tinyconfig + fragment + inline option, the series applied in name order"
pv=$(cat "$CACHE/builds/$key/provenance.txt")
s1=$(sha256sum <"$WORK/series/0001-four.patch" | cut -d' ' -f1)
assert_contains "$pv" "patch $s1 $WORK/series/0001-four.patch sched: Four" "patch provenance"
assert_contains "$pv" "config_sha256 $(sha256sum <"$CACHE/builds/$key/config" | cut -d' ' -f1)" \
	"the .config hash"
assert_contains "$pv" "source $TREE tree " "the source identity of a plain tree"
assert_eq "$(cd "$TREE" && find . -type f | sort | xargs sha256sum)" "$before" "the user's tree"
assert_eq "$(ls -A "$CACHE/builds" | grep -c '^\.tmp' || true)" 0 "no temporary directory left"

# A tarball is unpacked once into the cache and each build's tree is a
# hard-link copy of it: the patched file gets an inode of its own first,
# so the cached tree keeps every byte, inode and mtime.
out=$("$SCHEDRIG" build "$WORK/k.yaml" v-tar --db "$DB" 2>&1) || fail "tarball build: $out"
assert_contains "$out" "kernel tar: built" "the tarball build"
tkey=$(basename "$(dirname "$(grep -l '^kernel tar$' "$CACHE"/builds/*/provenance.txt)")")
assert_contains "$(cat "$CACHE/builds/$tkey/bzImage")" "int slice = 5;" \
	"the tarball build's bzImage holds the patched source"
SRC=$(ls -d "$CACHE"/sources/*/linux)
tree_state() { (cd "$SRC" && find . -type f | sort | xargs stat -c '%n %i %Y %s' && find . -type f | sort | xargs sha256sum); }
cached=$(tree_state)
assert_eq "$(cat "$SRC/kernel/sched/core.c")" "int slice = 3;
int lag = 1;" "the cached tree after a patched build"
assert_eq "$(ls "$CACHE/builds" | wc -l)" 2 "the tarball build's cache entry"

# Again: cached, and make does not run (its log would say so).
out=$("$SCHEDRIG" build "$WORK/k.yaml" v-dir --db "$DB" 2>&1) || fail "rebuild: $out"
assert_contains "$out" "kernel dir: cached" "the second build"
assert_contains "$out" "no compiler ran" "the second build"

# A changed patch is a new key.
sed -i 's/int slice = 5;/int slice = 6;/' "$WORK/series/0002-five.patch"
out=$("$SCHEDRIG" build "$WORK/k.yaml" v-dir --db "$DB" 2>&1) || fail "changed patch: $out"
assert_contains "$out" "kernel dir: built" "a changed patch"
assert_eq "$(ls "$CACHE/builds" | wc -l)" 3 "a third cache entry"

# SIGINT during make: make and its children stop, nothing half-built stays.
"$SCHEDRIG" build "$WORK/k.yaml" v-sleepy --db "$DB" >"$WORK/sleepy.out" 2>&1 &
rig=$!
for _ in $(seq 100); do
	grep -q "building sleepy: make" "$WORK/sleepy.out" 2>/dev/null && break
	sleep 0.1
done
sleep 0.5
tmp=$(ls -d "$CACHE"/builds/.tmp-*)
assert_eq "$(stat -c %h "$SRC/Makefile")" 2 "a file of the cached tree while a build links it"
assert_eq "$(stat -c %i "$tmp/src/Makefile")" "$(stat -c %i "$SRC/Makefile")" "the build's Makefile is the cache's inode"
assert_eq "$(stat -c %h "$SRC/kernel/sched/core.c")" 1 "the patched file, unshared before patching"
kill -INT "$rig"
rc=0
wait "$rig" || rc=$?
assert_eq "$rc" 130 "build exit status after SIGINT"
assert_none_left "$CACHE" "after SIGINT"
assert_eq "$(ls -A "$CACHE/builds" | grep -c '^\.tmp' || true)" 0 "no temporary directory left after SIGINT"
assert_eq "$(ls "$CACHE/builds" | wc -l)" 3 "no entry for the interrupted build"
assert_eq "$(tree_state)" "$cached" "the cached tree after an interrupted build"

# run: the builds that fail are variant failures, the local variant runs.
# (v-sleepy would build for 30 s: left out; v-dir and v-mbox are found in
# the cache, and their bzImage, not a kernel, fails to boot.)
grep -v -e v-sleepy -e v-tar "$WORK/k.yaml" >"$WORK/k-run.yaml"
rc=0
(cd "$WORK/cwd" && exec "$SCHEDRIG" run "$WORK/k-run.yaml" --db "$DB") >"$WORK/run.out" 2>&1 ||
	rc=$?
assert_eq "$rc" 1 "run exit status with failed builds: $(cat "$WORK/run.out")"
run=$(q "$DB" "SELECT max(id) FROM run")
ev=$(q "$DB" "SELECT message FROM event WHERE run_id = $run AND kind = 'failure'")
assert_contains "$ev" "patch 3 of 3, $WORK/bad.patch: 'sched: Does not apply' does not apply:" \
	"the patch that does not apply, by file and subject"
assert_contains "$ev" "kernel/sched/core.c: Hunk #1 FAILED at 1." "the failed hunk"
assert_contains "$ev" "first rejected hunk:
@@ -1,2 +1,2 @@
-int slice = 7;" "the rejected hunk"
assert_contains "$ev" "variant v-badbuild: kernel 'badbuild' was not built: make bzImage failed (make: exit status 2)" \
	"the failed build"
assert_contains "$ev" "kernel/sched/core.c:2:1: error: expected ';'" "the build log's last lines"
assert_contains "$ev" "(log: $WORK/results/runs/$run/build-badbuild.log)" "where the log is"
[ -s "$WORK/results/runs/$run/build-badbuild.log" ] || fail "the failed build's log is kept"
assert_contains "$ev" "CONFIG_NOT_IN_TREE=y (from CONFIG_NOT_IN_TREE=y) is not in the final .config" \
	"the missing option, named"
assert_eq "$(q "$DB" "SELECT status FROM variant WHERE run_id = $run AND name = 'here'")" complete \
	"the local variant still ran"
assert_eq "$(q "$DB" "SELECT group_concat(x, ' ') FROM (SELECT variant || '=' || status AS x
	FROM kernel_build WHERE run_id = $run ORDER BY id)")" \
	"v-dir=cached v-mbox=cached v-badpatch=failed v-badbuild=failed v-missing=failed" \
	"kernel_build rows"
show=$("$SCHEDRIG" show "$run" --db "$DB")
assert_contains "$show" "v-mbox: kernel mbox cached, key " "show: the build"
assert_contains "$show" "patch $s1 $WORK/series.mbox#1 sched: Four" "show: the mbox's patch"
assert_contains "$show" "failed: make bzImage failed (make: exit status 2)" "show: the failed build"
assert_none_left "$WORK/cwd" "after run"
assert_none_left "$WORK/results" "after run"
