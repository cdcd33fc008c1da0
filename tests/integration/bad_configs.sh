#!/bin/bash
# Hostile and careless configs: every tests/configs-bad/NAME.yaml is refused by
# `schedrig check-config` and by `schedrig run --dry-run` with exit status 2
# and exactly the one stderr line in NAME.expected ("file:line:col: message",
# the file as passed on the command line: we run from tests/configs-bad).
# Also a config over 1 MiB (generated here), and one of exactly 1 MiB that is
# accepted. Nothing is created and nothing runs.
source "$(dirname "$0")/lib.sh"

cd "$TESTS_DIR/configs-bad"
n=0
for f in *.yaml; do
	name=${f%.yaml}
	[ -f "$name.expected" ] || fail "$f has no $name.expected"
	want=$(cat "$name.expected")
	for mode in check-config dry-run; do
		rc=0
		if [ "$mode" = check-config ]; then
			"$SCHEDRIG" check-config "$f" >"$WORK/out" 2>"$WORK/err" || rc=$?
		else
			"$SCHEDRIG" run --dry-run --db "$WORK/never.db" "$f" >"$WORK/out" 2>"$WORK/err" ||
				rc=$?
		fi
		assert_eq "$rc" 2 "$f ($mode) exit status"
		assert_eq "$(cat "$WORK/err")" "$want" "$f ($mode) stderr"
		[ ! -s "$WORK/out" ] || fail "$f ($mode) printed on stdout: $(cat "$WORK/out")"
	done
	n=$((n + 1))
done
[ "$n" -ge 50 ] || fail "only $n malformed configs in tests/configs-bad (want at least 50)"
[ ! -e "$WORK/never.db" ] || fail "run --dry-run of a bad config created the database"

# Every .expected has its config.
for e in *.expected; do
	[ -f "${e%.expected}.yaml" ] || fail "$e has no ${e%.expected}.yaml"
done

# Size limit: a valid config padded with comments to exactly 1 MiB is read;
# one byte more is refused with the file's real size.
cd "$WORK"
make_padded() { # FILE BYTES
	printf 'name: big\nloads:\n  - tool: tcp-rr\n' >"$1"
	local have
	have=$(stat -c %s "$1")
	{
		while [ "$have" -lt "$(($2 - 100))" ]; do
			printf '#%098d\n' 0
			have=$((have + 100))
		done
		printf '#%0*d\n' $(($2 - have - 2)) 0
	} >>"$1"
	assert_eq "$(stat -c %s "$1")" "$2" "size of generated $1"
}
make_padded limit.yaml 1048576
out=$("$SCHEDRIG" check-config limit.yaml 2>&1) || fail "a config of exactly 1 MiB was refused: $out"
assert_contains "$out" "limit.yaml: ok (big," "1 MiB config"
make_padded huge.yaml 1048577
for mode in check-config dry-run; do
	rc=0
	if [ "$mode" = check-config ]; then
		"$SCHEDRIG" check-config huge.yaml >/dev/null 2>err || rc=$?
	else
		"$SCHEDRIG" run --dry-run --db "$WORK/never.db" huge.yaml >/dev/null 2>err || rc=$?
	fi
	assert_eq "$rc" 2 "huge.yaml ($mode) exit status"
	assert_eq "$(cat err)" "huge.yaml:1:1: config is larger than 1 MiB (1048577 bytes)" \
		"huge.yaml ($mode) stderr"
done
# Far larger (64 MiB, sparse): still refused with its real size, quickly.
truncate -s 64M sparse.yaml
rc=0
"$SCHEDRIG" check-config sparse.yaml 2>err || rc=$?
assert_eq "$rc" 2 "sparse.yaml exit status"
assert_eq "$(cat err)" "sparse.yaml:1:1: config is larger than 1 MiB (67108864 bytes)" \
	"sparse.yaml stderr"
[ ! -e "$WORK/never.db" ] || fail "run --dry-run of a bad config created the database"
echo "$n malformed configs refused with the expected message"
