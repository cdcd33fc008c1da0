#!/bin/bash
# boot: lava without a server: the job definitions `schedrig lava-job`
# writes run under LAVA's own dispatcher (`lava-run`, lava-dispatcher
# 2023.01 from Debian) on the qemu device tests/lava/qemu-device.yaml
# (TCG), and `schedrig import-lava` stores the agent's lines from the job
# log: samples of both tools, the 6.1 release and the command line checked,
# the job log noted with the run. A variant whose kernel panics (init= a
# missing file) is a recorded failure that says "kernel panic", not LAVA's
# "Infrastructure". A log whose agent line names a cell the plan lacks, or
# repeats an iteration, stores nothing. Needs lava-dispatcher,
# qemu-system-x86, busybox-static, rt-tests (scripts/install-deps). The
# kernel package is in the rig's cache, shared with qemu.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/debkernel.bash"

for need in lava-run hackbench cyclictest python3; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done
PKG=$(deb_kernel 6.1)
DB=$WORK/lava.db
DEVICE=$TESTS_DIR/lava/qemu-device.yaml

cat >"$WORK/lava.yaml" <<EOF
name: lava-tiny
iterations: 2
warmup_s: 0.5
labs:
  nowhere: {url: http://127.0.0.1:9, artifacts: {dir: $WORK/art, url: "file://$WORK/art"}}
variants:
  - {name: v61, boot: lava, lab: nowhere, device_type: qemu, kernel: $PKG,
     append: preempt=full, timeout_s: 300}
  - {name: panics, boot: lava, lab: nowhere, device_type: qemu, kernel: $PKG,
     append: init=/nonexistent, timeout_s: 300}
loads:
  - name: hackbench
    tool: hackbench
    role: background
    repeat: true
    params: {mode: process, ipc: pipe, groups: 1, loops: 100}
  - name: cyclictest
    tool: cyclictest
    role: measured
    timeout_s: 60
    params: {threads: 1, interval_us: 1000, duration_s: 2}
EOF

# lava-job VARIANT: the job definition, its files where its URLs point.
lava_job() {
	"$SCHEDRIG" lava-job "$WORK/lava.yaml" "$1" >"$WORK/$1.job" 2>"$WORK/$1.job.err" ||
		fail "lava-job $1: $(cat "$WORK/$1.job.err")"
	python3 - "$WORK/$1.job" <<'PYEOF' || fail "job definition of $1: see above"
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
deploy, boot, test = (a[k] for a, k in zip(job["actions"], ("deploy", "boot", "test")))
assert job["device_type"] == "qemu" and job["context"] == {"arch": "amd64"}, job
assert deploy["to"] == "tmpfs", deploy
assert boot == {"timeout": {"seconds": 300}, "method": "qemu", "media": "tmpfs"}, boot
for name in ("kernel", "initrd"):
    url = deploy["images"][name]["url"]
    assert url.startswith("file://") and open(url[7:], "rb").read(4), url
mon = test["monitors"][0]
assert mon["start"] == "schedrig-init: starting the agent", mon
PYEOF
}

# run_job VARIANT: lava-run on the qemu device; its job log (stderr) kept.
run_job() {
	mkdir "$WORK/out-$1"
	timeout 600 lava-run --job-id $((1000000 + $$)) --output-dir "$WORK/out-$1" --device "$DEVICE" \
		"$WORK/$1.job" >"$WORK/$1.stdout" 2>"$WORK/$1.log"
}

lava_job v61
start=$(date +%s)
run_job v61 || fail "lava-run of v61 failed: $(tail -5 "$WORK/v61.log")"
echo "lava-run v61: $(($(date +%s) - start)) s"
grep -q '"msg": "schedrig-init: agent exit status 0"' "$WORK/v61.log" || fail "no agent exit in the log"

"$SCHEDRIG" import-lava "$WORK/v61.log" "$WORK/lava.yaml" v61 --db "$DB" >"$WORK/out" 2>"$WORK/err" ||
	fail "import-lava v61: $(cat "$WORK/out" "$WORK/err")"
for tool in cyclictest hackbench; do
	n=$(q "$DB" "select count(*) from sample s join load_instance l on s.load_instance_id = l.id
		join iteration i on l.iteration_id = i.id join variant v on i.variant_id = v.id
		where v.name = 'v61' and l.name = '$tool'")
	[ "$n" -ge 2 ] || fail "$tool: $n samples from the job log"
done
assert_eq "$(q "$DB" "select count(*) from iteration where status = 'complete'")" 2 "complete iterations"
release=$(q "$DB" "select kernel_release from variant where name = 'v61'")
case "$release" in 6.1.*) ;; *) fail "kernel release of v61 is '$release', not 6.1.*" ;; esac
assert_contains "$(q "$DB" "select kernel_cmdline from variant where name = 'v61'")" preempt=full "cmdline"
assert_eq "$(q "$DB" "select boot from variant where name = 'v61'")" lava "boot"
assert_eq "$(q "$DB" "select message from event where kind = 'lava-job'")" \
	"variant=v61 log=$WORK/v61.log" "job note"
assert_eq "$(q "$DB" "select count(*) from variant where name = 'panics'")" 0 "variants run"
# The raw stdout stored is the guest's cyclictest output: its thread 0 line
# holds the stored max_latency (computed here from the raw text, not by the
# rig's parser).
max=$(q "$DB" "select cast(s.value as integer) from sample s
	join load_instance l on s.load_instance_id = l.id join iteration i on l.iteration_id = i.id
	where l.name = 'cyclictest' and i.iteration = 1 and s.metric = 'max_latency'")
raw_max=$(q "$DB" "select r.stdout from raw_output r join load_instance l on r.load_instance_id = l.id
	join iteration i on l.iteration_id = i.id where l.name = 'cyclictest' and i.iteration = 1" |
	sed -n 's/.*T: 0 .*Max: *\([0-9]*\).*/\1/p' | tail -1)
assert_eq "$raw_max" "$max" "max_latency in the stored raw output"

# The kernel panics: a recorded failure saying so, with the log named.
lava_job panics
start=$(date +%s)
run_job panics && fail "lava-run of the panicking job passed"
echo "lava-run panics: $(($(date +%s) - start)) s"
grep -q 'Infrastructure' "$WORK/panics.log" || fail "LAVA did not call the panic Infrastructure"
rc=0
"$SCHEDRIG" import-lava "$WORK/panics.log" "$WORK/lava.yaml" panics --db "$DB" >"$WORK/out" \
	2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "import-lava of a panic: exit status"
assert_contains "$(cat "$WORK/err")" "variant panics: kernel panic: Kernel panic - not syncing" \
	"panic message"
assert_contains "$(cat "$WORK/err")" "(job log $WORK/panics.log)" "panic message names the log"
assert_eq "$(q "$DB" "select count(*) from event where kind = 'failure' and message like 'variant panics: kernel panic%'")" \
	1 "failure event of the panic"

# Never trust the log: an agent line about a cell the plan lacks, and an
# iteration handed over twice, are refused and store nothing.
python3 - "$WORK/v61.log" "$WORK/bad-cell.log" "$WORK/twice.log" <<'PYEOF'
import sys
q = r'\\\"'
lines = open(sys.argv[1]).read().splitlines(True)
first = next(i for i, l in enumerate(lines) if "type" + q + ":" + q + "inst" in l)
it = next(i for i, l in enumerate(lines) if "type" + q + ":" + q + "iteration" in l)
bad = lines[first].replace("cell" + q + ":0", "cell" + q + ":5", 1)
assert bad != lines[first]
open(sys.argv[2], "w").writelines(lines[:first] + [bad] + lines[first + 1:])
open(sys.argv[3], "w").writelines(lines[:it + 1] + lines[first:it + 1] + lines[it + 1:])
PYEOF
for bad in bad-cell twice; do
	rc=0
	"$SCHEDRIG" import-lava "$WORK/$bad.log" "$WORK/lava.yaml" v61 --db "$WORK/$bad.db" \
		>"$WORK/out" 2>"$WORK/$bad.err" || rc=$?
	assert_eq "$rc" 1 "import-lava of $bad: exit status"
	assert_eq "$(q "$WORK/$bad.db" "select count(*) from sample")" 0 "samples stored from $bad"
done
assert_contains "$(cat "$WORK/bad-cell.err")" "cell 5 load 0 iteration 1 is not the next step of the plan" \
	"bad cell"
assert_contains "$(cat "$WORK/twice.err")" "cell 0 load 0 iteration 1 is not the next step of the plan" \
	"iteration twice"
