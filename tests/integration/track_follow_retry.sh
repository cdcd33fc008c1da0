#!/bin/bash
# track --follow telling a bisection's verdict from a stop of the machine
# (the stand-in tree of track_follow.sh: it builds, never boots). The
# history is made by hand as in track_follow_change.sh: runs at C1..C7 of
# mean 100 and at C10..C16 of 108, so the follow finds one regression C7
# -> C10 with 3 commits between and bisects it. The bisection's ends are runs
# of the stand-in kernel, which does not come up: the bisection stops
# (status failed), not a verdict. Asserted: that change is stored
# retryable after attempt 1 and not mailed; --resume says it retries
# (attempt 2 of 3) and does; when the bisection then has a verdict (here
# completed by hand in the database, as a user's own `bisect --resume`
# on a machine where the kernel boots would), the next --resume's attempt
# 3 takes it: stored a verdict, and mailed (schedrig mail refuses this
# hand-made one); a further --resume re-runs nothing. A second follow whose bisection fails 3 times is stored
# retryable with no attempt left, mailed as failed, and not bisected a 4th
# time. About a minute.
source "$(dirname "$0")/lib.sh"

TREE=$WORK/linux
RIG=$WORK/rig
DB=$RIG/results/schedrig.db
mkdir -p "$RIG/results" "$TREE/kernel/sched"
gitc() {
	git -C "$TREE" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false "$@"
}
standin_kernel_tree "$TREE"
gitc init -q -b master
for i in $(seq 16); do
	printf 'int slice = %s;\n' "$i" >"$TREE/kernel/sched/core.c"
	gitc add -A
	gitc commit -q -m "sched: step $i"
done
mapfile -t C < <(gitc rev-list --reverse --first-parent master)

cat >"$WORK/f.yaml" <<EOF
name: follow
iterations: 1
kernels:
  k: {source: $TREE, commit: master, config: [tinyconfig]}
variants:
  - {name: tip, boot: qemu, kernel: {build: k}}
loads:
  - {tool: fake}
EOF
run_at() { # MEAN N
	cat >"$WORK/h.yaml" <<EOF
name: follow
iterations: 3
variants:
  - {name: tip, boot: local}
loads:
  - {tool: fake, params: {mean: $1, spread_pct: 1, seed: 5, state_file: "$WORK/h.state"}}
EOF
	local try
	for try in $(seq 30); do
		(cd "$RIG" && "$SCHEDRIG" run "$WORK/h.yaml" --db "$DB" --revision "r$2" --quiet) \
			>"$WORK/run.out" 2>&1 && break
		grep -q "is changing kernel knobs on this machine" "$WORK/run.out" ||
			fail "run at r$2: $(cat "$WORK/run.out")"
		sleep 2
	done
	q "$DB" "UPDATE kernel_revision SET kind = 'git', commit_hash = '${C[$2 - 1]}',
		source = '$TREE' WHERE revision = 'r$2'"
}
for i in 1 2 3 4 5 6 7; do run_at 100 "$i"; done
for i in 10 11 12 13 14 15 16; do run_at 108 "$i"; done
q "$DB" "UPDATE host_state SET value = (SELECT h.value FROM host_state h WHERE
	h.field = host_state.field AND h.variant_id IS NOT NULL ORDER BY h.run_id LIMIT 1)
	WHERE stable = 1 AND variant_id IS NOT NULL"
cp "$DB" "$WORK/history.db"

follow() {
	cd "$RIG"
	"$SCHEDRIG" track --follow "$WORK/f.yaml" --branch master --tree "$TREE" --once \
		--db "$DB" "$@"
}
resume() {
	(cd "$RIG" && "$SCHEDRIG" track --follow --resume 1 --once --db "$DB")
}
change() { # the change's outcome and attempts
	q "$DB" "SELECT outcome || ' ' || attempts FROM track_change"
}
mails() { ls "$WORK/mail" 2>/dev/null | wc -l; }

out=$(follow --since "${C[15]}" --from a@example.org --to b@example.org --mail-dir "$WORK/mail" 2>&1) ||
	fail "the first look: $out"
assert_contains "$out" "a regression; 3 commit(s) in the range" "the change found"
assert_contains "$out" "stopped, not a verdict (attempt 1 of 3)" "attempt 1 said retryable"
assert_eq "$(change)" "retryable 1" "stored retryable after attempt 1"
assert_eq "$(q "$DB" "SELECT status FROM bisection")" failed "the bisection's own status"
assert_eq "$(mails)" 0 "a retryable change is not mailed yet"

out=$(resume 2>&1) || fail "the first --resume: $out"
assert_contains "$out" "retrying bisection 1 (attempt 2 of 3)" "the retry said"
assert_eq "$(change)" "retryable 2" "attempt 2 stored"
assert_eq "$(q "$DB" "SELECT COUNT(*) FROM bisection")" 1 "the same bisection resumed"

# The bisection done elsewhere (its verdict in its own row).
q "$DB" "UPDATE bisection SET status = 'complete',
	result = 'First bad point: ${C[8]:0:12} (confirmed: 3 rounds)' WHERE id = 1"
out=$(resume 2>&1) || fail "the second --resume: $out"
assert_contains "$out" "retrying bisection 1 (attempt 3 of 3)" "the last retry said"
assert_contains "$out" "first bad commit confirmed by the bisection: ${C[8]:0:12}" "its verdict"
assert_eq "$(change)" "verdict 3" "the verdict stored"
# Final now, so mailed: schedrig mail itself refuses a bisection whose
# runs do not hold its verdict (this one's was written by hand).
assert_contains "$out" "change 1: the mail failed" "the verdict's mail tried"
assert_contains "$(cat "$RIG/results/track/1/mail-1.log")" "not mailing it" "the mail's reason"
out=$(resume 2>&1) || fail "the third --resume: $out"
case "$out" in *"retrying"* | *"bisecting"*) fail "a verdict bisected again: $out" ;; esac
assert_eq "$(change)" "verdict 3" "a verdict is not re-run"

# A bisection that fails every time: 3 attempts, then final.
rm -rf "$RIG/results/track" "$WORK/mail"
cp "$WORK/history.db" "$DB"
rm -f "$DB-wal" "$DB-shm"
out=$(follow --since "${C[15]}" --from a@example.org --to b@example.org --mail-dir "$WORK/mail" 2>&1) ||
	fail "the first look again: $out"
for n in 2 3; do
	out=$(resume 2>&1) || fail "--resume for attempt $n: $out"
	assert_contains "$out" "retrying bisection 1 (attempt $n of 3)" "retry $n said"
done
assert_contains "$out" "no attempt left: not retried again" "the last attempt said final"
assert_eq "$(change)" "retryable 3" "3 attempts stored"
assert_eq "$(mails)" 1 "the failure mailed once it is final"
out=$(resume 2>&1) || fail "--resume after the last attempt: $out"
case "$out" in *"retrying"* | *"bisecting"*) fail "bisected a 4th time: $out" ;; esac
assert_eq "$(change)" "retryable 3" "no 4th attempt"
assert_eq "$(mails)" 1 "not mailed again"
assert_none_left "$RIG" "the follow"
echo "ok"
