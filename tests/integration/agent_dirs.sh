#!/bin/bash
# The agent's folders agree with the house's layers: the Makefile's
# AGENT_DIRS (the folders schedrig-agent is built from) are folders of
# HACKING.md's "## Layers" table, in its order, none above harness/agent:
# the agent is what runs in a guest, so nothing it is built from may stand
# above it (an upper folder's file would call the store, libcurl or GSL).
# And the check is shown to catch a folder out of place.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

agent_dirs() { # MAKEFILE -> its AGENT_DIRS
	make -s -C "$(dirname "$1")" -f "$1" --no-print-directory \
		--eval='print-agent-dirs: ; @echo $(AGENT_DIRS)' print-agent-dirs
}
check() { # "AGENT_DIRS" HACKING.md -> offences on stdout, status 1 if any
	python3 - "$1" "$2" <<'PY'
import re, sys
dirs = sys.argv[1].split()
table, inside = [], False
for line in open(sys.argv[2], encoding="utf-8"):
    if line.startswith("## "):
        inside = line.strip() == "## Layers"
        continue
    m = re.match(r"\|\s*`([^`]+)`\s*\|", line) if inside else None
    if m:
        table.append(m.group(1).rstrip("/"))
bad = [f"AGENT_DIRS: {d} is not in the layer table" for d in dirs if d not in table]
known = [d for d in dirs if d in table]
if "harness/agent" not in known:
    bad.append("AGENT_DIRS: no harness/agent")
else:
    top = table.index("harness/agent")
    bad += [f"AGENT_DIRS: {d} stands above harness/agent" for d in known if table.index(d) > top]
order = sorted(known, key=table.index)
if known != order:
    bad.append("AGENT_DIRS: not in the table's order, bottom first: " + " ".join(order))
print("\n".join(bad) if bad else f"AGENT_DIRS: {len(dirs)} folders, in the table's order, none above harness/agent")
sys.exit(1 if bad else 0)
PY
}

dirs=$(agent_dirs "$ROOT/Makefile")
[ -n "$dirs" ] || fail "no AGENT_DIRS read from the Makefile"
out=$(check "$dirs" "$ROOT/HACKING.md") || fail "$out"
echo "$out"

# The check itself: a folder above the agent, one out of order, one
# the table does not know.
set +e
bad=$(check "$dirs harness/run" "$ROOT/HACKING.md"); rc=$?
set -e
assert_eq "$rc" 1 "exit status with harness/run among the agent's folders"
assert_contains "$bad" "AGENT_DIRS: harness/run stands above harness/agent" "a folder above the agent"
set +e
bad=$(check "harness/agent $dirs" "$ROOT/HACKING.md"); rc=$?
set -e
assert_eq "$rc" 1 "exit status with harness/agent first"
assert_contains "$bad" "AGENT_DIRS: not in the table's order" "a folder out of order"
bad=$(check "$dirs harness/nowhere" "$ROOT/HACKING.md") && fail "a folder not in the table passed"
assert_contains "$bad" "AGENT_DIRS: harness/nowhere is not in the layer table" "a folder without a line"
exit 0
