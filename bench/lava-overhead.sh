# What the rig adds to a LAVA job (issue 31), run by bench/run-bench
# against the LAVA on 127.0.0.1 that tests/lava/lava-up starts (check-slow
# starts the same; n/a when none answers there). One test job, a 60 s
# cyclictest (TEST_S) beside a repeating hackbench on a boot: lava variant
# with Debian's 6.1 kernel on lava-up's qemu device, PAIRS (2) times each
# way, in turn:
#   rig:     `schedrig run CONFIG` from its start to its exit (config,
#            job rendered, files into the artifacts dir, submit, the wait,
#            log download, check, store, the table);
#   by hand: the job definition `schedrig lava-job` wrote once, submitted
#            with curl to the REST API (POST /api/v0.2/jobs/), its state
#            read every 0.5 s until Finished, its log downloaded (what a
#            person's script around lavacli does, without lavacli's 5 s
#            polling).
# LAVA's own time of a job is its end_time - submit_time. Figures: the
# rig's time on top of LAVA's own, % of LAVA's own (target <= 5), the same
# by hand, the rig / by-hand ratio, and the rig's breakdown from its job
# line (render and upload, submit, poll lag, log, check and store; the
# rest is the rig's start, config, database and table), medians
# of the pairs. BENCH_QUICK=1: one pair of a 20 s test.
set -euo pipefail
: "${SCHEDRIG:?}"
URL=${LAVA_URL:-http://127.0.0.1:8000}
TOKEN_FILE=${SCHEDRIG_LAVA_TOKEN_FILE:-/var/tmp/schedrig-lava/token}
PAIRS=${PAIRS:-2}
TEST_S=${TEST_S:-60}
if [ "${BENCH_QUICK:-0}" = 1 ]; then PAIRS=1; TEST_S=20; fi
if ! curl -sf -o /dev/null "$URL/api/v0.2/" || [ ! -r "$TOKEN_FILE" ]; then
	printf 'rig time on top of LAVA own, %d s test (%%)\t-\t<= 5\tn/a\n' "$TEST_S"
	echo "lava-overhead: no LAVA at $URL (sudo tests/lava/lava-up)" >&2
	exit 0
fi
export SCHEDRIG_LAVA_TOKEN
SCHEDRIG_LAVA_TOKEN=$(cat "$TOKEN_FILE")
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/art"

kernel=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' |
	awk '{print $1}' | sort -V | tail -1)
[ -n "$kernel" ] || { echo "lava-overhead: no linux-image-6.1.0 package known to apt" >&2; exit 1; }
cat > "$WORK/lab.yaml" <<EOF
name: lava-overhead
iterations: 1
warmup_s: 0.5
labs:
  here: {url: "$URL", token_env: SCHEDRIG_LAVA_TOKEN,
         artifacts: {dir: $WORK/art, url: "file://$WORK/art"}}
variants:
  - {name: v61, boot: lava, lab: here, device_type: qemu, kernel: $kernel, timeout_s: 300}
loads:
  - {name: hackbench, tool: hackbench, role: background, repeat: true,
     params: {mode: process, ipc: pipe, groups: 1, loops: 1000}}
  - {name: cyclictest, tool: cyclictest, timeout_s: $((TEST_S + 60)),
     params: {threads: 1, interval_us: 1000, duration_s: $TEST_S}}
EOF

api() { # METHOD PATH [DATA]
	curl -sf -X "$1" -H "Authorization: Token $SCHEDRIG_LAVA_TOKEN" \
		-H "Content-Type: application/json" ${3:+--data-binary "$3"} "$URL/api/v0.2/$2"
}
# lava_own ID: the job's end_time - submit_time, seconds.
lava_own() {
	api GET "jobs/$1/" | python3 -c '
import json, sys
from datetime import datetime
j = json.load(sys.stdin)
t = lambda k: datetime.fromisoformat(j[k].replace("Z", "+00:00")).timestamp()
print("%.2f" % (t("end_time") - t("submit_time")))'
}
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", 100 * a / b }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The job by hand: its definition and files, written once.
"$SCHEDRIG" lava-job "$WORK/lab.yaml" v61 > "$WORK/job.yaml" 2> "$WORK/err" ||
	{ cat "$WORK/err" >&2; exit 1; }
body=$(python3 -c 'import json, sys; print(json.dumps({"definition": open(sys.argv[1]).read()}))' \
	"$WORK/job.yaml")

rig_over=() hand_over=() ratio=() render=() submit=() lag=() logdl=() store=() rest=()
for ((p = 1; p <= PAIRS; p++)); do
	echo "lava-overhead: pair $p/$PAIRS: the rig ..." >&2
	rm -f "$WORK"/r.db*
	t0=$(now)
	"$SCHEDRIG" run "$WORK/lab.yaml" --db "$WORK/r.db" > "$WORK/rig.out" 2> "$WORK/err" ||
		{ cat "$WORK/rig.out" "$WORK/err" >&2; exit 1; }
	rig=$(sub "$(now)" "$t0")
	line=$(grep -m1 'lava: job [0-9]*: render and upload' "$WORK/rig.out")
	id=$(sed -n 's/.*lava: job \([0-9]*\): .*/\1/p' <<< "$line")
	own=$(lava_own "$id")
	field() { sed -n "s/.*$1 \([0-9.]*\) s.*/\1/p" <<< "$line"; }
	render+=("$(field 'render and upload')") submit+=("$(field submit)") lag+=("$(field 'poll lag')")
	logdl+=("$(field log)") store+=("$(field 'check and store')")
	rest+=("$(awk -v t="$rig" -v o="$own" -v a="${render[-1]}" -v b="${submit[-1]}" -v c="${lag[-1]}" \
		-v d="${logdl[-1]}" -v e="${store[-1]}" 'BEGIN { printf "%.2f", t - o - a - b - c - d - e }')")
	echo "lava-overhead: rig $rig s, LAVA's own $own s: $line" >&2

	echo "lava-overhead: pair $p/$PAIRS: by hand ..." >&2
	t0=$(now)
	hid=$(api POST jobs/ "$body" | python3 -c 'import json, sys; print(json.load(sys.stdin)["job_ids"][0])')
	until [ "$(api GET "jobs/$hid/" | python3 -c 'import json, sys; print(json.load(sys.stdin)["state"])')" = Finished ]; do
		sleep 0.5
	done
	api GET "jobs/$hid/logs/" > "$WORK/hand.log"
	hand=$(sub "$(now)" "$t0")
	hown=$(lava_own "$hid")
	grep -q 'agent exit status 0' "$WORK/hand.log" || { echo "lava-overhead: job $hid by hand failed" >&2; exit 1; }
	echo "lava-overhead: by hand $hand s, LAVA's own $hown s (job $hid)" >&2

	rig_over+=("$(pct "$(sub "$rig" "$own")" "$own")")
	hand_over+=("$(pct "$(sub "$hand" "$hown")" "$hown")")
	ratio+=("$(awk -v a="$rig" -v b="$hand" 'BEGIN { printf "%.3f", a / b }')")
done
o=$(median "${rig_over[@]}")
printf 'rig time on top of LAVA own, %d s test (%%)\t%s\t<= 5\t%s\n' "$TEST_S" "$o" \
	"$(awk -v v="$o" 'BEGIN { print v <= 5 ? "ok" : "missed" }')"
printf 'by hand (curl), time on top of LAVA own (%%)\t%s\t-\tn/a\n' "$(median "${hand_over[@]}")"
printf 'rig / by hand, whole time\t%s\t-\tn/a\n' "$(median "${ratio[@]}")"
printf 'rig: render and upload (s)\t%s\t-\tn/a\n' "$(median "${render[@]}")"
printf 'rig: submit (s)\t%s\t-\tn/a\n' "$(median "${submit[@]}")"
printf 'rig: poll lag after LAVA end (s)\t%s\t-\tn/a\n' "$(median "${lag[@]}")"
printf 'rig: log download (s)\t%s\t-\tn/a\n' "$(median "${logdl[@]}")"
printf 'rig: check and store (s)\t%s\t-\tn/a\n' "$(median "${store[@]}")"
printf 'rig: the rest: start, config, database, table (s)\t%s\t-\tn/a\n' "$(median "${rest[@]}")"
