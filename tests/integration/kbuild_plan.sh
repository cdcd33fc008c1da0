#!/bin/bash
# What check-config and run --dry-run say a kernel will cost before
# anything is built (kbuild_plan.c), over a stand-in tree (standin.bash):
# b (the tree) and k = b + one patch. With an empty cache both are "built
# cold" and no time is known; once b is built, k "will be built from the
# objects of its base b" with b's key (the key `schedrig build` printed)
# and b "is cached" with that key; once k is built too, k "is cached" with
# its key, and b's cold time is the estimate of a cold build of the same
# source. An edit of the tree makes b cold again. run --dry-run says the
# same as check-config. Nothing is built by either. About 5 s here.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/standin.bash"

SRC=$WORK/linux
make_standin "$SRC"
mkdir -p "$WORK/series"
standin_patch "int fair = 1;" "int fair = 2;" "sched: Fair two" >"$WORK/series/0001-two.patch"
CONFIG=$WORK/k.yaml
cat >"$CONFIG" <<EOF
name: kbuild-plan
kernels:
  b: {source: $SRC, config: [tinyconfig]}
  k: {base: b, patches: [$WORK/series/]}
variants:
  - {name: vb, boot: qemu, kernel: {build: b}}
  - {name: vk, boot: qemu, kernel: {build: k}}
loads: [{tool: hackbench}]
EOF
DB=$WORK/results/schedrig.db
builds() { find "$WORK/results/cache/builds" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l; }

plan() { # check-config's notes, checked against run --dry-run's
	local cc dry
	cc=$("$SCHEDRIG" check-config "$CONFIG" --db "$DB" 2>&1) || fail "check-config: $cc"
	dry=$("$SCHEDRIG" run "$CONFIG" --dry-run --db "$DB" 2>&1) || fail "run --dry-run: $dry"
	for name in b k; do
		local line
		line=$(grep "note: kernel $name " <<<"$cc") || fail "check-config says nothing of $name: $cc"
		assert_contains "$dry" "${line#*note: }" "run --dry-run on $name"
	done
	PLAN=$cc
}

plan
assert_contains "$PLAN" "note: kernel b will be built cold; how long is not known here yet" "b, empty cache"
assert_contains "$PLAN" "note: kernel k will be built cold; " "k, empty cache"
assert_eq "$(builds)" 0 "entries after check-config and --dry-run"

out=$("$SCHEDRIG" build "$CONFIG" vb --db "$DB" 2>&1) || fail "build b: $out"
key_b=$(sed -n 's/^kernel b: built .*(key \([0-9a-f]*\),.*/\1/p' <<<"$out")
[ -n "$key_b" ] || fail "no key for b in: $out"
plan
assert_contains "$PLAN" "note: kernel b is cached (key $key_b;" "b once built"
assert_contains "$PLAN" "note: kernel k will be built from the objects of its base b (key $key_b)" \
	"k once b is built"

out=$("$SCHEDRIG" build "$CONFIG" vk --db "$DB" 2>&1) || fail "build k: $out"
key_k=$(sed -n 's/^kernel k: built .*(key \([0-9a-f]*\),.*/\1/p' <<<"$out")
assert_contains "$out" "from its base's objects" "k built from b's objects"
plan
assert_contains "$PLAN" "note: kernel k is cached (key $key_k;" "k once built"

# A same-size edit with its mtime set back: b's key is gone, so it is cold
# again, and the cold build of this source before is the estimate.
cp -p "$SRC/kernel/sched/core.c" "$WORK/core.c.orig"
sed -i 's/int slice = 3;/int slice = 4;/' "$SRC/kernel/sched/core.c"
touch -r "$WORK/core.c.orig" "$SRC/kernel/sched/core.c"
n=$(builds)
plan
assert_contains "$PLAN" "note: kernel b will be built cold; " "b after an edit"
! grep -q "note: kernel b is cached" <<<"$PLAN" || fail "b still cached after an edit: $PLAN"
assert_eq "$(builds)" "$n" "entries after planning the edited tree"
