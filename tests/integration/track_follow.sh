#!/bin/bash
# track --follow end to end on a small local git repository (the stand-in
# kernel tree of bisect_git.sh: its Makefile answers tinyconfig,
# olddefconfig and bzImage; the bzImage is the .config and
# kernel/sched/core.c, so it shows which commit was built; it does not
# boot, so each step's run is recorded as failed, with no samples).
# Asserted: which commits a follow runs, computed here by git: --since C2
# --every 2 runs C2, then every 2nd commit after it and the tip; a second
# look (the same --follow again) runs only what the branch gained, every
# 2nd and the tip; a third, nothing. Each step is an ordinary run of the
# config whose kernel was built at that commit (the run's kernel_revision
# has the step's full hash; the build's bzImage holds that commit's
# core.c), in the follow's order. Killed during a step's build (SIGTERM),
# the follow is interrupted, leaves no process, and --resume runs that
# step to its end without a second step of the commit. Detecting and
# bisecting a change on real measurements needs kernels that boot
# (tests/kernels). A few seconds.
source "$(dirname "$0")/lib.sh"

TREE=$WORK/linux
RIG=$WORK/rig # where the rig runs, its database, caches and builds
DB=$RIG/results/schedrig.db
mkdir -p "$RIG"
gitc() {
	git -C "$TREE" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false "$@"
}
mkdir -p "$TREE/kernel/sched"
standin_kernel_tree "$TREE"
gitc init -q -b master
commit() { # N
	printf 'int slice = %s;\n' "$1" >"$TREE/kernel/sched/core.c"
	gitc add -A
	gitc commit -q -m "sched: step $1"
}
for i in 1 2 3 4 5 6; do commit "$i"; done
C2=$(gitc rev-parse HEAD~4)

cat >"$WORK/f.yaml" <<EOF
name: follow
iterations: 1
kernels:
  k: {source: $TREE, commit: master, config: [tinyconfig], make_args: ["SLOW_FLAG=$WORK/slow"]}
variants:
  - {name: tip, boot: qemu, kernel: {build: k}}
loads:
  - {tool: fake}
EOF
"$SCHEDRIG" check-config "$WORK/f.yaml" >/dev/null 2>"$WORK/cc.err" ||
	fail "the config: $(cat "$WORK/cc.err")"

follow() {
	cd "$RIG"
	"$SCHEDRIG" track --follow "$WORK/f.yaml" --branch master --tree "$TREE" --once \
		--db "$DB" "$@"
}
# The commits of first-parent A..B, oldest first: every 2nd and the last.
every2() {
	gitc rev-list --reverse --first-parent "$1..$2" | awk '{c[NR]=$0} END {for (i = 1; i <= NR; i++) if (i % 2 == 0 || i == NR) print c[i]}'
}
# Another schedrig changing knobs on this machine (its knob lock is
# machine-wide) keeps a step's run from beginning; the next look runs such
# a step again, and that is what these tries do (never a step more).
settle() {
	local i
	for i in $(seq 30); do
		[ "$(q "$DB" "SELECT COUNT(*) FROM track_step WHERE run_id IS NULL")" = 0 ] && return 0
		sleep 2
		follow >/dev/null 2>&1 || true
	done
	fail "steps without a run after 30 looks: another schedrig held the knob lock"
}
steps() {
	q "$DB" "SELECT commit_hash FROM track_step WHERE follow_id = 1 ORDER BY seq"
}

out=$(follow --since "$C2" --every 2 2>&1) || fail "the first look: $out"
settle
want=$(echo "$C2"; every2 "$C2" master)
assert_eq "$(steps)" "$want" "the first look's commits (--since, --every 2, the tip)"
assert_eq "$(wc -l <<<"$want")" 3 "three commits of five"

# Each step: one run of its own, its kernel built at its commit.
while IFS='|' read -r seq hash run; do
	[ -n "$run" ] || fail "step $seq has no run: $out"
	assert_eq "$(q "$DB" "SELECT commit_hash FROM kernel_revision WHERE run_id = $run")" \
		"$hash" "step $seq's run's revision"
	n=$(gitc show "$hash:kernel/sched/core.c")
	found=$(grep -l -x -F "$n" "$RIG"/results/cache/builds/*/bzImage 2>/dev/null | head -1)
	[ -n "$found" ] || fail "no build holds step $seq's core.c ($n)"
done < <(q "$DB" "SELECT seq, commit_hash, run_id FROM track_step WHERE follow_id = 1 ORDER BY seq")
assert_eq "$(q "$DB" "SELECT COUNT(DISTINCT run_id) FROM track_step")" 3 "a run per step"
assert_contains "$out" "no samples of fake:value yet" "runs without samples are said"

# The branch moves on: the same --follow goes on with what it gained.
last=$(gitc rev-parse HEAD)
for i in 7 8 9; do commit "$i"; done
out=$(follow 2>&1) || fail "the second look: $out"
assert_contains "$out" "follow 1: going on" "the same follow"
settle
want=$(echo "$want"; every2 "$last" master)
assert_eq "$(steps)" "$want" "the second look runs the new commits, every 2nd and the tip"
assert_eq "$(q "$DB" "SELECT COUNT(*) FROM track_step")" 5 "two more steps"
out=$(follow 2>&1) || fail "the third look: $out"
assert_contains "$out" "0 commit(s) to run" "nothing new"
assert_eq "$(q "$DB" "SELECT COUNT(*) FROM track_step")" 5 "no step for nothing new"

# Killed during a step's build: interrupted, nothing left, --resume ends it.
commit 10
touch "$WORK/slow"
for try in $(seq 10); do
	(cd "$RIG" && exec "$SCHEDRIG" track --follow "$WORK/f.yaml" --branch master \
		--tree "$TREE" --once --db "$DB") >"$WORK/kill.out" 2>&1 &
	pid=$!
	# Until the build sleeps; a run the knob lock kept from beginning ends first.
	while [ ! -e "$WORK/slow.started" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	[ -e "$WORK/slow.started" ] && break
	wait "$pid" || true
	sleep 2
done
[ -e "$WORK/slow.started" ] || fail "the step's build did not begin: $(cat "$WORK/kill.out")"
rm -f "$WORK/slow"
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" -ne 0 ] || fail "a killed follow exited 0: $(cat "$WORK/kill.out")"
assert_contains "$(cat "$WORK/kill.out")" "--resume 1 goes on" "how to go on (exit $rc)"
assert_eq "$(q "$DB" "SELECT status FROM track_follow WHERE id = 1")" interrupted "its status"
assert_none_left "$RIG" "a killed follow"
tip=$(gitc rev-parse HEAD)
out=$(cd "$RIG" && "$SCHEDRIG" track --follow --resume 1 --once --db "$DB" 2>&1) || fail "--resume: $out"
settle
assert_eq "$(q "$DB" "SELECT COUNT(*) FROM track_step WHERE commit_hash = '$tip'")" 1 \
	"one step of the commit the kill stopped"
run=$(q "$DB" "SELECT run_id FROM track_step WHERE commit_hash = '$tip'")
[ -n "$run" ] || fail "the resumed step has no run: $out"
assert_contains "failed complete" "$(q "$DB" "SELECT status FROM run WHERE id = $run")" \
	"the resumed step's run ended"
assert_eq "$(q "$DB" "SELECT commit_hash FROM kernel_revision WHERE run_id = $run")" "$tip" \
	"the resumed step's revision"
assert_none_left "$RIG" "the follow"
echo "ok"
