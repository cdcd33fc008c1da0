#!/bin/bash
# boot: lava against a real LAVA 2023.01 on 127.0.0.1 (tests/lava/lava-up:
# PostgreSQL, lava-server under gunicorn, publisher with events, scheduler,
# a worker with two qemu devices; installed on first use, minutes):
#   - a config whose two variants go through it: both jobs are submitted
#     before either is collected and run at once on the two devices (LAVA's
#     own start and end times overlap); the good one's samples arrive in the
#     database with the job's device, device type, id and URL noted; the
#     one whose kernel panics is a recorded failure that says "kernel
#     panic" and names the job, which LAVA shows Incomplete, stored as soon
#     as it ended, before the good job's samples;
#   - Ctrl-C while two jobs run cancels both (LAVA shows them Canceled);
#     both variants are interrupted, not failed; run --resume then submits
#     new jobs (the canceled ones are over), and Ctrl-C cancels those too;
#   - run --resume after a kill -9 follows the job the killed rig submitted,
#     by its id, and submits nothing new;
#   - no job's files are left in the artifacts directory at the end.
# LAVA is stopped again
# (tests/lava/lava-down) unless it was running before. Run as root.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/../integration/debkernel.bash"

LAVA=$TESTS_DIR/lava
STATE=${SCHEDRIG_LAVA_DIR:-/var/tmp/schedrig-lava}
URL=http://127.0.0.1:8000
was_up=0
[ -f "$STATE/gunicorn.pid" ] && kill -0 "$(cat "$STATE/gunicorn.pid")" 2>/dev/null && was_up=1
cleanup() {
	[ "$was_up" = 1 ] || "$LAVA/lava-down" >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
start=$(date +%s)
"$LAVA/lava-up" >"$WORK/lava-up.log" 2>&1 || fail "lava-up: $(tail -5 "$WORK/lava-up.log")"
echo "lava-up: $(($(date +%s) - start)) s"
export SCHEDRIG_LAVA_TOKEN
SCHEDRIG_LAVA_TOKEN=$(cat "$STATE/token")

# api PATH: GET URL/api/v0.2/PATH with the token.
api() {
	curl -sf -H "Authorization: Token $SCHEDRIG_LAVA_TOKEN" "$URL/api/v0.2/$1"
}
# job_field ID FIELD
job_field() {
	api "jobs/$1/" | python3 -c "import json, sys; print(json.load(sys.stdin)['$2'])"
}
# wait_health ID HEALTH: the job ends with that health (at most 300 s).
wait_health() {
	local i h=
	for i in $(seq 300); do
		[ "$(job_field "$1" state)" = Finished ] && h=$(job_field "$1" health) && break
		sleep 1
	done
	assert_eq "$h" "$2" "health of LAVA job $1"
}
jobs_count() {
	api "jobs/?limit=1" | python3 -c "import json, sys; print(json.load(sys.stdin)['count'])"
}

PKG=$(deb_kernel 6.1)
DB=$WORK/lava.db

# config NAME ITERATIONS DURATION_S VARIANTS...: VARIANTS are "name append".
config() {
	local name=$1 iterations=$2 duration=$3 v
	shift 3
	{
		echo "name: $name"
		echo "iterations: $iterations"
		echo "warmup_s: 0.5"
		echo "labs:"
		echo "  local: {url: '$URL', token_env: SCHEDRIG_LAVA_TOKEN,"
		echo "          artifacts: {dir: '$WORK/art', url: 'file://$WORK/art'}}"
		echo "variants:"
		for v in "$@"; do
			echo "  - {name: ${v%% *}, boot: lava, lab: local, device_type: qemu,"
			echo "     kernel: $PKG, append: '${v#* }', timeout_s: 300}"
		done
		echo "loads:"
		echo "  - {name: hackbench, tool: hackbench, role: background, repeat: true,"
		echo "     params: {mode: process, ipc: pipe, groups: 1, loops: 100}}"
		echo "  - {name: cyclictest, tool: cyclictest, role: measured, timeout_s: 120,"
		echo "     params: {threads: 1, interval_us: 1000, duration_s: $duration}}"
	} >"$WORK/$name.yaml"
}
# job_of FILE: the id of the job the rig said it submitted.
job_of() {
	sed -n 's/.*lava: submitted job \([0-9]*\):.*/\1/p' "$1" | tail -1
}

# --- two variants: samples, and a panic -------------------------------------------
config two 2 2 "v61 preempt=full" "panics init=/nonexistent"
start=$(date +%s)
rc=0
timeout 900 "$SCHEDRIG" run "$WORK/two.yaml" --db "$DB" >"$WORK/two.out" 2>"$WORK/two.err" || rc=$?
cat "$WORK/two.out" "$WORK/two.err"
echo "two variants through LAVA: $(($(date +%s) - start)) s"
assert_eq "$rc" 1 "exit status with a panicking variant"
n=$(q "$DB" "select count(*) from sample s join load_instance l on s.load_instance_id = l.id
	join iteration i on l.iteration_id = i.id join variant v on i.variant_id = v.id
	where v.name = 'v61' and l.name = 'cyclictest' and s.metric = 'max_latency'")
assert_eq "$n" 2 "max_latency samples of v61"
assert_eq "$(q "$DB" "select status || ' ' || boot from variant where name = 'v61'")" "complete lava" \
	"v61 status"
note=$(q "$DB" "select message from event where kind = 'lava-job' and message like 'variant=v61 %device=%'")
good=$(sed -n 's/.* job=\([0-9]*\) .*/\1/p' <<<"$note")
assert_contains "$note" "url=$URL/scheduler/job/$good device=qemu0" "v61's job note"
assert_contains "$note" "device_type=qemu health=Complete" "v61's job note"
assert_eq "$(job_field "$good" actual_device)" "$(sed -n 's/.*device=\([^ ]*\).*/\1/p' <<<"$note")" \
	"device noted"
err=$(cat "$WORK/two.err")
assert_contains "$err" "variant panics: kernel panic: Kernel panic - not syncing" "panic message"
bad=$(sed -n 's/.*variant=panics job=\([0-9]*\) .*/\1/p' < <(q "$DB" "select message from event where kind = 'lava-job'") | head -1)
assert_contains "$err" "($URL/scheduler/job/$bad)" "panic message names the job"
assert_eq "$(job_field "$bad" health)" Incomplete "LAVA's health of the panicking job"
assert_eq "$(q "$DB" "select count(*) from event where kind = 'failure' and message like 'variant panics: kernel panic%'")" \
	1 "failure event of the panic"
# At once: both submitted before the first was collected, both running in
# LAVA at the same time, the panic (the shorter job) stored first.
first_collect=$(grep -n 'lava: job [0-9]*: render and upload ' "$WORK/two.out" | head -1 | cut -d: -f1)
last_submit=$(grep -n 'lava: submitted job ' "$WORK/two.out" | tail -1 | cut -d: -f1)
[ -n "$first_collect" ] && [ "$last_submit" -lt "$first_collect" ] ||
	fail "the second job was submitted after the first was collected"
overlap=$(python3 - "$(api "jobs/$good/")" "$(api "jobs/$bad/")" <<'PY'
import json, sys
from datetime import datetime
a, b = (json.loads(x) for x in sys.argv[1:3])
t = lambda j, k: datetime.fromisoformat(j[k].replace("Z", "+00:00"))
print(max(t(a, "start_time"), t(b, "start_time")) < min(t(a, "end_time"), t(b, "end_time")))
PY
)
assert_eq "$overlap" True "the two jobs ran at the same time in LAVA"
assert_eq "$(q "$DB" "select (select id from event where kind = 'failure' and message like 'variant panics:%')
	< (select id from event where kind = 'lava-job' and message like 'variant=v61 %device=%')")" 1 \
	"the panic stored before the good job"

# A one-iteration config, for the resume below.
config one 1 1 "v61 preempt=full"

# --- Ctrl-C cancels the running jobs ------------------------------------------------
config long 1 60 "v61 preempt=full" "v61b preempt=full"
: >"$WORK/long.out" # there before the first look (the shell opens it in the child)
"$SCHEDRIG" run "$WORK/long.yaml" --db "$WORK/long.db" >"$WORK/long.out" 2>&1 &
rig=$!
ids=
for i in $(seq 180); do
	ids=$(sed -n 's/.*lava: submitted job \([0-9]*\):.*/\1/p' "$WORK/long.out" | tr '\n' ' ')
	set -- $ids
	[ $# = 2 ] && [ "$(job_field "$1" state)" = Running ] && [ "$(job_field "$2" state)" = Running ] && break
	sleep 1
done
set -- $ids
[ $# = 2 ] || fail "two jobs were not submitted: $(cat "$WORK/long.out")"
kill -INT "$rig"
rc=0
wait "$rig" || rc=$?
cat "$WORK/long.out"
assert_eq "$rc" 130 "exit status after Ctrl-C"
for id in $ids; do
	assert_contains "$(cat "$WORK/long.out")" "canceling job $id" "cancel said"
	wait_health "$id" Canceled
done
assert_eq "$(q "$WORK/long.db" "select count(*) from event where kind = 'note' and message like '%interrupted by Interrupt: job % canceled%'")" \
	2 "both variants noted as interrupted"
assert_eq "$(q "$WORK/long.db" "select group_concat(status) from variant")" "interrupted,interrupted" \
	"both variants' status"
assert_eq "$(q "$WORK/long.db" "select count(*) from event where kind = 'failure'")" 0 "no failure"
# run --resume after Ctrl-C submits new jobs: the canceled ones are over.
: >"$WORK/long2.out" # there before the first look (the shell opens it in the child)
"$SCHEDRIG" run --resume latest --db "$WORK/long.db" >"$WORK/long2.out" 2>&1 &
rig=$!
for i in $(seq 120); do
	[ "$(grep -c 'lava: submitted job ' "$WORK/long2.out")" = 2 ] && break
	sleep 0.5
done
kill -INT "$rig"
wait "$rig" || true
cat "$WORK/long2.out"
assert_eq "$(grep -c 'following job' "$WORK/long2.out")" 0 "resume follows no canceled job"
for id in $(sed -n 's/.*lava: submitted job \([0-9]*\):.*/\1/p' "$WORK/long2.out"); do
	case " $ids " in *" $id "*) fail "job $id submitted again" ;; esac
	wait_health "$id" Canceled
done

# --- one iteration, timed: submit to stored sample, and what the rig adds ---------
# LAVA's own time is its job's submit_time to end_time; the rig's is the
# whole `schedrig run` (config, guest image, submit, the wait's last look,
# log download, decode and store). Printed for README, not asserted.
t0=$(date +%s.%N)
"$SCHEDRIG" run "$WORK/one.yaml" --db "$WORK/one.db" >"$WORK/one.out" 2>&1 ||
	fail "one iteration through LAVA: $(cat "$WORK/one.out")"
t1=$(date +%s.%N)
grep 'lava:' "$WORK/one.out"
id=$(job_of "$WORK/one.out")
python3 - "$(api "jobs/$id/")" "$t0" "$t1" <<'PY'
import json, sys
from datetime import datetime
j = json.loads(sys.argv[1])
t = lambda k: datetime.fromisoformat(j[k].replace("Z", "+00:00")).timestamp()
lava = t("end_time") - t("submit_time")
rig = float(sys.argv[3]) - float(sys.argv[2])
print("one iteration through LAVA: schedrig run %.1f s, LAVA's job %.1f s (submit to end),"
      " the rig adds %.1f s = %.1f %%" % (rig, lava, rig - lava, 100 * (rig - lava) / lava))
PY
assert_eq "$(q "$WORK/one.db" "select count(*) from sample where metric = 'max_latency'")" 1 \
	"the one iteration's sample"

# --- kill -9, then run --resume follows the job by id ----------------------------
: >"$WORK/killed.out" # there before the first look (the shell opens it in the child)
"$SCHEDRIG" run "$WORK/one.yaml" --db "$WORK/resume.db" >"$WORK/killed.out" 2>&1 &
rig=$!
for i in $(seq 120); do
	id=$(job_of "$WORK/killed.out")
	[ -n "$id" ] && break
	sleep 0.5
done
[ -n "$id" ] || fail "no job submitted: $(cat "$WORK/killed.out")"
kill -KILL "$rig"
wait "$rig" 2>/dev/null || true
wait_health "$id" Complete
before=$(jobs_count)
"$SCHEDRIG" run --resume latest --db "$WORK/resume.db" >"$WORK/resume.out" 2>&1 ||
	fail "run --resume: $(cat "$WORK/resume.out")"
cat "$WORK/resume.out"
assert_contains "$(cat "$WORK/resume.out")" "lava: following job $id submitted before" "resume follows"
assert_eq "$(jobs_count)" "$before" "jobs in LAVA after the resume"
assert_eq "$(q "$WORK/resume.db" "select count(*) from sample where metric = 'max_latency'")" 1 \
	"max_latency samples after the resume"
assert_eq "$(q "$WORK/resume.db" "select status from run")" complete "resumed run status"
# Every job's files are gone once it is over, the killed rig's too.
assert_eq "$(ls -A "$WORK/art")" "" "artifacts left behind"
