#!/bin/bash
# The "rig cpu:" note measures the rig while its variants run: CPU time of
# the schedrig process (getrusage deltas) over the wall time of that period,
# so what it spent starting up does not count. A run whose only variant fails
# at once (a qemu "kernel" that is no kernel, which qemu refuses) lasts a
# moment: counting the start-up made that 300 % of one CPU; the rig has one
# thread at work, so its CPU time cannot exceed the wall time. The note is
# for benchmarks of the rig: in the database and in schedrig show, not in a
# run's output.
source "$(dirname "$0")/lib.sh"
DB=$WORK/c.db
cp /bin/true "$WORK/not-a-kernel"  # ELF, no kernel: passes preflight, never boots
cat >"$WORK/gone.yaml" <<EOF2
name: gone
iterations: 1
variants: [{name: v, boot: qemu, kernel: $WORK/not-a-kernel}]
loads: [{tool: fake}]
EOF2
cat >"$WORK/short.yaml" <<'EOF2'
name: short
iterations: 1
loads: [{tool: fake}]
EOF2

# check_note RUN_ID: user_s + system_s <= wall_s, give or take 20 us (getrusage
# truncates each of the four times it reads to whole microseconds).
check_note() {
	local note
	note=$(q "$DB" "SELECT message FROM event WHERE run_id = $1 AND message LIKE 'rig cpu:%'")
	[ -n "$note" ] || fail "run $1 has no rig cpu note"
	echo "$note" | awk '{
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (!(v["wall_s"] > 0) || v["user_s"] + v["system_s"] > v["wall_s"] + 0.00002) exit 1
	}' || fail "run $1: $note"
}

for i in 1 2 3; do
	rc=0
	"$SCHEDRIG" run "$WORK/gone.yaml" --db "$DB" >"$WORK/out" 2>&1 || rc=$?
	assert_eq "$rc" 1 "a run whose variant fails ($(cat "$WORK/out"))"
	check_note "$(q "$DB" "SELECT max(id) FROM run")"
	"$SCHEDRIG" run "$WORK/short.yaml" --db "$DB" >"$WORK/out" 2>&1 || fail "short run: $(cat "$WORK/out")"
	check_note "$(q "$DB" "SELECT max(id) FROM run")"
done
assert_eq "$(q "$DB" "SELECT count(*) FROM event WHERE message LIKE 'rig cpu:%'")" 6 "one note per run"
# In show, not in the run's output.
case "$(cat "$WORK/out")" in *"rig cpu"*) fail "the rig cpu note in a run's output: $(cat "$WORK/out")" ;; esac
assert_contains "$("$SCHEDRIG" show --db "$DB" latest)" "note: rig cpu: user_s=" "the rig cpu note in show"
