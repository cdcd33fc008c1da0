#!/bin/bash
# results-schema/schema.sql documents every table and column of the live
# schema: each table has a comment block above its CREATE TABLE, each column
# a "--" comment on its line, and the tables and columns it declares are
# exactly those of a database schedrig creates and of one it migrates from
# schema version 12 (tests/fixtures/db-v12.sql). A column added by a
# migration but not written into schema.sql, or a table the file does not
# explain, fails here.
source "$(dirname "$0")/lib.sh"
SCHEMA=$TESTS_DIR/../results-schema/schema.sql

cat >"$WORK/fake.yaml" <<YAML
name: schema-doc
iterations: 1
loads:
  - {tool: fake, params: {seed: 1, state_file: "$WORK/fake.state"}}
YAML
"$SCHEDRIG" run "$WORK/fake.yaml" --db "$WORK/fresh.db" >"$WORK/fresh.out" 2>&1 ||
	fail "run into a new database: $(cat "$WORK/fresh.out")"
sqlite3 -batch "$WORK/old.db" <"$FIXTURES/db-v12.sql"
"$SCHEDRIG" run "$WORK/fake.yaml" --db "$WORK/old.db" >"$WORK/old.out" 2>&1 ||
	fail "run into a version 12 database: $(cat "$WORK/old.out")"

python3 - "$SCHEMA" "$WORK/fresh.db" "$WORK/old.db" <<'PY' || fail "schema.sql vs the live schema"
import re, sqlite3, sys
schema, dbs = sys.argv[1], sys.argv[2:]

# schema.sql: CREATE TABLE blocks; a column line is a name then a type.
documented, problems = {}, []
lines = open(schema).read().split("\n")
table = None
for i, line in enumerate(lines):
    m = re.match(r"CREATE TABLE IF NOT EXISTS (\w+) \($", line)
    if m:
        table = m.group(1)
        documented[table] = set()
        if not lines[i - 1].startswith("--"):
            problems.append("table %s: no comment above it (line %d)" % (table, i + 1))
        continue
    if table and line.startswith(")"):
        table = None
        continue
    m = re.match(r"\t(\w+)\s+(INTEGER|TEXT|REAL|BLOB)\b", line)
    if table and m:
        documented[table].add(m.group(1))
        if "--" not in line:
            problems.append("%s.%s: no comment on its line (line %d)" % (table, m.group(1), i + 1))

for path in dbs:
    db = sqlite3.connect(path)
    live = {}
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                              " AND name NOT LIKE 'sqlite_%'"):
        live[name] = {r[1] for r in db.execute("SELECT * FROM pragma_table_info(?)", (name,))}
    for t in sorted(set(live) | set(documented)):
        if t not in documented:
            problems.append("%s: table %s is not in schema.sql" % (path, t))
        elif t not in live:
            problems.append("%s: schema.sql's table %s is not in the database" % (path, t))
        elif live[t] != documented[t]:
            problems.append("%s: table %s: columns only in the database %s, only in schema.sql %s"
                            % (path, t, sorted(live[t] - documented[t]),
                               sorted(documented[t] - live[t])))
assert len(documented) >= 18, "only %d tables parsed from schema.sql" % len(documented)
assert not problems, "\n".join(problems)
PY
echo ok
