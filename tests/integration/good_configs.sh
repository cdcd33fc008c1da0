#!/bin/bash
# Legal configs that careless parsers get wrong: `<<` merge keys (an explicit
# key overrides a merged one; earlier mappings of a merge list win), values
# that look like numbers but are names or versions (kept exactly as written),
# a UTF-8 BOM, CRLF line ends; and config values holding shell syntax (`;`,
# `$()`, quotes, a newline), which reach the tool as one literal argv element:
# --dry-run shows each as one quoted argument, and a real run executes
# nothing but the tool.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# check_ok FILE: check-config accepts it; prints its summary line.
check_ok() {
	local out
	out=$("$SCHEDRIG" check-config "$1" 2>&1) || fail "$1 was refused: $out"
	echo "$out"
}

# 1. Merge keys.
cat >merge.yaml <<'EOF'
name: merged
loads:
  - &rr
    name: first
    tool: tcp-rr
    params: {duration_s: 1, pairs: 2}
  - <<: *rr
    name: second
  - <<: *rr
    name: third
    params: {duration_s: 1, pairs: 3}
  - <<: [{name: fourth, params: {pairs: 4}}, *rr]
EOF
assert_contains "$(check_ok merge.yaml)" "merge.yaml: ok (merged, 1 variant(s), 1 cell(s)" "merge"
"$SCHEDRIG" run --dry-run merge.yaml >plan.txt 2>&1 || fail "dry-run merge.yaml: $(cat plan.txt)"
argv_of() { # LOAD: the argv line printed under load LOAD
	awk -v l="$1" '$1 == l && $3 == "sched:" { getline; sub(/^ *argv: */, ""); print; exit }' plan.txt
}
assert_eq "$(argv_of first)" "schedrig load tcp-rr --pairs 2 --duration_s 1 --request_bytes 1 --response_bytes 1 --port 0 --host 127.0.0.1 --mode process" "first (anchor)"
assert_eq "$(argv_of second)" "$(argv_of first)" "second (merged, name overridden)"
assert_contains "$(argv_of third)" "--pairs 3 " "third (params overridden by an explicit key)"
# fourth: the first mapping of the merge list wins over *rr for name and params.
assert_contains "$(argv_of fourth)" "--pairs 4 --duration_s 10 " "fourth (merge list order)"
assert_eq "$(grep -c 'argv:' plan.txt)" 4 "loads in the merged plan"

# 2. Number-like names and versions stay text exactly as written: 6.10 and
# 6.1 are different variants, 010 iterations are ten (base 10).
cat >versions.yaml <<'EOF'
name: 6.10
description: 6.10
iterations: 010
variants:
  - {name: 6.10}
  - {name: 6.1}
  - {name: 1e3}
  - {name: 0x1F}
  - {name: 1_000}
  - {name: yes}
  - {name: .inf}
  - {name: 1.10}
  - {name: "007"}
loads:
  - tool: tcp-rr
    params: {duration_s: 1, host: 6.10}
EOF
assert_eq "$(check_ok versions.yaml)" "versions.yaml: ok (6.10, 9 variant(s), 1 cell(s), 10 iteration(s))" "versions"
"$SCHEDRIG" run --dry-run versions.yaml >plan.txt 2>&1 || fail "dry-run versions.yaml: $(cat plan.txt)"
assert_eq "$(sed -n 2p plan.txt)" "  6.10" "description line"
assert_eq "$(grep '^variant ' plan.txt | cut -d: -f1 | tr '\n' ' ')" \
	"variant 6.10 variant 6.1 variant 1e3 variant 0x1F variant 1_000 variant yes variant .inf variant 1.10 variant 007 " \
	"variant names"
assert_contains "$(cat plan.txt)" "--host 6.10 " "string parameter 6.10"

# 3. UTF-8 BOM and CRLF line ends.
printf '\xef\xbb\xbfname: bom\nloads:\n  - tool: tcp-rr\n' >bom.yaml
assert_contains "$(check_ok bom.yaml)" "bom.yaml: ok (bom," "BOM"
printf 'name: crlf\r\niterations: 2\r\nloads:\r\n  - tool: tcp-rr\r\n' >crlf.yaml
assert_contains "$(check_ok crlf.yaml)" "crlf.yaml: ok (crlf, 1 variant(s), 1 cell(s), 2 iteration(s))" "CRLF"

# 4. Shell syntax in a string parameter is one literal argv element.
cat >shell.yaml <<EOF
name: shell
iterations: 1
loads:
  - tool: tcp-rr
    timeout_s: 20
    params:
      duration_s: 1
      host:
        - "127.0.0.1; touch $WORK/pwned1"
        - "\$(touch $WORK/pwned2)"
        - "\`touch $WORK/pwned3\`"
        - "a'b\\"c"
        - "x\\ntouch $WORK/pwned4"
EOF
assert_contains "$(check_ok shell.yaml)" "shell.yaml: ok (shell, 1 variant(s), 5 cell(s)" "shell"
"$SCHEDRIG" run --dry-run shell.yaml >plan.txt 2>&1 || fail "dry-run shell.yaml: $(cat plan.txt)"
plan=$(cat plan.txt)
assert_contains "$plan" "--host '127.0.0.1; touch $WORK/pwned1' --mode" "argv with ;"
assert_contains "$plan" "--host '\$(touch $WORK/pwned2)' --mode" "argv with \$()"
assert_contains "$plan" "--host '\`touch $WORK/pwned3\`' --mode" "argv with backquotes"
assert_contains "$plan" "--host 'a'\\''b\"c' --mode" "argv with quotes"
assert_contains "$plan" "--host 'x
touch $WORK/pwned4' --mode" "argv with a newline"
ls "$WORK"/pwned* >/dev/null 2>&1 && fail "dry-run executed a config value"
[ ! -e results ] || fail "dry-run created results/"

# A real run: each tool gets the value as one argument and refuses it (not a
# numeric address); no shell runs it.
rc=0
"$SCHEDRIG" run --quiet --db "$WORK/db/shell.db" shell.yaml >run.out 2>run.err || rc=$?
assert_eq "$rc" 1 "run of shell.yaml exit status ($(cat run.err))"
ls "$WORK"/pwned* >/dev/null 2>&1 && fail "a config value was executed: $(ls "$WORK"/pwned*)"
db=$WORK/db/shell.db
assert_eq "$(q "$db" "SELECT count(*) FROM load_instance WHERE state = 'failed' AND exit_code = 2")" 5 \
	"tcp-rr instances refusing the host"
assert_eq "$(q "$db" "SELECT count(*) FROM sample")" 0 "samples of failed instances"
err=$(q "$db" "SELECT stderr FROM raw_output r JOIN load_instance li ON li.id = r.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id JOIN cell c ON c.id = i.cell_id WHERE c.seq = 0")
assert_contains "$err" "--host '127.0.0.1; touch $WORK/pwned1': not a numeric" "the tool saw the literal value"
