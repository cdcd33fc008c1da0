#!/bin/bash
# docs/schedrig.1 documents every command and every option: each command
# schedrig --help lists has a ".SS COMMAND" section, and each option its
# --help names (usage lines and option lines) appears in that section.
# The page renders without a groff warning, and make install puts the
# binary and the page where Debian packaging expects them under DESTDIR.
source "$(dirname "$0")/lib.sh"
TOP=$(cd "$TESTS_DIR/.." && pwd)
PAGE=$TOP/docs/schedrig.1

"$SCHEDRIG" --help >"$WORK/main.txt"
mapfile -t cmds < <(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$WORK/main.txt")
[ "${#cmds[@]}" -ge 15 ] || fail "schedrig --help lists ${#cmds[@]} commands"
for c in "${cmds[@]}"; do
	"$SCHEDRIG" "$c" --help >"$WORK/$c.txt" 2>&1 || fail "$c --help: exit status $?"
done

python3 - "$PAGE" "$WORK" "${cmds[@]}" <<'PY' || fail "man page vs --help"
import re, sys
page, work, cmds = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(page).read().replace("\\-", "-")
sections = {}
for part in re.split(r"^\.SS ", text, flags=re.M)[1:]:
    name, body = part.split("\n", 1)
    sections[name.strip()] = body.split("\n.SH ", 1)[0]
missing = []
for c in cmds:
    if c not in sections:
        missing.append("no .SS section for command %s" % c)
        continue
    opts = set()
    usage = True
    for line in open("%s/%s.txt" % (work, c)):
        if usage and not line.strip():
            usage = False
        if usage or re.match(r"^ {2,4}-", line):
            spec = line if usage else re.split(r" {2,}", line.strip(), 1)[0]
            opts.update(re.findall(r"(?<![\w-])--[a-z][a-z-]*", spec))
    opts.discard("--help")
    for o in sorted(opts):
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), sections[c]):
            missing.append("%s %s: not in its section" % (c, o))
# Each usage form (a "schedrig CMD ..." line of --help and its continuation
# lines) has a synopsis in its section (".B schedrig CMD" up to ".br" or
# ".PP") that starts alike and lists the same options. Checked for bisect
# so far; run (--concurrent), plot and mail still lack options there.
def forms(lines):
    out, cur = [], None
    for line in lines:
        m = re.match(r"^(?:usage:)?\s*schedrig (.*)", line)
        if m:
            cur = [m.group(1)]
            out.append(cur)
        elif cur is not None and line.strip():
            cur.append(line)
    return [" ".join(f) for f in out]
def opts_of(t):
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", t)) - {"--help"}
for c in ["bisect"]:
    help_lines = []
    for line in open("%s/%s.txt" % (work, c)):
        if not line.strip():
            break
        help_lines.append(line)
    syn = []
    cur = None
    for line in sections[c].split("\n"):
        if line.startswith(".B schedrig "):
            cur = [line[3:]]
            syn.append(cur)
        elif line.startswith((".br", ".PP")):
            cur = None
        elif cur is not None:
            cur.append(line)
    syn = [re.sub(r"\s+", " ", re.sub(r"^\.[A-Z]+ ?", "", " ".join(f), flags=re.M)) for f in syn]
    for form in forms(help_lines):
        words = form.split()
        key = " ".join(words[:2]) if len(words) > 1 and words[1].startswith("--") else words[0]
        match = [f for f in syn if f.replace('"', "").split()[1:1 + len(key.split())] == key.split()]
        if not match:
            continue
        lost = opts_of(form) - opts_of(match[0])
        if lost:
            missing.append("%s: synopsis of 'schedrig %s' lacks %s" % (c, key, " ".join(sorted(lost))))
extra = set(sections) - set(cmds)
assert not extra, "sections for no command: %s" % sorted(extra)
assert not missing, "\n".join(missing)
PY

warnings=$(groff -man -ww -z "$PAGE" 2>&1) || fail "groff failed: $warnings"
[ -z "$warnings" ] || fail "groff warnings: $warnings"

make -s -C "$TOP" install DESTDIR="$WORK/dest" PREFIX=/usr SCHEDRIG_BIN="$SCHEDRIG" \
	>"$WORK/install.out" 2>&1 || fail "make install: $(cat "$WORK/install.out")"
[ -x "$WORK/dest/usr/bin/schedrig" ] || fail "make install: no usr/bin/schedrig"
[ -x "$WORK/dest/usr/bin/schedrig-agent" ] || fail "make install: no usr/bin/schedrig-agent"
cmp -s "$PAGE" "$WORK/dest/usr/share/man/man1/schedrig.1" || fail "make install: no man page"
assert_eq "$(stat -c %a "$WORK/dest/usr/share/man/man1/schedrig.1")" 644 "man page mode"
assert_contains "$(MANWIDTH=80 man -l "$WORK/dest/usr/share/man/man1/schedrig.1" 2>&1)" \
	"run, store, compare and bisect Linux CPU-scheduler" "man renders the page"
echo ok
