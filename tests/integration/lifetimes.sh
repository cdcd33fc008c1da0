#!/bin/bash
# A background load lives as long as the measured loads: its timeout_s
# guards its start-up (the warm-up) and its stop only. Here the background
# loads have timeout_s 1 under a measured load of 4 s (the same rule as a
# 600 s default under a 17-minute kernel build): tcp-rr runs the whole
# window, is stopped, and reports the transactions it made up to the stop;
# a repeating hackbench runs again and again past its 1 s; nothing is a
# timeout and the iteration is complete. A timeout_s shorter than warmup_s
# is refused before anything runs, and dry-run says at plan time that a
# background tool which cannot report a cut run yields samples only from
# runs that fit in the window.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
command -v hackbench >/dev/null || fail "hackbench is not installed (scripts/install-deps)"

cat >life.yaml <<'EOF'
name: lifetimes
iterations: 1
warmup_s: 0.3
loads:
  - name: rr
    tool: tcp-rr
    role: background
    timeout_s: 1
    params: {pairs: 1, duration_s: 0}
  - name: hb
    tool: hackbench
    role: background
    repeat: true
    timeout_s: 1
    params: {mode: process, ipc: pipe, groups: 1, loops: 200}
  - name: wl
    tool: wakeup-lat
    timeout_s: 30
    params: {runtime_s: 4}
EOF
rc=0
"$SCHEDRIG" run life.yaml --db life.db --quiet >out 2>err || rc=$?
assert_eq "$rc" 0 "exit status ($(cat err))"
assert_eq "$(q life.db "SELECT status FROM iteration")" complete "iteration status"
assert_eq "$(q life.db "SELECT count(*) FROM load_instance WHERE state = 'timeout'")" 0 \
	"timed-out instances"
# tcp-rr: one instance for the whole window, well past its timeout_s,
# stopped by the rig and parsed (state ok), with its transactions.
row=$(q life.db "SELECT count(*), min(elapsed_s) >= 4, max(state) FROM load_instance WHERE name = 'rr'")
assert_eq "$row" "1|1|ok" "tcp-rr: one instance, at least 4 s, parsed after its stop"
n=$(q life.db "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'rr' AND s.metric = 'transactions'")
[ "$n" -ge 1 ] || fail "tcp-rr stored no transactions sample"
tps=$(q life.db "SELECT min(value) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'rr' AND s.metric = 'transactions'")
awk -v v="$tps" 'BEGIN { exit !(v > 0) }' || fail "tcp-rr transactions '$tps' not > 0"
# hackbench: several runs inside the window, each ok with its time; the
# last one cut by the stop; on a fast machine one or more end within the
# 0.3 s warm-up (state warmup, no sample).
reps=$(q life.db "SELECT count(*) FROM load_instance WHERE name = 'hb' AND state = 'ok'")
[ "$reps" -ge 2 ] || fail "only $reps complete hackbench runs in a 4 s window"
assert_eq "$(q life.db "SELECT count(*) FROM load_instance WHERE name = 'hb' AND state NOT IN ('ok', 'stopped', 'warmup')")" \
	0 "hackbench runs neither ok, stopped nor warmup ($(q life.db "SELECT state, reason FROM load_instance WHERE name = 'hb'"))"
assert_eq "$(q life.db "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'hb' AND li.state = 'ok'")" "$reps" "one hackbench time per complete run"
# Both sides in the report, from the same iteration: the background loads'
# tables (tcp-rr, the repeating hackbench) beside the measured one's.
out=$("$SCHEDRIG" compare --db life.db latest) || fail "compare: $out"
for t in "rr transactions (transactions/s, higher is better)" "hb time (s, lower is better)" \
	"wl wakeup_latency (us, lower is better)"; do
	assert_contains "$out" "$t" "the table $t"
done

# The plan-time note is kept with the run (schedrig show lists it).
assert_contains "$("$SCHEDRIG" show --db life.db latest)" \
	"note: load hb: hackbench cannot report a run the stop cuts short: each repetition that ends while the measured loads run is a sample" \
	"the note in show"

# dry-run and check-config say it at plan time (stdout), exit 0.
out=$("$SCHEDRIG" run --dry-run life.yaml 2>&1) || fail "dry-run: $out"
assert_contains "$out" "life.yaml: note: load hb: hackbench cannot report a run the stop cuts short" \
	"dry-run note"
sed 's/repeat: true/repeat: false/' life.yaml >once.yaml
out=$("$SCHEDRIG" check-config once.yaml 2>&1) || fail "check-config: $out"
assert_contains "$out" "once.yaml: note: load hb: hackbench cannot report a run the stop cuts short: it yields samples only when it ends while the measured loads run (with repeat: true, each run that fits is a sample)" \
	"check-config note without repeat"

# timeout_s that ends before the measured loads start: refused, nothing run.
sed 's/warmup_s: 0.3/warmup_s: 2/' life.yaml >short.yaml
rc=0
"$SCHEDRIG" run short.yaml --db short.db >out 2>err || rc=$?
assert_eq "$rc" 2 "exit status of a background timeout_s < warmup_s ($(cat err))"
assert_contains "$(cat err)" "short.yaml: load rr: timeout_s 1 ends before the measured loads start (warmup_s 2)" \
	"refusal message"
assert_contains "$(cat err)" "nothing was run" "refusal end"
[ ! -e short.db ] || fail "a refused run created its database"
echo ok
