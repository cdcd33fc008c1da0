#!/bin/bash
# Kernels at a commit of a git repository, and bisecting a git range,
# without a kernel: a small git repository whose Makefile answers
# tinyconfig, olddefconfig and bzImage the way the kernel's does (the
# bzImage is the .config and the source file, so it shows which commit was
# built). Asserted: a kernels: entry with commit: builds that commit's tree,
# not the work tree (uncommitted changes and untracked files stay out), and
# the user's repository is untouched (HEAD, refs, index, status, no
# worktree); the provenance names the full hash and git describe; a commit
# that does not resolve is refused by check-config, run --dry-run, build,
# run and bisect with its position, before anything runs; schedrig bisect
# over two commits stores the series of `git rev-list --first-parent
# good..bad` (computed here by git, oldest first; a merged side branch is
# not a point) with each commit's hash and subject, and every stored point's
# config builds exactly its commit and names no tag or branch (deleting
# one leaves every point's config valid); a build with a relative --db
# works (git archive's output is not read in the repository); a range
# that cannot be bisected is a usage error saying why. Measuring the points needs a real kernel (the
# stand-in bzImage does not boot): tests/kernels/git_bisect.sh. A few
# seconds here (about 10 s on this loaded machine).
source "$(dirname "$0")/lib.sh"

TREE=$WORK/linux
DB=$WORK/results/schedrig.db
CACHE=$WORK/results/cache
gitc() {
	git -C "$TREE" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false "$@"
}
mkdir -p "$TREE/kernel/sched"
standin_kernel_tree "$TREE"
gitc init -q -b master
commit() { # VALUE SUBJECT
	printf 'int slice = %s;\n' "$1" >"$TREE/kernel/sched/core.c"
	gitc add -A
	gitc commit -q -m "$2"
}
commit 1 "sched: one"
gitc tag v1
commit 2 "sched: two"
gitc checkout -q -b topic
echo "int side;" >"$TREE/side.c"
gitc add side.c
gitc commit -q -m "side: a branch merged below"
gitc checkout -q master
commit 3 "sched/fair: three, the regression"
gitc merge -q --no-ff -m "Merge branch 'topic'" topic
commit 4 "sched: four"
gitc tag v2
# The user's work in progress: a change and a file git does not track.
echo "int slice = 99;" >"$TREE/kernel/sched/core.c"
echo junk >"$TREE/untracked.c"
repo_state() {
	gitc rev-parse HEAD
	gitc for-each-ref
	gitc status --porcelain
	gitc worktree list --porcelain
	sha256sum "$TREE/.git/index" "$TREE/kernel/sched/core.c"
}
before=$(repo_state)

cat >"$WORK/g.yaml" <<EOF
name: git-range
iterations: 1
kernels:
  good: {source: $TREE, commit: v1, config: [tinyconfig]}
  bad:  {base: good, commit: v2}
variants:
  - {name: rc1, boot: qemu, kernel: {build: good}}
  - {name: rc2, boot: qemu, kernel: {build: bad}}
loads:
  - {tool: fake}
EOF

# A commit that does not resolve: refused before anything runs, at its
# position, by every command that reads the config.
sed 's/commit: v2/commit: v3/' "$WORK/g.yaml" >"$WORK/nope.yaml"
line=$(grep -n 'commit: v3' "$WORK/nope.yaml" | cut -d: -f1)
col=$(($(grep 'commit: v3' "$WORK/nope.yaml" | sed 's/v3.*//' | wc -c)))
want="$WORK/nope.yaml:$line:$col: kernel 'bad': commit: 'v3' is not a commit of $TREE (no such revision)"
for cmd in check-config "run --dry-run" build run; do
	rc=0
	out=$("$SCHEDRIG" $cmd "$WORK/nope.yaml" --db "$DB" 2>&1) || rc=$?
	assert_eq "$rc" 2 "exit status of $cmd with a commit that does not resolve"
	assert_contains "$out" "$want" "$cmd with a commit that does not resolve"
done
[ ! -e "$DB" ] || fail "a refused config created the database"
rc=0
out=$("$SCHEDRIG" bisect "$WORK/nope.yaml" --good rc1 --bad rc2 --db "$WORK/n.db" 2>&1) || rc=$?
assert_eq "$rc" 2 "exit status of bisect with a commit that does not resolve"
assert_contains "$out" "kernels: bad: commit: 'v3' is not a commit of $TREE" "bisect's message"
[ ! -e "$WORK/n.db" ] || fail "a refused bisection made its database"

# A kernel at a commit: that commit's tree, with its hash and describe.
out=$("$SCHEDRIG" build "$WORK/g.yaml" rc1 --db "$DB" 2>&1) || fail "build: $out"
assert_contains "$out" "kernel good: built $CACHE/builds/" "the build at v1"
v1=$(gitc rev-parse v1)
entry=$(dirname "$(grep -l '^kernel good$' "$CACHE"/builds/*/provenance.txt)")
assert_eq "$(cat "$entry/bzImage")" "$(printf 'CONFIG_64BIT=y\nint slice = 1;')" \
	"the bzImage is v1's tree, not the work tree"
assert_contains "$(cat "$entry/provenance.txt")" "source $TREE git commit $v1 (v1)" \
	"the provenance: full hash and git describe"
assert_eq "$(repo_state)" "$before" "the user's repository after a build"
assert_eq "$(ls "$CACHE/sources" | grep -c 'tar' || true)" 0 "no archive left in the cache"
assert_eq "$(find "$CACHE/sources" -mindepth 1 -maxdepth 1 -type d | wc -l)" 1 \
	"one unpacked tree of the commit"

# bisect: the series is the first-parent range, oldest first.
rc=0
"$SCHEDRIG" bisect "$WORK/g.yaml" --good rc1 --bad rc2 --db "$DB" >"$WORK/bisect.out" 2>&1 || rc=$?
assert_contains "$(cat "$WORK/bisect.out")" "bisection 1: 5 points (commits) from rc1 (good) to rc2 (bad)" \
	"the series"
assert_eq "$(q "$DB" "SELECT kind FROM bisection WHERE id = 1")" commits "the provider stored"
# The good end's run (it fails: the stand-in bzImage does not boot) shows
# which commit its kernel is.
run=$(q "$DB" "SELECT run_id FROM bisect_run WHERE bisection_id = 1 AND k = 0")
assert_contains "$("$SCHEDRIG" show "$run" --db "$DB")" "source $TREE git commit $v1 (v1)" \
	"schedrig show of the good end's run"
want=$(echo "0 rc1 commit $v1 (the good end)"
	k=1
	gitc rev-list --first-parent --reverse v1..v2 | while read -r h; do
		name="rc1-${h:0:12}"
		[ "$h" = "$(gitc rev-parse v2)" ] && name=rc2
		echo "$k $name commit $h $(gitc log -1 --format=%s "$h")"
		k=$((k + 1))
	done)
got=$(q "$DB" "SELECT k || ' ' || name || ' ' || label FROM bisect_point WHERE bisection_id = 1 ORDER BY k")
assert_eq "$got" "$want" "the points: git rev-list --first-parent v1..v2, oldest first"
assert_contains "$got" "commit $(gitc rev-parse master~2) sched/fair: three, the regression" \
	"a commit named by hash and subject"
case "$got" in *"side: a branch"*) fail "a commit of the merged branch is a point" ;; esac
# Every point's config builds its own commit (the merge's tree is the third
# commit's plus side.c).
slice=(1 2 3 3 4)
for k in 0 1 2 3 4; do
	q "$DB" "SELECT config_text FROM bisect_point WHERE bisection_id = 1 AND k = $k" >"$WORK/p$k.yaml"
	name=$(q "$DB" "SELECT name FROM bisect_point WHERE bisection_id = 1 AND k = $k")
	out=$("$SCHEDRIG" build "$WORK/p$k.yaml" --db "$DB" 2>&1) || fail "build of point $k: $out"
	img=$(sed -n 's/^kernel .*: \(built\|cached\) \([^ ]*bzImage\) .*/\2/p' <<<"$out")
	assert_eq "$(tail -1 "$img")" "int slice = ${slice[$k]};" "the bzImage of point $k ($name)"
done
assert_eq "$(find "$CACHE/sources" -mindepth 1 -maxdepth 1 -type d | wc -l)" 5 \
	"one unpacked tree per commit"
assert_eq "$(repo_state)" "$before" "the user's repository after the bisection"

# No point's config names a tag or branch: with v2 gone (as a branch that
# moved or a tag deleted before --resume), every point's config still reads.
v2=$(gitc rev-parse v2)
gitc tag -d v2 >/dev/null
for k in 0 1 2 3 4; do
	out=$("$SCHEDRIG" check-config "$WORK/p$k.yaml" 2>&1) || fail "point $k without tag v2: $out"
done
# --resume makes the series again from the ends' pinned commits (stored
# in point 0's config), so v2 gone changes nothing: the good end, whose
# stand-in kernel failed to boot, is measured again.
rc=0
out=$("$SCHEDRIG" bisect --resume 1 --db "$DB" 2>&1) || rc=$?
assert_contains "$out" "point 0 rc1: run $run failed: measuring it again" "--resume with v2 gone"
gitc tag v2 "$v2"
assert_eq "$(repo_state)" "$before" "the user's repository with v2 tagged again"

# A relative --db, as the default results/schedrig.db is: the commit's
# archive is written below the directory schedrig runs in (git -C reads a
# relative path in the repository).
mkdir -p "$WORK/rel"
out=$(cd "$WORK/rel" && "$SCHEDRIG" build "$WORK/g.yaml" rc2 --db results/schedrig.db 2>&1) ||
	fail "build with a relative --db: $out"
img=$(sed -n 's/^kernel .*: built \([^ ]*bzImage\) .*/\1/p' <<<"$out")
assert_eq "$img" "$WORK/rel/results/cache/builds/${img#"$WORK/rel/results/cache/builds/"}" \
	"the bzImage's path with a relative --db, absolute"
assert_eq "$(tail -1 "$img")" "int slice = 4;" "the bzImage at v2 with a relative --db"
assert_eq "$(repo_state)" "$before" "the user's repository after a build with a relative --db"

# Ranges that cannot be bisected are usage errors that say why.
usage() { # EXPECTED-MESSAGE GOOD-COMMIT BAD-COMMIT [EXTRA-OF-BAD]
	local rc=0 err
	sed -e "/^  good:/s/commit: v1/commit: $2/" -e "/^  bad:/s/commit: v2/commit: $3${4:-}/" \
		"$WORK/g.yaml" >"$WORK/u.yaml"
	err=$("$SCHEDRIG" bisect "$WORK/u.yaml" --good rc1 --bad rc2 --db "$WORK/u.db" 2>&1) || rc=$?
	assert_eq "$rc" 2 "exit status of bisecting $2..$3${4:-}"
	assert_contains "$err" "$1" "message of bisecting $2..$3${4:-}"
}
usage "is not after --good rc1 (v2)" v2 v1
usage "is not on the first-parent line of --bad rc2's" topic v2
usage "build the same commit $(gitc rev-parse v2) of $TREE: nothing to bisect" master v2
usage "kernels: good and bad differ in config: as well as in commit:" v1 v2 ", config: [defconfig]"
[ ! -e "$WORK/u.db" ] || [ "$(q "$WORK/u.db" "SELECT count(*) FROM bisection")" = 0 ] ||
	fail "a usage error recorded a bisection"
assert_none_left "$WORK" "after the bisection"
