#!/bin/bash
# timeout_s: 7200
# Bisecting a git range, for real: a git repository of Debian's
# linux-source-6.12 (the source as one commit, tag base) with the four
# patches of configs/patches/bisect-demo-6.12/ applied by `git am` as four
# commits (tag demo); the third turns WAKEUP_PREEMPTION off by default, so
# cyclictest sharing CPU 0 with a CPU-bound stress-ng wakes up several
# times later (the patch says: about 0.8 ms vs 3.8 ms under TCG). Two
# kernels: entries build that repository at base and at demo (commit:),
# and `schedrig bisect --good v6.12 --bad v6.12-demo` must name the third
# commit (full hash and subject) as the first bad one, having measured the
# points 0 4 2 3 (the ends, then the middles: ceil(log2 4) = 2) and built
# exactly four kernels (the ends and two commits), each from its commit's
# tree with its hash and `git describe` in the provenance, while the
# repository (HEAD, refs, index, status, worktrees) stays as it was. No
# process is left in the results directory.
#
# Everything is under results/git-bisect-test/ (its own database, cache and
# repository), apart from tests/kernels/kbuild_*.sh's results/kbuild-test/:
# the repository is made once (unpacking and `git add` of 1.7 GB: several
# minutes) and kept; the cache's builds/ is emptied first so every kernel
# really builds, and the commits' unpacked trees (1.7 GB each) are removed
# at the end. Cold: four tinyconfig + guest builds (the first about 8
# minutes on 2 quiet CPUs, the others mostly ccache hits) and about 16 TCG
# boots; the machine's other work stretches it. Needs linux-source-6.12 (or
# apt access), build-essential, bc, flex, bison, libelf-dev, libssl-dev,
# cyclictest (rt-tests), stress-ng, qemu (scripts/install-deps).
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=$TOP/results/git-bisect-test
REPO=$RESULTS/linux-git
DB=$RESULTS/schedrig.db
CACHE=$RESULTS/cache
CONFIG=$RESULTS/git-bisect.yaml
SERIES=$TOP/configs/patches/bisect-demo-6.12
mkdir -p "$RESULTS"
rm -rf "$CACHE/builds" "$CACHE/sources" "$RESULTS/bisect" "$DB"
cd "$TOP"

say() {
	echo "[git-bisect-test $(date +%T)] $*"
}
gitc() {
	git -C "$REPO" -c user.name=schedrig -c user.email=dev@schedrig.invalid \
		-c commit.gpgsign=false "$@"
}

# The repository, made once.
if ! gitc rev-parse -q --verify 'demo^{commit}' >/dev/null 2>&1; then
	rm -rf "$REPO" "$RESULTS/deb"
	tarball=/usr/src/linux-source-6.12.tar.xz
	if [ ! -r "$tarball" ]; then
		mkdir -p "$RESULTS/deb"
		(cd "$RESULTS/deb" && apt-get download linux-source-6.12) ||
			fail "linux-source-6.12 is not installed and apt-get download failed"
		dpkg-deb -x "$RESULTS"/deb/linux-source-6.12_*.deb "$RESULTS/deb/x"
		tarball=$RESULTS/deb/x/usr/src/linux-source-6.12.tar.xz
	fi
	say "making the repository $REPO from $tarball"
	mkdir -p "$REPO"
	tar -xf "$tarball" -C "$REPO" --strip-components=1
	gitc init -q -b master
	gitc add -A -f
	gitc commit -q -m "Debian linux-source-6.12, as packaged"
	gitc tag base
	gitc am -q "$SERIES"/*.patch || fail "git am of $SERIES"
	gitc tag demo
	rm -rf "$RESULTS/deb"
fi
[ "$(gitc rev-list --count base..demo)" = 4 ] || fail "$REPO: base..demo is not four commits"
repo_state() {
	gitc rev-parse HEAD
	gitc for-each-ref
	gitc status --porcelain | head -20
	gitc worktree list --porcelain
	sha256sum "$REPO/.git/index"
}
before=$(repo_state)

cat >"$CONFIG" <<EOF
# tests/kernels/git_bisect.sh: a git range of Debian's 6.12 with the
# bisect-demo series as four commits.
name: git-bisect-slow
iterations: {min: 3, max: 6, ci_pct: 10}
warmup_s: 0
kernels:
  base: {source: $REPO, commit: base, config: [tinyconfig, guest]}
  demo: {base: base, commit: demo}
variants:
  - {name: v6.12, boot: qemu, kernel: {build: base}, cpus: 2, memory_mb: 1024, timeout_s: 600}
  - {name: v6.12-demo, boot: qemu, kernel: {build: demo}, cpus: 2, memory_mb: 1024,
     timeout_s: 600}
loads:
  - name: hog
    tool: stress-ng
    role: background
    repeat: true
    params: {stressor: cpu, workers: 1, duration_s: 30}
    sched: {cpus: "0"}
  - name: cyclictest
    tool: cyclictest
    role: measured
    timeout_s: 120
    params: {threads: 1, interval_us: 1000, duration_s: 3}
    sched: {policy: other, cpus: "0"}
EOF

t0=$(date +%s)
say "schedrig bisect $CONFIG --good v6.12 --bad v6.12-demo"
rc=0
out=$("$SCHEDRIG" bisect "$CONFIG" --good v6.12 --bad v6.12-demo --metric cyclictest:avg_latency \
	--db "$DB" 2>&1) || rc=$?
say "bisected in $(($(date +%s) - t0)) s"
echo "$out"
assert_eq "$rc" 0 "exit status of the bisection"
third=$(gitc rev-parse demo~1)
subject=$(gitc log -1 --format=%s "$third")
assert_eq "$subject" "sched/features: Turn WAKEUP_PREEMPTION off by default" "the third commit"
assert_contains "$out" "bisection 1: 5 points (commits) from v6.12 (good) to v6.12-demo (bad)" \
	"the series"
# The result is folded at 78 columns: compare with runs of blanks as one.
folded=$(tr -s ' \n' '  ' <<<"$out")
assert_contains "$folded" "First bad point: v6.12-${third:0:12} (confirmed: v6.12-" \
	"the first bad commit, confirmed"
assert_contains "$folded" "k 3 of 4): commit $third $subject" \
	"the first bad commit, by hash and subject"
measured=$(q "$DB" "SELECT k FROM bisect_point WHERE bisection_id = 1 AND verdict IS NOT NULL
	ORDER BY decided_seq" | tr '\n' ' ')
assert_eq "$measured" "0 4 2 3 " "the points measured"
assert_eq "$(q "$DB" "SELECT group_concat(verdict, ' ') FROM (SELECT verdict FROM bisect_point
	WHERE bisection_id = 1 AND verdict IS NOT NULL ORDER BY k)")" "good good bad bad" "the verdicts"

# Four kernels built, each from its commit.
assert_eq "$(ls "$CACHE/builds" | wc -l)" 4 "kernels built (two ends, two commits)"
for k in 0 2 3 4; do
	h=$(gitc rev-parse "demo~$((4 - k))")
	pv=$(grep -l "^source $REPO git commit $h " "$CACHE"/builds/*/provenance.txt) ||
		fail "no build of commit $h (point $k)"
	assert_contains "$(cat "$pv")" "git commit $h ($(gitc describe --tags --always "$h"))" \
		"the provenance of point $k"
	e=$(dirname "$pv")
	assert_eq "$(dd if="$e/bzImage" bs=1 skip=514 count=4 2>/dev/null)" HdrS "$e/bzImage is a bzImage"
done
assert_eq "$(repo_state)" "$before" "the repository after the bisection"
assert_none_left "$RESULTS" "after the bisection"
rm -rf "$CACHE/sources"
say "ok"
