#!/bin/bash
# timeout_s: 3000
# Kernels from source, for real (part 1 of 2; part 2 is kbuild_2_run.sh):
# `schedrig build` builds Debian's linux-source-6.12 twice with tinyconfig
# plus the guest fragment, vanilla and with configs/patches/latency-nice-6.12/
# (its base: the vanilla entry, the series after it). The cache's builds/
# is emptied first so both really build (the unpacked source in
# cache/sources/ is kept between runs; ccache, when installed, keeps its
# own cache). Asserted: exit 0, two cache entries each with a bzImage that
# is a bzImage ("HdrS" at 0x202), the provenance names the Debian package
# and version, each patch of the series by sha256, file and subject, the
# .config hash, and no difference from the base's .config; no temporary
# directory and no process left; the unpacked tree in cache/sources/ (each
# build's tree is a hard-link copy of it) has no file the builds wrote and
# no file still linked. Cold, with nothing in ccache: about 2 x 8
# minutes on 2 quiet CPUs (see docs/tests.md); the machine's other work stretches
# it. Needs linux-source-6.12 (or apt access), build-essential, bc, flex,
# bison, libelf-dev, libssl-dev (scripts/install-deps).
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=$TOP/results/kbuild-test
DB=$RESULTS/schedrig.db
CACHE=$RESULTS/cache
CONFIG=$RESULTS/kbuild.yaml
mkdir -p "$RESULTS"
rm -rf "$CACHE/builds" "$CACHE/logs"
cd "$TOP"
{ cat tests/kernels/kbuild.yaml; echo "loads: [{tool: hackbench}]"; } >"$CONFIG"

say() {
	echo "[kbuild-test $(date +%T)] $*"
}

t0=$(date +%s)
say "schedrig build $CONFIG (both kernels)"
out=$(CCACHE_DISABLE=1 "$SCHEDRIG" build "$CONFIG" v6.12 --db "$DB" 2>&1) ||
	fail "schedrig build (vanilla, cold) failed: $out"
t_base=$(date +%s)
say "the vanilla kernel cold in $((t_base - t0)) s ($(uptime | sed 's/.*load/load/'))"
out=$out$'\n'$("$SCHEDRIG" build "$CONFIG" --db "$DB" 2>&1) || fail "schedrig build failed: $out"
t1=$(date +%s)
say "built both in $((t1 - t0)) s"
echo "$out"
assert_contains "$out" "kernel v6.12: built $CACHE/builds/" "the vanilla kernel"
assert_contains "$out" "kernel v6.12-latnice: built $CACHE/builds/" "the patched kernel"
assert_eq "$(ls "$CACHE/builds" | wc -l)" 2 "two cache entries"
assert_eq "$(ls -A "$CACHE/builds" | grep -c '^\.tmp' || true)" 0 "no temporary directory left"
assert_none_left "$CACHE" "after the builds"

entry_of() { # KERNEL: the cache entry whose provenance names it
	grep -l "^kernel $1\$" "$CACHE"/builds/*/provenance.txt | xargs dirname
}
base=$(entry_of v6.12)
ln=$(entry_of v6.12-latnice)
for e in "$base" "$ln"; do
	assert_eq "$(dd if="$e/bzImage" bs=1 skip=514 count=4 2>/dev/null)" HdrS "$e/bzImage is a bzImage"
	pv=$(cat "$e/provenance.txt")
	assert_contains "$pv" "source linux-source-6.12 tarball $(sha256sum </usr/src/linux-source-6.12.tar.xz | cut -d' ' -f1) (debian linux-source-6.12 6.12." "the source"
	assert_contains "$pv" "config_sha256 $(sha256sum <"$e/config" | cut -d' ' -f1)" "the .config hash"
	assert_contains "$pv" "config tinyconfig guest" "the config items"
	assert_contains "$pv" "tool cc $(realpath "$(command -v gcc)") (gcc version" "the compiler"
	grep -q '^CONFIG_VIRTIO_CONSOLE=y$' "$e/config" || fail "$e/config lacks the guest's virtio console"
done
pv=$(cat "$ln/provenance.txt")
for p in configs/patches/latency-nice-6.12/*.patch; do
	sub=$(sed -n 's/^Subject: \[PATCH [0-9/]*\] //p' "$p")
	assert_contains "$pv" "patch $(sha256sum <"$p" | cut -d' ' -f1) $p" "the patch $p"
	assert_contains "$pv" "$sub" "the subject of $p"
done
assert_eq "$(grep -c '^patch ' "$ln/provenance.txt")" 4 "four patches"
assert_contains "$pv" "config_diff none" "the series changes no config option"
assert_contains "$pv" "build from the objects of $(basename "$base")" "the patched kernel from the base's objects"
assert_eq "$(grep -c '^placed ' "$ln/provenance.txt" || true)" 0 "hunks placed with an offset or fuzz"
written=$(find "$CACHE/sources" -mindepth 2 -type f -newermt "@$t0" | head -3)
assert_eq "$written" "" "files of the cached tree the builds wrote"
linked=$(find "$CACHE/sources" -type f -links +1 | head -3)
assert_eq "$linked" "" "files of the cached tree still linked after the builds"
for e in "$base" "$ln"; do
	say "$(sed -n 's/^kernel //p' "$e/provenance.txt"): $(sed -n 's/^build_s //p' "$e/provenance.txt") s (copy, patches, config, make)"
done
say "ok"
