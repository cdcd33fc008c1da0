#!/bin/bash
# track --follow acting on a regression it finds (the stand-in tree of
# track_follow.sh: it builds, never boots). The history is made by hand:
# 12 runs of the follow's config name and variant with the fake load, at
# commits C1..C12 of the tree (kernel_revision rewritten to kind 'git'),
# mean 100 at C1..C6 and 108 from C7 (spread 1 %): one regression C6 ->
# C7 with one commit between, so the follow names C7 the first bad commit
# without a bisection. Asserted: the follow handles that new change and
# mails it (--mail-dir, made at start though it did not exist) without a
# crash (it freed a stack variable: munmap_chunk(), SIGSEGV), the change
# is stored once with that verdict, and a second look handles it no more.
# A --mail-dir that cannot be made is refused with exit 2 before any
# step. A few seconds.
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
for i in $(seq 12); do
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
# The history: runs of config 'follow', variant 'tip', on this host.
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
for i in $(seq 12); do run_at "$([ "$i" -lt 7 ] && echo 100 || echo 108)" "$i"; done
# Another schedrig may change THP or the latency limit meanwhile: the
# history would rightly split (track.sh tests that); made equal here.
q "$DB" "UPDATE host_state SET value = (SELECT h.value FROM host_state h WHERE
	h.field = host_state.field AND h.variant_id IS NOT NULL ORDER BY h.run_id LIMIT 1)
	WHERE stable = 1 AND variant_id IS NOT NULL"

follow() {
	cd "$RIG"
	"$SCHEDRIG" track --follow "$WORK/f.yaml" --branch master --tree "$TREE" --once \
		--db "$DB" "$@"
}
# A mail directory that cannot be made: refused before anything runs.
touch "$WORK/file"
rc=0; out=$(follow --since "${C[11]}" --from a@example.org --to b@example.org --mail-dir "$WORK/file/mail" 2>&1) || rc=$?
assert_eq "$rc" 2 "a --mail-dir that cannot be made: exit 2 ($out)"
assert_contains "$out" "--mail-dir $WORK/file/mail" "which directory"
assert_eq "$(q "$DB" "SELECT COUNT(*) FROM track_follow")" 0 "no follow began"

rc=0; out=$(follow --since "${C[11]}" --from a@example.org --to b@example.org --mail-dir "$WORK/mail" 2>&1) || rc=$?
[ "$rc" -lt 128 ] || fail "the follow died of signal $((rc - 128)): $out"
assert_eq "$rc" 0 "the follow's exit ($out)"
assert_contains "$out" "a regression; 1 commit(s) in the range" "the change found"
assert_contains "$out" "first bad commit ${C[6]}" "the one commit between is the verdict"
assert_eq "$(q "$DB" "SELECT before_commit || ' ' || after_commit FROM track_change")" \
	"${C[5]} ${C[6]}" "the change stored once, C6 -> C7"
assert_contains "$(q "$DB" "SELECT result FROM track_change")" "first bad commit ${C[6]}" \
	"its stored verdict"
[ -n "$(q "$DB" "SELECT mailed_at FROM track_change")" ] || fail "not marked mailed: $out"
mails=$(ls "$WORK/mail")
[ -n "$mails" ] || fail "no mail in the --mail-dir: $out"
assert_contains "$(cat "$WORK/mail"/*)" "${C[6]}" "the mail names the commit"

out=$(follow 2>&1) || fail "the second look: $out"
assert_eq "$(q "$DB" "SELECT COUNT(*) FROM track_change")" 1 "handled once"
assert_eq "$(ls "$WORK/mail")" "$mails" "mailed once"
assert_none_left "$RIG" "the follow"
echo "ok"
