#!/bin/bash
# schedrig export --format kcidb: KernelCI's kcidb I/O JSON, validated
# against the kcidb schema version 5.3 (results-schema/kcidb/, from
# kernelci/kcidb-io) by python3-jsonschema (Draft-07, formats checked
# where it can). Two runs of the fake load labelled r1 and r2: a checkout
# and a build per run and variant (the label in misc), a test per sample
# whose path, unit and value are those sqlite3 reads from the database.
# Kernels built from a stand-in git tree (a Makefile that answers
# tinyconfig, olddefconfig and bzImage, as kbuild.sh's does; the qemu boot
# of its "bzImage" fails, so these runs have no samples): the checkout
# names the commit git rev-parse gives and git describe's name; a build
# with two patches has kcidb's patchset_hash (sha256 of the patches'
# newline-terminated sha256s, computed here with sha256sum as kcidb's
# schema says), its build PASS with the compiler; one whose patch does
# not apply is FAIL, its checkout not valid. A document the schema must
# refuse (an origin with a capital) is refused, so the validation is not
# idle; --origin is checked. Ids: each has the run's key (16 hex digits of
# sha256 over its host, boot_id, started_at, rig_pid, rig_start_ticks,
# computed here with sha256sum); two databases' runs 1 and 2 share no id,
# and one database exported twice gives the same ids. A few seconds.
source "$(dirname "$0")/lib.sh"
python3 -c 'import jsonschema' 2>/dev/null ||
	skip "python3-jsonschema is not installed (scripts/install-deps)"
SCHEMA=$TESTS_DIR/../results-schema/kcidb/kcidb-io.schema.v5.3.json
DB=$WORK/k.db
cd "$WORK"

validate() { # FILE
	python3 - "$SCHEMA" "$1" <<'PY'
import json, sys, jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(doc)
PY
}

# The run's key in its ids, computed here: the first 16 hex digits of
# sha256 over its host, boot_id, started_at, rig_pid, rig_start_ticks.
runkey() { # DB RUN
	q "$1" "SELECT coalesce(host, '') || char(10) || coalesce(boot_id, '') || char(10) ||
		coalesce(started_at, '') || char(10) || coalesce(rig_pid, 0) || char(10) ||
		coalesce(rig_start_ticks, 0) FROM run WHERE id = $2" | sha256sum | cut -c1-16
}
ids() { # FILE: every id of the document, sorted
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
print('\n'.join(sorted(o['id'] for k in ('checkouts', 'builds', 'tests') for o in d[k])))" "$1"
}

cat >"$WORK/f.yaml" <<EOF
name: kcidb-fake
iterations: 2
loads:
  - {tool: fake, params: {seed: 3, state_file: "$WORK/f.state"}}
EOF
for r in r1 r2; do
	"$SCHEDRIG" run "$WORK/f.yaml" --db "$DB" --revision "$r" --quiet >/dev/null ||
		fail "run $r"
done
"$SCHEDRIG" export --db "$DB" --format kcidb 1 2 >"$WORK/fake.json" || fail "export kcidb"
validate "$WORK/fake.json" || fail "the fake runs' document against the kcidb schema"
k1=$(runkey "$DB" 1)
k2=$(runkey "$DB" 2)
# Another database's run 1 and 2: none of their ids is one of these; the
# same database exported again: the same ids.
for r in r1 r2; do
	"$SCHEDRIG" run "$WORK/f.yaml" --db "$WORK/other.db" --revision "$r" --quiet >/dev/null ||
		fail "run $r in the other database"
done
"$SCHEDRIG" export --db "$WORK/other.db" --format kcidb 1 2 >"$WORK/other.json" ||
	fail "export kcidb of the other database"
validate "$WORK/other.json" || fail "the other database's document against the kcidb schema"
[ "$(ids "$WORK/other.json" | wc -l)" = "$(ids "$WORK/fake.json" | wc -l)" ] ||
	fail "the two databases' documents have different numbers of objects"
[ -z "$(comm -12 <(ids "$WORK/fake.json") <(ids "$WORK/other.json"))" ] ||
	fail "ids of two databases collide: $(comm -12 <(ids "$WORK/fake.json") <(ids "$WORK/other.json") | head -3)"
"$SCHEDRIG" export --db "$DB" --format kcidb 1 2 >"$WORK/again.json" || fail "export kcidb again"
assert_eq "$(ids "$WORK/again.json")" "$(ids "$WORK/fake.json")" "the ids of one database exported twice"
# Every sample of a complete iteration, the load's own and the rig's
# measured-window ones (schedstat deltas, window_sample), in instance order.
q "$DB" "SELECT path, unit, value FROM (
	SELECT li.id AS lid, 0 AS part, s.seq AS seq, s.unit AS unit, s.value AS value,
		'schedrig.' || li.name || '.' || s.metric || CASE s.op WHEN '' THEN '' ELSE '.' || s.op END AS path
	FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id WHERE i.status = 'complete'
	UNION ALL
	SELECT li.id, 1, w.seq, k.unit, w.value,
		'schedrig.' || li.name || '.' || k.metric || CASE k.op WHEN '' THEN '' ELSE '.' || k.op END
	FROM window_sample w JOIN sample_key k ON k.id = w.key_id
	JOIN load_instance li ON li.id = w.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id WHERE i.status = 'complete')
	ORDER BY lid, part, seq" >"$WORK/want.txt"
python3 - "$WORK/fake.json" "$WORK/want.txt" "$k1" "$k2" <<'PY' || fail "the fake runs' objects"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == {"major": 5, "minor": 3}, d["version"]
assert [c["id"] for c in d["checkouts"]] == ["schedrig:%s-run1-running" % sys.argv[3],
                                            "schedrig:%s-run2-running" % sys.argv[4]]
assert [c["misc"]["label"] for c in d["checkouts"]] == ["r1", "r2"]
assert [b["checkout_id"] for b in d["builds"]] == [c["id"] for c in d["checkouts"]]
assert all(b["status"] == "PASS" for b in d["builds"])
want = [l.split("|") for l in open(sys.argv[2]).read().split("\n") if l]
got = [(t["path"], t["number"]["unit"], t["number"]["value"]) for t in d["tests"]]
assert len(got) == len(want) and sum(p.endswith(".value.0") for p, _, _ in want) == 4, (got, want)
for (gp, gu, gv), (wp, wu, wv) in zip(got, want):
    assert (gp, gu) == (wp, wu) and abs(gv - float(wv)) < 1e-9, (gp, gu, gv, wp, wu, wv)
assert all(t["status"] == "DONE" and t["build_id"].endswith("-build") for t in d["tests"])
assert len({t["id"] for t in d["tests"]}) == len(want)
PY

# Kernels from a stand-in git tree.
TREE=$WORK/linux
mkdir -p "$TREE/kernel/sched" "$WORK/patches" "$WORK/bad"
standin_kernel_tree "$TREE"
echo 'int slice = 1;' >"$TREE/kernel/sched/core.c"
gitc() {
	git -C "$TREE" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false "$@"
}
gitc init -q -b master
gitc add -A
gitc commit -q -m "sched: one"
gitc tag v1
for i in 1 2; do
	cat >"$WORK/patches/000$i-p$i.patch" <<EOF
From: t <t@example.org>
Subject: [PATCH] p$i

--- a/kernel/sched/p$i.c
+++ b/kernel/sched/p$i.c
@@ -0,0 +1 @@
+int p$i;
EOF
done
cat >"$WORK/bad/0001-nope.patch" <<'EOF'
From: t <t@example.org>
Subject: [PATCH] does not apply

--- a/kernel/sched/core.c
+++ b/kernel/sched/core.c
@@ -1 +1 @@
-int slice = 7;
+int slice = 8;
EOF
cat >"$WORK/g.yaml" <<EOF
name: kcidb-git
iterations: 1
kernels:
  plain: {source: $TREE, commit: v1, config: [tinyconfig]}
  patched: {base: plain, patches: [$WORK/patches/]}
  broken: {base: plain, patches: [$WORK/bad/]}
variants:
  - {name: plain, boot: qemu, kernel: {build: plain}}
  - {name: patched, boot: qemu, kernel: {build: patched}}
  - {name: broken, boot: qemu, kernel: {build: broken}}
loads:
  - {tool: fake}
EOF
"$SCHEDRIG" run "$WORK/g.yaml" --db "$DB" --quiet >"$WORK/g.out" 2>&1 || true
run=$(q "$DB" "SELECT id FROM run WHERE name = 'kcidb-git'")
[ -n "$run" ] || fail "the git run was not recorded: $(cat "$WORK/g.out")"
"$SCHEDRIG" export --db "$DB" --format kcidb --origin test_ci "$run" >"$WORK/git.json" ||
	fail "export kcidb of the git run"
validate "$WORK/git.json" || fail "the git run's document against the kcidb schema"
hash=$(gitc rev-parse v1)
ph=$(cd "$WORK/patches" && sha256sum 0001-p1.patch 0002-p2.patch | cut -c-64 | sha256sum | cut -c-64)
gccv=$(gcc -v 2>&1 | tail -1)
python3 - "$WORK/git.json" "$run" "$hash" "$ph" "$TREE" "$gccv" "$(runkey "$DB" "$run")" <<'PY' || fail "the git run's objects"
import json, sys
d, run, hash, ph, tree, gccv = json.load(open(sys.argv[1])), *sys.argv[2:6], sys.argv[6].strip()
run = "%s-run%s" % (sys.argv[7], run)
co = {c["misc"]["variant"]: c for c in d["checkouts"]}
bu = {b["id"]: b for b in d["builds"]}
for v in ("plain", "patched", "broken"):
    c = co[v]
    assert c["id"] == "test_ci:%s-%s" % (run, v) and c["origin"] == "test_ci", c
    assert c["git_commit_hash"] == hash and c["git_commit_name"] == "v1", c
    assert c["misc"]["source_dir"] == tree, c
assert co["plain"]["patchset_hash"] == "" and co["patched"]["patchset_hash"] == ph, co
b = {v: bu["test_ci:%s-%s-build" % (run, v)] for v in co}
assert b["plain"]["status"] == "PASS" and b["patched"]["status"] == "PASS", b
assert b["plain"]["config_name"] == "tinyconfig" and b["plain"]["compiler"] == gccv, (b, gccv)
assert b["broken"]["status"] == "FAIL" and co["broken"]["valid"] is False, b["broken"]
assert co["plain"]["valid"] is True
assert d["tests"] == [], "a run that did not boot has no samples"
PY

# The schema refuses what it must: the check is not idle.
python3 -c "import json,sys; d=json.load(open('$WORK/fake.json'))
d['tests'][0]['origin'] = 'Not_An_Origin'; json.dump(d, open('$WORK/bad.json', 'w'))"
validate "$WORK/bad.json" 2>/dev/null && fail "the schema took an origin with a capital"
rc=0
out=$("$SCHEDRIG" export --db "$DB" --format kcidb --origin "Bad" 2>&1) || rc=$?
assert_eq "$rc" 2 "--origin Bad"
assert_contains "$out" "--origin must be one or more of [a-z0-9_]" "its message"
rc=0
"$SCHEDRIG" export --db "$DB" --origin x >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 2 "--origin without --format kcidb"
