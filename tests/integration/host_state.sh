#!/bin/bash
# Host state on this machine, for real (root; THP and /dev/cpu_dma_latency
# are settable here, cpufreq and SMT are not):
#  - schedrig host reads THP as the file says, with its source;
#  - schedrig host --root of a missing tree or a plain file: exit 2;
#  - host: settings this machine cannot take (governor: no cpufreq; smt:
#    notsupported; boost; a housekeeping CPU not online) are refused by
#    check-config at their key's file:line:col, nothing changed; a host:
#    setting and a knob on one file (numa_balancing) too;
#  - a run with host: {thp, cpu_dma_latency_us: 0, housekeeping_cpus: "0",
#    irq_affinity: housekeeping} has THP set, the latency limit held, the rig
#    on CPU 0 while it runs (read from outside), its load on CPU 1, the IRQs
#    the kernel moves on CPU 0 (those it will not move noted), everything back
#    after, and the variant's fingerprint (thp.enabled, pm_qos, rig.cpus)
#    beside the rig's machine's;
#  - Ctrl-C (SIGINT) of such a run: exit 130, THP, the IRQs and the latency
#    request back, no child left, nothing journalled unrestored;
#  - kill -9 of such a run: the latency request dies with it, THP stays
#    changed, runs refuse, schedrig restore puts THP back;
#  - two runs of one config with THP changed by hand between them: compare
#    says "Host state differs: thp.enabled ..." and --strict-host exits 1;
#    two runs in one state, and two variants whose config declares the THP
#    difference, say nothing.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability.bash"

THP=/sys/kernel/mm/transparent_hugepage/enabled
DMA=/dev/cpu_dma_latency
if [ "$(id -u)" -ne 0 ] || [ ! -w "$THP" ] || [ ! -w "$DMA" ]; then
	skip "needs root, a writable $THP and $DMA"
fi
REC=/run/lock/schedrig-knobs.pending
[ -w /run/lock ] || REC=/tmp/schedrig-knobs.pending
[ ! -e "$REC" ] || fail "$REC exists: some run left knobs changed on this machine ($(cat "$REC"))"
thp() { sed 's/.*\[\(.*\)\].*/\1/' "$THP"; }
dma() { od -An -t d4 -N4 "$DMA" | tr -d ' '; }
# holds_dma PID: PID has /dev/cpu_dma_latency open (its latency request).
# The limit in force is the lowest request of all: another user's
# cyclictest holds 0 too, so the value alone says little.
holds_dma() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q " -> $DMA\$"; }
orig=$(thp)
want=never
other=madvise
[ "$orig" != never ] || { want=madvise; other=never; }
trap 'kill_leftovers; echo "$orig" >"$THP"; ! grep -qs "^db $WORK/" "$REC" || rm -f "$REC"; rm -rf "$WORK"' EXIT
DB=$WORK/h.db

# 1. schedrig host
out=$("$SCHEDRIG" host)
assert_contains "$out" "thp.enabled" "schedrig host"
line=$(grep '^  thp.enabled ' <<<"$out")
assert_eq "$(echo $line)" "thp.enabled $orig [$THP]" "schedrig host's thp.enabled"
assert_contains "$out" "advice:" "schedrig host's advice"
# A --root that is not a tree is an error, not a machine with nothing.
: >"$WORK/plain"
for bad in "$WORK/nonexistent" "$WORK/plain"; do
	rc=0
	"$SCHEDRIG" host --root "$bad" >"$WORK/root.out" 2>&1 || rc=$?
	assert_eq "$rc" 2 "schedrig host --root $bad ($(cat "$WORK/root.out"))"
	assert_contains "$(cat "$WORK/root.out")" "schedrig host: --root $bad: " "the --root error"
done

# 2. What this machine cannot take is refused before anything changes.
if [ ! -e /sys/devices/system/cpu/cpufreq/policy0 ] &&
	[ "$(cat /sys/devices/system/cpu/smt/control)" = notsupported ]; then
	cat >"$WORK/cannot.yaml" <<EOF
name: cannot
host: {governor: performance, smt: off, thp: $want,
       boost: off, housekeeping_cpus: "$(nproc --all)"}
loads: [{tool: fake}]
EOF
	rc=0
	"$SCHEDRIG" check-config "$WORK/cannot.yaml" >"$WORK/cc.out" 2>&1 || rc=$?
	assert_eq "$rc" 2 "check-config of settings this machine lacks ($(cat "$WORK/cc.out"))"
	# Each at its key's file:line:col.
	assert_contains "$(cat "$WORK/cc.out")" "cannot.yaml:3:8: variant running: host: boost: " \
		"the boost refusal"
	assert_contains "$(cat "$WORK/cc.out")" "cannot.yaml:3:20: variant running: host: housekeeping_cpus: CPU $(nproc --all) of '$(nproc --all)' is not online here" \
		"the housekeeping_cpus refusal"
	assert_contains "$(cat "$WORK/cc.out")" "cannot.yaml:2:31: variant running: host: smt: " \
		"the smt refusal at its key"
	assert_contains "$(cat "$WORK/cc.out")" "cannot.yaml:2:8: variant running: host: governor: /sys/devices/system/cpu/cpufreq/policy*/scaling_governor is missing: this machine has no cpufreq" \
		"the governor's refusal"
	assert_contains "$(cat "$WORK/cc.out")" "host: smt: /sys/devices/system/cpu/smt/control reads notsupported" \
		"the smt refusal"
	rc=0
	"$SCHEDRIG" run "$WORK/cannot.yaml" --db "$DB" >"$WORK/cannot.out" 2>&1 || rc=$?
	assert_eq "$rc" 2 "run of settings this machine lacks"
	assert_eq "$(thp)" "$orig" "THP after the refused run"
	[ ! -e "$DB" ] || fail "the refused run created $DB"
fi
# A host: setting and a knob on one file: refused before anything runs.
cat >"$WORK/twice.yaml" <<EOF
name: twice
host: {numa_balancing: off}
variants: [{name: v, sysctl: {kernel.numa_balancing: 1}}]
loads: [{tool: fake}]
EOF
rc=0
"$SCHEDRIG" check-config "$WORK/twice.yaml" >"$WORK/twice.out" 2>&1 || rc=$?
assert_eq "$rc" 2 "check-config of numa_balancing set twice ($(cat "$WORK/twice.out"))"
assert_contains "$(cat "$WORK/twice.out")" "twice.yaml:3:31: variant v: sysctl kernel.numa_balancing is the knob host: numa_balancing (line 2) sets already" \
	"the numa_balancing twice refusal"

# 3. A run that sets THP and holds the latency limit at 0, seen from outside.
cat >"$WORK/set.yaml" <<EOF
name: host-set
iterations: 1
host: {thp: $want, cpu_dma_latency_us: 0, housekeeping_cpus: "0", irq_affinity: housekeeping}
loads: [{tool: fake, params: {sleep_ms: 3000}}]
EOF
# --dry-run says the settings and where the loads will run.
dry=$("$SCHEDRIG" run --dry-run "$WORK/set.yaml")
assert_contains "$dry" "  host: cpu_dma_latency_us=0 thp=$want housekeeping_cpus=0 irq_affinity=housekeeping" \
	"--dry-run's host: settings"
online=$(cat /sys/devices/system/cpu/online)
[ "$online" != 0-1 ] || assert_contains "$dry" "  loads without sched: cpus run on CPUs 1" \
	"--dry-run's load CPUs"
irqs() { for f in /proc/irq/[0-9]*/smp_affinity_list; do echo "$f $(cat "$f")"; done; }
irqs_before=$(irqs)
# until_true WHAT CMD...: CMD succeeds within 10 s, the rig alive meanwhile.
until_true() {
	local what=$1
	shift
	for _ in $(seq 100); do
		"$@" && return 0
		kill -0 "$RIG_PID" 2>/dev/null || fail "the rig ended before $what: $(cat "$WORK/rig.err")"
		sleep 0.1
	done
	fail "$what never happened"
}
thp_is() { [ "$(thp)" = "$1" ]; }
dma_is() { [ "$(dma)" = "$1" ]; }
rig_on_0() { grep -q "^Cpus_allowed_list:[[:space:]]*0$" "/proc/$RIG_PID/status"; }
start_rig run "$WORK/set.yaml" --db "$DB" --quiet
until_true "THP $want" thp_is "$want"
until_true "the latency request held" holds_dma "$RIG_PID"
until_true "the latency limit 0" dma_is 0
until_true "the rig on CPU 0" rig_on_0
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 0 "the run ($(cat "$WORK/rig.err"))"
assert_eq "$(thp)" "$orig" "THP after the run"
assert_eq "$(irqs)" "$irqs_before" "the IRQs' affinity after the run"
run=$(q "$DB" "SELECT max(id) FROM run")
assert_eq "$(q "$DB" "SELECT value FROM host_state WHERE run_id = $run AND variant_id IS NOT NULL AND field = 'thp.enabled'")" \
	"$want" "the variant's thp.enabled"
assert_eq "$(q "$DB" "SELECT source FROM host_state WHERE run_id = $run AND variant_id IS NOT NULL AND field = 'thp.enabled'")" \
	"$THP" "the source of thp.enabled"
assert_eq "$(q "$DB" "SELECT value FROM host_state WHERE run_id = $run AND variant_id IS NOT NULL AND field = 'pm_qos.cpu_dma_latency_us'")" \
	0 "the variant's latency limit"
assert_eq "$(q "$DB" "SELECT value FROM host_state WHERE run_id = $run AND variant_id IS NULL AND field = 'thp.enabled'")" \
	"$orig" "the rig's machine's thp.enabled (before the settings)"
assert_eq "$(q "$DB" "SELECT value FROM host_state WHERE run_id = $run AND variant_id IS NOT NULL AND field = 'rig.cpus'")" \
	0 "the variant's rig.cpus (housekeeping)"
assert_contains "$(q "$DB" "SELECT sched_applied FROM load_instance")" "cpus=1" "the load's CPUs"
assert_eq "$(q "$DB" "SELECT old_value || ' ' || applied_value || ' ' || (restored_at IS NOT NULL) FROM knob WHERE run_id = $run AND kind = 'sysfs'")" \
	"$orig $want 1" "the journal of THP"
moved=$(q "$DB" "SELECT count(*) FROM knob WHERE run_id = $run AND kind = 'irq' AND applied_value = '0' AND restored_at IS NOT NULL")
[ "$moved" -ge 1 ] || fail "no IRQ moved to CPU 0 and back: $(q "$DB" "SELECT name, old_value, applied_value FROM knob WHERE kind = 'irq'")"
kept=$(q "$DB" "SELECT count(*) FROM knob WHERE run_id = $run AND kind = 'irq' AND applied_value IS NULL")
notes=$(q "$DB" "SELECT count(*) FROM event WHERE run_id = $run AND kind = 'note' AND message LIKE 'variant running: host: irq_affinity: %'")
assert_eq "$notes" "$kept" "notes of the IRQs the kernel kept"
show=$("$SCHEDRIG" show "$run" --db "$DB")
assert_contains "$show" "host state of variant running" "show"
echo "IRQs the kernel kept: $kept"
if [ "$kept" -ge 1 ]; then
	assert_contains "$show" "(requested 0): refused by the kernel, unchanged" "show's IRQ the kernel kept"
	case "$show" in *"-> - (requested"*) fail "show lists a refused knob as changed: $show" ;; esac
fi
assert_contains "$(grep '^  thp.enabled ' <<<"$show" | tail -1)" "$want  [$THP]" "show's thp.enabled"

# 4. Ctrl-C (SIGINT) in the middle: THP, the IRQs and the latency request
# put back by the rig itself, its children gone, nothing left to restore.
sed 's/sleep_ms: 3000/sleep_ms: 30000/' "$WORK/set.yaml" >"$WORK/long.yaml"
start_rig run "$WORK/long.yaml" --db "$DB" --quiet
until_true "THP $want" thp_is "$want"
until_true "the latency request held" holds_dma "$RIG_PID"
until_true "the rig on CPU 0" rig_on_0
kill -INT "$RIG_PID"
rc=0
wait "$RIG_PID" || rc=$?
assert_eq "$rc" 130 "exit status after SIGINT ($(tail -3 "$WORK/rig.err"))"
assert_no_leftovers "after SIGINT of the rig"
assert_eq "$(thp)" "$orig" "THP after SIGINT"
assert_eq "$(irqs)" "$irqs_before" "the IRQs' affinity after SIGINT"
[ ! -e "$REC" ] || fail "record left after SIGINT: $(cat "$REC")"
run=$(q "$DB" "SELECT max(id) FROM run")
assert_eq "$(q "$DB" "SELECT count(*) FROM knob WHERE run_id = $run AND kind IN ('sysfs', 'irq')
	AND applied_value IS NOT NULL AND restored_at IS NULL")" 0 "unrestored host settings after SIGINT"
assert_eq "$(q "$DB" "SELECT status FROM run WHERE id = $run")" interrupted "the run's status after SIGINT"

# 5. kill -9: the latency request dies with the rig, THP stays, restore puts it back.
start_rig run "$WORK/long.yaml" --db "$DB" --quiet
until_true "THP $want" thp_is "$want"
until_true "the latency request held" holds_dma "$RIG_PID"
kill -KILL "$RIG_PID"
wait "$RIG_PID" 2>/dev/null || true
assert_no_leftovers "after kill -9 of the rig"
# (The latency request was the rig's own open file: the kernel dropped it
# with the process; nothing is left to restore.)
assert_eq "$(thp)" "$want" "THP after kill -9 (nobody restored it)"
rc=0
"$SCHEDRIG" run "$WORK/set.yaml" --db "$DB" >"$WORK/refused.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "a run after the kill"
assert_contains "$(cat "$WORK/refused.out")" "left kernel knobs changed on this machine" "a run after the kill"
out=$("$SCHEDRIG" restore --db "$DB") || fail "schedrig restore: $out"
assert_contains "$out" "restored $THP = $orig (was set to $want)" "restore"
assert_eq "$(thp)" "$orig" "THP after schedrig restore"
[ ! -e "$REC" ] || fail "record left after restore: $(cat "$REC")"

# 6. Compare: THP changed by hand between two runs of one config.
cat >"$WORK/plain.yaml" <<EOF
name: plain
iterations: 2
loads: [{tool: fake, params: {seed: 5}}]
EOF
C=$WORK/c.db
echo "$want" >"$THP"
"$SCHEDRIG" run "$WORK/plain.yaml" --db "$C" --quiet >"$WORK/p1.out" 2>&1 ||
	fail "run 1: $(cat "$WORK/p1.out")"
echo "$other" >"$THP"
"$SCHEDRIG" run "$WORK/plain.yaml" --db "$C" --quiet >"$WORK/p2.out" 2>&1 ||
	fail "run 2: $(cat "$WORK/p2.out")"
"$SCHEDRIG" run "$WORK/plain.yaml" --db "$C" --quiet >"$WORK/p3.out" 2>&1 ||
	fail "run 3: $(cat "$WORK/p3.out")"
echo "$orig" >"$THP"
out=$("$SCHEDRIG" compare 1 2 --db "$C")
assert_contains "$out" "Host state differs: thp.enabled $want (run 1) vs $other (run 2)" "compare of runs 1 and 2"
assert_eq "$(grep -c 'Host state differs' <<<"$out")" 1 "host state notes of runs 1 and 2"
rc=0
"$SCHEDRIG" compare 1 2 --db "$C" --strict-host >/dev/null 2>"$WORK/strict.err" || rc=$?
assert_eq "$rc" 1 "compare --strict-host of runs 1 and 2"
assert_contains "$(cat "$WORK/strict.err")" "--strict-host: the compared runs' host state differs in 1 field(s)" \
	"compare --strict-host's message"
out=$("$SCHEDRIG" compare 2 3 --db "$C" --strict-host) || fail "compare --strict-host of runs 2 and 3: $out"
case "$out" in *"Host state differs"*) fail "runs in one state: $out" ;; esac
report=$("$SCHEDRIG" report 1 2 --db "$C")
assert_contains "$report" "Host state differs: thp.enabled $want (run 1) vs $other (run 2)" "report's notes"
assert_contains "$report" "host state of variant running (digest" "report's provenance"
"$SCHEDRIG" mail 1 2 --db "$C" --from a@example.org --to b@example.org --subject t \
	--output "$WORK/m.eml" >/dev/null 2>&1 || fail "mail"
assert_contains "$(cat "$WORK/m.eml")" "host state of the rig's machine: " "the mail's provenance"

# ... and a THP difference the config declares says nothing.
cat >"$WORK/declared.yaml" <<EOF
name: declared
iterations: 2
variants:
  - {name: base}
  - {name: nothp, host_settings: {thp: never}}
loads: [{tool: fake, params: {seed: 5}}]
EOF
"$SCHEDRIG" run "$WORK/declared.yaml" --db "$C" --quiet >"$WORK/d.out" 2>&1 ||
	fail "the declared run: $(cat "$WORK/d.out")"
run=$(q "$C" "SELECT max(id) FROM run")
assert_eq "$(q "$C" "SELECT group_concat(h.value, ' ') FROM host_state h JOIN variant v ON v.id = h.variant_id WHERE h.run_id = $run AND field = 'thp.enabled' ORDER BY v.seq")" \
	"$orig never" "the variants' thp.enabled"
out=$("$SCHEDRIG" compare "$run" --db "$C" --strict-host) || fail "compare of the declared run: $out"
case "$out" in *"Host state differs"*) fail "a declared difference noted: $out" ;; esac
assert_eq "$(thp)" "$orig" "THP at the end"
echo ok
