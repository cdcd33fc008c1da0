#!/bin/bash
# The house's layers (HACKING.md, Layers): no file includes a header of a
# higher folder or uses a name only a higher folder defines, and no files
# nor folders form a circle. tests/layers.py names each offence.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

out=$(python3 "$ROOT/tests/layers.py" "$ROOT" 2>&1) || fail "the layers:
$out"
echo "$out"

# The check itself: a header of a higher folder included from a lower one,
# and a circle of two files, are each found in a copy of the tree.
mkdir -p "$WORK/tree"
cp -r "$ROOT/harness" "$ROOT/loads" "$ROOT/reports" "$ROOT/HACKING.md" "$WORK/tree/"
printf '#include "commands.h"\n' >>"$WORK/tree/harness/lib/util.c"
set +e
bad=$(python3 "$ROOT/tests/layers.py" "$WORK/tree")
rc=$?
set -e
assert_eq "$rc" 1 "exit status with an upward include"
assert_contains "$bad" "upward: harness/lib/util -> harness/cmd/commands" "the upward include named"
assert_contains "$bad" "folder circle" "the folder circle it makes"

cp "$ROOT/harness/lib/util.c" "$WORK/tree/harness/lib/util.c"
printf 'int layers_probe_a(void);\nint layers_probe_b(void) { return layers_probe_a(); }\n' \
	>"$WORK/tree/harness/lib/probe_b.c"
printf 'int layers_probe_b(void);\nint layers_probe_a(void) { return layers_probe_b(); }\n' \
	>"$WORK/tree/harness/lib/probe_a.c"
set +e
bad=$(python3 "$ROOT/tests/layers.py" "$WORK/tree")
rc=$?
set -e
assert_eq "$rc" 1 "exit status with a circle of two files"
assert_contains "$bad" "file circle of 2 rooms: harness/lib/probe_a -> harness/lib/probe_b -> harness/lib/probe_a" \
	"the circle named"
assert_contains "$bad" "harness/lib/probe_a -> harness/lib/probe_b: layers_probe_b" "what ties it"

# the same circle, each definition after a file-scope _Static_assert (its
# "==" is no initialiser: the definitions after it still count)
for f in a b; do
	sed -i '1a _Static_assert(sizeof(int) == 4, "int");' "$WORK/tree/harness/lib/probe_$f.c"
done
set +e
bad=$(python3 "$ROOT/tests/layers.py" "$WORK/tree")
rc=$?
set -e
assert_eq "$rc" 1 "exit status with a circle after _Static_assert"
assert_contains "$bad" "harness/lib/probe_a -> harness/lib/probe_b: layers_probe_b" \
	"the circle after a _Static_assert"

rm "$WORK/tree/harness/lib/probe_"?.c
mkdir "$WORK/tree/harness/newroom"
printf 'int x;\n' >"$WORK/tree/harness/newroom/x.c"
bad=$(python3 "$ROOT/tests/layers.py" "$WORK/tree") && fail "a folder not in the table passed"
assert_contains "$bad" "folder harness/newroom is not in the layer table" "a folder without a line"
exit 0
