# Shared helpers for integration tests (sourced, not run). Each test is a bash
# script that exits 0 on success; fail() stops it with a message.
set -euo pipefail
: "${SCHEDRIG:?SCHEDRIG must name the binary under test}"
WORK=$(mktemp -d /tmp/schedrig-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
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
