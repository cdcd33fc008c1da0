#!/bin/bash
# timeout_s: 900
# trace: in a qemu guest (TCG, Debian's 6.1 kernel): the agent captures the
# measured window of iteration 1 with its own tracefs instance, journals it
# as a knob (host guest:VARIANT, marked restored), sends the trace back in
# trace lines and the rig stores it beside the run like a local one; the
# numbers of schedrig trace agree with the Python computation over the
# same text, and both loads have their window samples from the guest.
# Needs qemu-system-x86, busybox-static, hackbench (scripts/install-deps);
# the kernel package is fetched once into the tests' cache.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/../integration/debkernel.bash"
command -v hackbench >/dev/null || fail "hackbench is not installed (scripts/install-deps)"
PKG=$(deb_kernel 6.1)
cd "$WORK"
cat >q.yaml <<EOF
name: qemu-trace
iterations: 2
warmup_s: 0.5
trace: {events: sched, iterations: [1]}
variants:
  - {name: q61, boot: qemu, kernel: $PKG, accel: tcg, cpus: 2, memory_mb: 1024, timeout_s: 300}
loads:
  - {name: hb, tool: hackbench, role: background, repeat: true, params: {groups: 1, loops: 50}}
  - {name: wl, tool: wakeup-lat, timeout_s: 120, params: {runtime_s: 2, workers: 2}}
EOF
start=$(date +%s)
"$SCHEDRIG" run q.yaml --db q.db >out 2>err || fail "run: $(tail -5 err)"
echo "qemu traced run: $(( $(date +%s) - start )) s" >&2
assert_eq "$(q q.db "SELECT i.iteration || ' ' || t.path FROM trace t JOIN iteration i ON i.id = t.iteration_id")" \
	"1 runs/1/traces/q61-c1-it1.trace.gz" "the guest's trace row"
zcat runs/1/traces/q61-c1-it1.trace.gz >trace.txt || fail "not gzip"
grep -q '^# task wl ' trace.txt || fail "no task line of wl in the guest's trace"
grep -q 'sched_switch: ' trace.txt || fail "no sched_switch in the guest's trace"
row=$(q q.db "SELECT host || ' ' || path || ' ' || (restored_at IS NOT NULL) FROM knob WHERE kind = 'trace_instance'")
case "$row" in "guest:q61 /sys/kernel/tracing/instances/schedrig-1-"*" 1") ;;
	*) fail "the guest's instance in the journal: '$row'" ;; esac
"$SCHEDRIG" trace --db q.db --format csv --decimals 9 --all-tasks >t.csv 2>terr || fail "trace: $(cat terr)"
python3 "$TESTS_DIR/integration/trace_check.py" trace.txt t.csv >check.out || fail "$(cat check.out)"
for l in hb wl; do
	n=$(q q.db "SELECT count(*) FROM window_sample w JOIN sample_key k ON k.id = w.key_id
		JOIN load_instance li ON li.id = w.load_instance_id WHERE li.name = '$l' AND k.metric = 'sched_run_ms'")
	assert_eq "$n" 2 "$l's sched_run_ms from the guest (one per iteration)"
done
echo ok
