# Shared helpers for integration tests (sourced, not run). Each test is a bash
# script that exits 0 on success; fail() stops it with a message.
set -euo pipefail
: "${SCHEDRIG:?SCHEDRIG must name the binary under test}"
WORK=$(mktemp -d /tmp/schedrig-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# The measuring lock (measurelock.h) of this script's runs only: scripts
# run one after another, and other checkouts' tests on this machine, never
# wait for each other; measure_lock.sh tests the lock itself.
export SCHEDRIG_MEASURE_LOCK=$WORK/measure.lock

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip REASON: this test cannot run here; tests/run-tests counts and shows
# it as skipped with REASON (exit status 77, as automake's harness).
skip() {
	echo "skipped: $*"
	exit 77
}

# assert_eq ACTUAL EXPECTED WHAT
assert_eq() {
	[ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

# assert_contains TEXT NEEDLE WHAT
assert_contains() {
	case "$1" in *"$2"*) ;; *) fail "$3: '$2' not found in: $1" ;; esac
}

# q DB SQL: one query through the sqlite3 shell, for assertions only.
q() {
	sqlite3 -batch -noheader "$1" "$2"
}

# standin_kernel_tree DIR: DIR/kernel/sched and DIR/Makefile, a stand-in for
# the kernel's Makefile that builds out of the tree in $(O) as kbuild does
# (make O=): tinyconfig, olddefconfig, and a bzImage that is the .config and
# kernel/sched/core.c, so it shows which tree and commit it was built from.
# make SLOW_FLAG=FILE: while FILE exists a bzImage build touches FILE.started
# and takes 30 s (a build to interrupt).
standin_kernel_tree() {
	mkdir -p "$1/kernel/sched"
	cat >"$1/Makefile" <<'MAKEFILE'
# A stand-in for the kernel's Makefile (schedrig's tests/integration/lib.sh).
tinyconfig:
	printf 'CONFIG_64BIT=y\n' > $(O)/.config
olddefconfig:
	true
bzImage:
	@if [ -n "$(SLOW_FLAG)" ] && [ -e "$(SLOW_FLAG)" ]; then touch "$(SLOW_FLAG).started"; sleep 30; fi
	mkdir -p $(O)/arch/x86/boot
	cat $(O)/.config kernel/sched/core.c > $(O)/arch/x86/boot/bzImage
MAKEFILE
}

# processes_in DIR: "PID COMM" of each live process whose working directory
# is DIR or below it. Tests run their rig from a directory of their own, so
# other people's hackbench or cyclictest on the same machine never count.
processes_in() {
	local c p line comm
	for c in $(find /proc/[0-9]*/cwd -maxdepth 0 \( -lname "$1" -o -lname "$1/*" \) \
		2>/dev/null); do
		p=${c%/cwd}
		read -r line 2>/dev/null <"$p/stat" || continue
		line=${line##*) }
		[ "${line%% *}" = Z ] && continue
		read -r comm 2>/dev/null <"$p/comm" || continue
		echo "${p#/proc/} $comm"
	done
}

# assert_none_left DIR WHAT: no process runs in DIR (allowing 2 s to exit).
assert_none_left() {
	local left i
	for i in $(seq 20); do
		left=$(processes_in "$1")
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	fail "$2: processes left behind: $(echo "$left" | tr '\n' ';')"
}
