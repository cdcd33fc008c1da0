#!/bin/bash
# Every command's --help: exit 0, a usage line naming the command, and no
# option described twice (report once listed --format for text|markdown|
# csv|json and again for html). The commands schedrig --help lists are the
# ones README's command table lists, both ways.
source "$(dirname "$0")/lib.sh"
README=$(cd "$(dirname "$0")/../.." && pwd)/README.md

"$SCHEDRIG" --help >"$WORK/main.txt" || fail "schedrig --help exit status"
mapfile -t cmds < <(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$WORK/main.txt")
[ "${#cmds[@]}" -ge 15 ] || fail "schedrig --help lists ${#cmds[@]} commands: $(cat "$WORK/main.txt")"

for c in "${cmds[@]}"; do
	"$SCHEDRIG" "$c" --help >"$WORK/$c.txt" 2>&1 || fail "$c --help exit status $?"
	grep -q "^usage: schedrig $c\b" "$WORK/$c.txt" || fail "$c --help: no usage line"
done

python3 - "$README" "$WORK" "${cmds[@]}" <<'PY' || fail "help texts"
import re, sys
readme, work, cmds = sys.argv[1], sys.argv[2], sys.argv[3:]

# README: the first column of the command table; each `...` names a command
# ("schedrig list" / "show RUN").
text = open(readme).read()
table = text.split("## Commands", 1)[1].split("\n\n", 2)[1]
listed = set()
for row in table.splitlines()[2:]:
    first = row.split(" | ")[0]
    for quoted in re.findall(r"`([^`]+)`", first):
        words = quoted.split()
        if words[0] == "schedrig":
            words = words[1:]
        if words and not words[0].startswith("-"):
            listed.add(words[0])
assert listed == set(cmds), ("README vs schedrig --help",
                             sorted(listed - set(cmds)), sorted(set(cmds) - listed))

# Option lines: "  --opt ARG  description" or "  --a X, --b Y  description";
# the options are what comes before the first run of two spaces.
for c in cmds:
    seen = {}
    for line in open("%s/%s.txt" % (work, c)):
        if not re.match(r"^ {2,4}-", line):
            continue
        spec = re.split(r" {2,}", line.strip(), 1)[0]
        for opt in re.findall(r"(?<![\w-])--[a-z][a-z-]*", spec):
            assert opt not in seen, "%s --help describes %s twice:\n%s%s" % (c, opt, seen[opt], line)
            seen[opt] = line
    if c == "report":
        assert "html" in seen["--format"], seen["--format"]
        assert "csv" in seen["--format"], seen["--format"]
PY
exit 0
