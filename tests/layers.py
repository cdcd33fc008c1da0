#!/usr/bin/env python3
"""The house's layers: every arrow between the files of harness/, loads/ and
reports/ points down the layer table of HACKING.md ("## Layers"), and no
arrows go round in a circle, between files or between folders.

    python3 tests/layers.py [ROOT] [--table FILE] [--graph]

ROOT is the source tree (default: this checkout); --table reads the layer
table from FILE instead of ROOT/HACKING.md (to try a table on another tree);
--graph also prints each folder's arrows. Exit status 0 when the house is
sound, 1 with every offence listed, 2 when the table cannot be read.

Rooms and arrows (what `farm-studio look` draws, computed the same way):
  - A room is a file without its extension: foo.c and foo.h are one room.
  - A file that includes "foo.h" points at foo.h's room. Headers are named
    by file name alone (every folder is on the include path), so a name is
    resolved to the one folder that holds it; a header name held by two
    folders is itself an offence. foo_impl.h (what foo's files share) may
    include foo.h: that arrow alone is not drawn.
  - A file that uses a name (function or variable) that one other room's .c
    alone defines, not static, points at that room: a call through a header
    of another room's name, or through an extern declaration, is an arrow
    too.
A folder points at another when one of its rooms points at one of the
other's. An arrow is upward when the folder it reaches stands higher in the
table than the folder it leaves.
"""
import collections
import os
import re
import sys

TOPS = ("harness", "loads", "reports")


def read_table(path):
    """The folders of the table under "## Layers", bottom first."""
    folders = []
    in_section = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_section = line.strip() == "## Layers"
                continue
            if not in_section:
                continue
            m = re.match(r"\|\s*`([^`]+)`\s*\|", line)
            if m:
                folders.append(m.group(1).rstrip("/"))
    return folders


def strip_c(text):
    """text without comments, string and character literals, and
    preprocessor lines (an #include is read separately)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                i += 1
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        at_line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" 0 ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_]\w*|\S")
KEYWORDS = {"static", "extern", "typedef", "inline", "const", "struct", "enum", "union",
            "__attribute__", "volatile", "_Noreturn", "_Thread_local"}


def definitions(code):
    """(global names, static names, used names) of code: what it defines at
    file scope (functions with a body, variables) and the names its function
    bodies and initialisers use (a declaration uses nothing)."""
    toks = TOKEN.findall(code)
    glob, local, used = set(), set(), set()
    stmt = []
    depth = 0
    i = 0
    while i < len(toks):
        t = toks[i]
        # an "=" inside parentheses (a _Static_assert's "==") is no initialiser
        in_parens = stmt.count("(") > stmt.count(")")
        if depth == 0 and (t in ("{", ";") or (t == "=" and not in_parens)):
            names = declared_name(stmt, t)
            if names:
                (local if "static" in stmt else glob).add(names)
            if t == "=":
                # skip the initialiser up to the end of the declaration
                d = 0
                while i < len(toks) and not (d == 0 and toks[i] == ";"):
                    d += {"{": 1, "(": 1, "}": -1, ")": -1}.get(toks[i], 0)
                    used.add(toks[i])
                    i += 1
                stmt = []
                i += 1
                continue
            if t == "{":
                depth = 1
            stmt = [] if t != "{" else stmt
            i += 1
            continue
        if depth:
            used.add(t)
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    stmt = []
            i += 1
            continue
        stmt.append(t)
        i += 1
    return glob, local, used


def declared_name(stmt, end):
    """The name a file-scope statement ending in end defines, or None."""
    if not stmt or stmt[0] in ("typedef", "extern"):
        return None
    if end == "{":
        # a function body: NAME ( ... ) [__attribute__((...))] {
        if stmt[-1] != ")":
            return None  # struct/enum/union body
        d = 0
        for k in range(len(stmt) - 1, -1, -1):
            d += {")": 1, "(": -1}.get(stmt[k], 0)
            if d == 0:
                if k > 0 and re.match(r"[A-Za-z_]\w*$", stmt[k - 1]) and \
                        stmt[k - 1] not in KEYWORDS:
                    return stmt[k - 1]
                return None
        return None
    # a variable: ... NAME [ [N] ] ; or = ...
    if "(" in stmt and end == ";":
        return None  # a prototype
    k = len(stmt) - 1
    while k >= 0 and stmt[k] == "]":
        while k >= 0 and stmt[k] != "[":
            k -= 1
        k -= 1
    if k >= 0 and re.match(r"[A-Za-z_]\w*$", stmt[k]) and stmt[k] not in KEYWORDS \
            and len(stmt) > 1:
        return stmt[k]
    return None


def scan(root):
    files = []
    for top in TOPS:
        for d, dirs, fs in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(fs):
                if f.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(d, f), root))
    return files


def room_of(path):
    return os.path.splitext(path)[0]


def folder_of(room):
    return os.path.dirname(room)


def sccs(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on = {}, {}, [], set()
    out = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def cycle_in(comp, graph):
    """One circle through comp's first node, as a list of nodes."""
    start = comp[0]
    members = set(comp)
    prev = {start: None}
    queue = collections.deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    table = os.path.join(root, "HACKING.md")
    if "--table" in argv:
        table = argv[argv.index("--table") + 1]
        args = [a for a in args if a != table]
        root = args[0] if args else root
    try:
        order = read_table(table)
    except OSError as e:
        print(f"layers: {table}: {e.strerror}", file=sys.stderr)
        return 2
    if not order:
        print(f"layers: {table}: no layer table (a '## Layers' section with a row"
              " '| `folder` | ... |' per folder, bottom first)", file=sys.stderr)
        return 2
    floor = {f: i for i, f in enumerate(order)}
    problems = []

    files = scan(root)
    texts = {p: open(os.path.join(root, p), encoding="utf-8", errors="replace").read()
             for p in files}
    for folder in sorted({os.path.dirname(p) for p in files}):
        if folder not in floor:
            problems.append(f"folder {folder} is not in the layer table ({table}):"
                            " add its line where it belongs")

    # Headers by file name, each in one folder.
    header_at = {}
    for p in files:
        if p.endswith(".h"):
            name = os.path.basename(p)
            if name in header_at:
                problems.append(f"header {name} is in two folders: {header_at[name]} and {p}"
                                " (includes name a header by file name alone)")
            header_at.setdefault(name, p)

    # Arrows: why[(a, b)] = what a takes from b.
    why = collections.defaultdict(set)
    code = {p: strip_c(t) for p, t in texts.items()}
    for p, t in texts.items():
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', t, re.M):
            h = header_at.get(os.path.basename(m.group(1)))
            if h and room_of(h) != room_of(p) and room_of(p) != room_of(h) + "_impl":
                why[(room_of(p), room_of(h))].add(f'#include "{os.path.basename(h)}"')
    defined_by = collections.defaultdict(set)
    own = collections.defaultdict(set)
    uses = {}
    for p in files:
        glob, local, uses[p] = definitions(code[p])
        if p.endswith(".c"):
            for name in glob:
                defined_by[name].add(room_of(p))
        own[room_of(p)] |= glob | local
    for p in files:
        r = room_of(p)
        for name in uses[p] - own[r]:
            rooms = defined_by.get(name)
            if rooms and len(rooms) == 1:
                (b,) = rooms
                if b != r:
                    why[(r, b)].add(name)

    graph = collections.defaultdict(set)
    fgraph = collections.defaultdict(set)
    fwhy = collections.defaultdict(set)
    for (a, b) in why:
        graph[a].add(b)
        fa, fb = folder_of(a), folder_of(b)
        if fa != fb:
            fgraph[fa].add(fb)
            fwhy[(fa, fb)].add((a, b))

    def said(a, b):
        w = sorted(why[(a, b)], key=lambda s: (not s.startswith("#"), s))
        more = f", and {len(w) - 4} more" if len(w) > 4 else ""
        return ", ".join(w[:4]) + more

    upward = []
    for (a, b) in sorted(why):
        fa, fb = folder_of(a), folder_of(b)
        if fa != fb and fa in floor and fb in floor and floor[fb] > floor[fa]:
            upward.append(f"upward: {a} -> {b} ({fa} stands below {fb}): {said(a, b)}")
    file_cycles = sccs(graph)
    folder_cycles = sccs(fgraph)

    problems += upward
    for comp in file_cycles:
        c = cycle_in(comp, graph)
        problems.append(f"file circle of {len(comp)} rooms: " + " -> ".join(c))
        for a, b in zip(c, c[1:]):
            problems.append(f"    {a} -> {b}: {said(a, b)}")
    for comp in folder_cycles:
        c = cycle_in(comp, fgraph)
        problems.append(f"folder circle of {len(comp)} folders: " + " -> ".join(c))
        for a, b in zip(c, c[1:]):
            ex = sorted(fwhy[(a, b)])[0]
            problems.append(f"    {a} -> {b}: {ex[0]} -> {ex[1]} ({said(*ex)})")

    if "--graph" in argv:
        for f in order:
            if f in fgraph or any(folder_of(room_of(p)) == f for p in files):
                print(f"{f} -> {' '.join(sorted(fgraph.get(f, ())))}")
    for line in problems:
        print(line)
    print(f"layers: {len({room_of(p) for p in files})} rooms in {len(floor)} layers,"
          f" {sum(len(v) for v in graph.values())} arrows: {len(upward)} upward,"
          f" {len(file_cycles)} file circles, {len(folder_cycles)} folder circles")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
