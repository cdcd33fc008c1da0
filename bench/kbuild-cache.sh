# Kernels from source, run by bench/run-bench:
#  1. Build-cache hit: time from `schedrig run` starting to its first stored
#     iteration, for a variant whose kernel is a cached build
#     (kernel: {build: v6.12}) against the same bzImage given as a path
#     (kernel: FILE), rounds alternating, median of the ratios; target
#     <= 1.05. The cached build is the one tests/kernels/kbuild_1_build.sh
#     leaves in results/kbuild-test/cache (n/a when there is none).
#  2. Only with BENCH_KBUILD_REBUILD=1 (two kernel builds: an hour on a busy
#     2-CPU machine): a rebuild after changing one patch (a comment added to
#     the no-place-lag patch) with ccache, against a cold build of the same
#     kernel (CCACHE_DISABLE=1), wall-time ratio.
set -euo pipefail
: "${SCHEDRIG:?}"
ROUNDS=${ROUNDS:-3}
if [ "${BENCH_QUICK:-0}" = 1 ]; then ROUNDS=1; fi
TOP=$PWD
RESULTS=$TOP/results/kbuild-test
entry=$(grep -l '^kernel v6.12$' "$RESULTS"/cache/builds/*/provenance.txt 2>/dev/null |
	head -1 || true)
if [ -z "$entry" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	printf 'cache hit / prebuilt bzImage, run start to first sample\t-\t<= 1.05\tn/a\n'
	echo "kbuild-cache: no cached v6.12 build in $RESULTS (make check-kernels TESTS=kbuild_1) or no qemu" >&2
	exit 0
fi
WORK=$(mktemp -d /tmp/schedrig-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp "$(dirname "$entry")/bzImage" "$WORK/bzImage"

config() { # KERNEL-VALUE
	{ sed -n '/^kernels:/,/^variants:/p' tests/kernels/kbuild.yaml | sed '$d'
	  cat <<EOF
name: kbuild-cache-bench
iterations: 1
warmup_s: 0
variants:
  - {name: v, boot: qemu, kernel: $1, accel: tcg, cpus: 2, memory_mb: 1024, timeout_s: 300}
loads:
  - {name: hackbench, tool: hackbench, params: {groups: 1, loops: 10, ipc: pipe}}
EOF
	}
}
config "{build: v6.12}" >"$WORK/cached.yaml"
config "$WORK/bzImage" >"$WORK/prebuilt.yaml"

# Seconds from the rig starting to its first "iteration N/M:" line.
first_sample() { # CONFIG
	local start t
	rm -f "$RESULTS"/bench.db*
	start=$EPOCHREALTIME
	stdbuf -oL "$SCHEDRIG" run "$1" --db "$RESULTS/bench.db" 2>"$WORK/err" |
		while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >"$WORK/out" ||
		{ cat "$WORK/out" "$WORK/err" >&2; return 1; }
	t=$(awk '/ iteration [0-9]+\/[0-9]+: / { print $1; exit }' "$WORK/out")
	[ -n "$t" ] || { echo "kbuild-cache: no iteration line" >&2; cat "$WORK/out" "$WORK/err" >&2; return 1; }
	awk -v a="$start" -v b="$t" 'BEGIN { printf "%.2f", b - a }'
}

ratios=()
for ((r = 1; r <= ROUNDS; r++)); do
	p=$(first_sample "$WORK/prebuilt.yaml")
	c=$(first_sample "$WORK/cached.yaml")
	grep -q "kernel v6.12: cached" "$WORK/err" || { echo "kbuild-cache: not a cache hit" >&2; cat "$WORK/err" >&2; exit 1; }
	echo "kbuild-cache round $r/$ROUNDS: prebuilt $p s, cached build $c s" >&2
	ratios+=("$(awk -v c="$c" -v p="$p" 'BEGIN { printf "%.3f", c / p }')")
done
rm -f "$RESULTS"/bench.db*
med=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
printf 'cache hit / prebuilt bzImage, run start to first sample (median of %d)\t%s\t<= 1.05\t%s\n' \
	"$ROUNDS" "$med" "$(awk -v v="$med" 'BEGIN { print v <= 1.05 ? "ok" : "missed" }')"

[ "${BENCH_KBUILD_REBUILD:-0}" = 1 ] || {
	printf 'rebuild after one patch changed, ccache / cold\t-\t-\tn/a\n'
	exit 0
}
mkdir -p "$WORK/series"
sed 's/^ \* Off by default here:/ * (bench) Off by default here:/' \
	configs/patches/no-place-lag-6.12/0001-*.patch >"$WORK/series/0001.patch"
cat >"$WORK/rebuild.yaml" <<EOF
name: kbuild-rebuild-bench
kernels:
  k: {source: linux-source-6.12, config: [tinyconfig, guest], patches: [$WORK/series/]}
variants: [{name: v, boot: qemu, kernel: {build: k}}]
loads: [{tool: hackbench}]
EOF
build_s() { # DB: wall seconds of schedrig build
	local s=$EPOCHREALTIME
	"$SCHEDRIG" build "$WORK/rebuild.yaml" --db "$1" >&2
	awk -v a="$s" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'
}
cold=$(CCACHE_DISABLE=1 build_s "$WORK/cold/x.db")
sed -i 's/(bench) Off/(bench, again) Off/' "$WORK/series/0001.patch"
warm=$(build_s "$WORK/warm/x.db")
echo "kbuild-cache: cold build $cold s, rebuild after a patch change with ccache $warm s" >&2
printf 'rebuild after one patch changed, ccache / cold\t%s\t-\tn/a\n' \
	"$(awk -v w="$warm" -v c="$cold" 'BEGIN { printf "%.3f", w / c }')"
