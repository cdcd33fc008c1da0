#!/bin/bash
# The rest of the load catalog, for real:
#  - kernbench on a tiny kernel-like tree (a Makefile with the kernel's
#    clean/config/vmlinux targets compiling a few C files): the real prepare
#    (copy + tinyconfig into the cache, once, under flock), make clean, timed
#    make -j2 vmlinux, wait4 rusage; as a measured load with tcp-rr in the
#    background through `schedrig run`; a compiler killed by a signal is a
#    failure; two concurrent preparations configure once.
#  - oltp: a private MariaDB server at SCHED_BATCH with the sysbench client at
#    SCHED_OTHER, through `schedrig run`; stopped by SIGTERM; a server that
#    cannot start; never a mariadbd or a private directory left behind.
#  - dbench, perf-pipe, stress-ng and sysbench for a second or two each
#    through `schedrig run`, a real sample per metric.
source "$(dirname "$0")/lib.sh"

command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] ||
	fail "mariadbd not installed (scripts/install-deps: mariadb-server)"
command -v sysbench >/dev/null || fail "sysbench not installed (scripts/install-deps)"

# positive DB SQL WHAT: the query's single value is a number > 0.
positive() {
	local v
	v=$(q "$1" "$2")
	awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v + 0 > 0) }' ||
		fail "$3: expected a number > 0, got '$v'"
}

# samples DB LOAD METRIC: the values of one metric of one load, one a line.
samples() {
	q "$1" "SELECT s.value FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		WHERE li.name = '$2' AND s.metric = '$3' ORDER BY s.load_instance_id, s.seq"
}

# every_positive DB LOAD METRIC COUNT: COUNT samples, each > 0.
every_positive() {
	local vals n
	vals=$(samples "$1" "$2" "$3")
	n=$(printf '%s\n' "$vals" | grep -c . || true)
	[ "$n" -eq "$4" ] || fail "$2 $3: expected $4 samples, got $n ($vals)"
	printf '%s\n' "$vals" | awk '!($1 + 0 > 0) { bad = 1 } END { exit bad }' ||
		fail "$2 $3: a sample is not > 0: $vals"
}

# ---- kernbench ----

source "$(dirname "$0")/kerntree.bash"
TREE=$WORK/tree
make_tiny_tree "$TREE"
# The source tree must stay pristine: the build happens in the cache.
before=$(cd "$TREE" && find . -type f | sort | md5sum)

DB=$WORK/kb.db
cat > "$WORK/kb.yaml" <<YAML
name: kb-tiny
iterations: 2
warmup_s: 0.5
loads:
  - name: rr
    tool: tcp-rr
    role: background
    params: {pairs: 2, duration_s: 0}
  - name: kb
    tool: kernbench
    role: measured
    timeout_s: 120
    params: {jobs: 2, source: "$TREE", cache_dir: "$WORK/cache", config: tinyconfig}
YAML
"$SCHEDRIG" check-config "$WORK/kb.yaml" >/dev/null || fail "kb.yaml does not check"
out=$("$SCHEDRIG" run "$WORK/kb.yaml" --db "$DB" --dry-run)
assert_contains "$out" "schedrig load kernbench --jobs 2 --config tinyconfig --targets vmlinux --source $TREE" "kernbench dry-run argv"
"$SCHEDRIG" run "$WORK/kb.yaml" --db "$DB" > "$WORK/kb.out" 2>&1 || fail "kernbench run failed: $(cat "$WORK/kb.out")"
assert_eq "$(q "$DB" "SELECT status FROM run")" "complete" "kernbench run status"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" "2" "kernbench complete iterations"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance WHERE name = 'kb' AND exit_code = 0")" "2" \
	"kernbench instances with exit code 0"
for m in elapsed user system; do
	every_positive "$DB" kb "$m" 2
done
assert_eq "$(q "$DB" "SELECT DISTINCT s.op || ' ' || s.unit FROM sample s JOIN load_instance li
	ON li.id = s.load_instance_id WHERE li.name = 'kb'")" "2 s" "kernbench op (jobs) and unit"
# The background tcp-rr ran and summarized after each build.
n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	WHERE li.name = 'rr' AND s.metric = 'transactions'")
assert_eq "$n" "4" "tcp-rr transactions samples (2 pairs x 2 iterations)"
# Prepared once (the copy and tinyconfig), cleaned and built per iteration.
entries=$(find "$WORK/cache" -mindepth 1 -maxdepth 1 -type d | wc -l)
assert_eq "$entries" "1" "kernbench cache entries"
entry=$(find "$WORK/cache" -mindepth 1 -maxdepth 1 -type d)
assert_eq "$(grep -c '^configuring tinyconfig for ARCH=x86_64' "$entry/prepare.log")" "1" "tinyconfig runs"
[ -f "$entry/prepared" ] || fail "no prepared marker in $entry"
[ -x "$entry/src/vmlinux" ] || fail "the build left no vmlinux"
"$entry/src/vmlinux" >/dev/null || fail "the tiny vmlinux does not run"
grep -q '^rm -f ' "$entry/build.log" || fail "build.log shows no make clean"

# clean: targets: make prepare once in the entry (marked made-prepare), then
# per build only the target files are removed and rebuilt; clean: tree (make
# clean) takes the mark away again.
for i in 1 2; do
	"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --jobs 1 \
		--clean targets --targets kernel/sched.o >"$WORK/t$i.out" 2>"$WORK/t$i.err" ||
		fail "clean: targets build $i: $(cat "$WORK/t$i.err")"
	assert_contains "$(cat "$WORK/t$i.out")" "end status=0" "clean: targets build $i output"
	[ "$i" = 1 ] && fork_mtime=$(stat -c %Y.%y "$entry/src/kernel/fork.o")
done
assert_eq "$(grep -c '^preparing for ARCH=x86_64' "$entry/prepare.log")" "1" "make prepare runs"
[ -f "$entry/made-prepare" ] || fail "no made-prepare mark in $entry"
# make's commands go to kernbench's stderr (the rig counts compile jobs
# there), its errors to build.log
assert_eq "$(cat "$WORK/t2.err")" "cc -O2 -c -o kernel/sched.o kernel/sched.c" \
	"the build of clean: targets: the target alone, no make clean"
assert_eq "$(cat "$entry/build.log")" "" "build.log of a build without errors"
assert_eq "$(stat -c %Y.%y "$entry/src/kernel/fork.o")" "$fork_mtime" "an object that is no target"
rc=0
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --clean targets \
	--targets kernel >/dev/null 2>"$WORK/dir.err" || rc=$?
assert_eq "$rc" 1 "clean: targets with a directory target"
assert_contains "$(cat "$WORK/dir.err")" "clean: targets cannot remove target kernel: Is a directory" \
	"directory target message"
touch "$WORK/outside.o"
rc=0
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --clean targets \
	--targets ../../../outside.o >/dev/null 2>"$WORK/out.err" || rc=$?
assert_eq "$rc" 1 "clean: targets with a target outside the tree"
assert_contains "$(cat "$WORK/out.err")" "clean: targets removes files of the tree only, not ../../../outside.o" \
	"outside target message"
[ -e "$WORK/outside.o" ] || fail "clean: targets removed a file outside the tree"
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --jobs 1 >/dev/null 2>&1 ||
	fail "clean: tree build after clean: targets"
[ ! -e "$entry/made-prepare" ] || fail "make clean left the made-prepare mark"
raw=$(q "$DB" "SELECT CAST(r.stdout AS TEXT) FROM raw_output r JOIN load_instance li ON li.id = r.load_instance_id
	WHERE li.name = 'kb' LIMIT 1")
assert_contains "$raw" "end status=0" "kernbench raw output"
assert_eq "$(cd "$TREE" && find . -type f | sort | md5sum)" "$before" "the source tree was modified"
! pgrep -f "$WORK/cache" >/dev/null || fail "a make or compiler was left behind: $(pgrep -af "$WORK/cache")"

# A compiler killed by a signal (the OOM killer's SIGKILL) fails the build:
# exit status 1, no result lines.
rc=0
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --targets crash \
	>"$WORK/crash.out" 2>"$WORK/crash.err" || rc=$?
assert_eq "$rc" "1" "kernbench exit status for a killed compiler ($(cat "$WORK/crash.err"))"
assert_eq "$(wc -c < "$WORK/crash.out")" "0" "kernbench stdout after a failed build"
# (make's commands come first on stderr: the rig counts compile jobs there)
assert_contains "$(grep -m1 '^schedrig load kernbench:' "$WORK/crash.err")" "failed: exit status 2" \
	"kernbench failure reason"
assert_contains "$(cat "$WORK/crash.err")" "Killed" "kernbench failure log tail"
# A compiler killed while make goes on (a '-' recipe, a cc-option probe):
# make exits 0, but the build log's line makes it a failure, in gcc's words.
rc=0
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --targets killedcc \
	>"$WORK/killed.out" 2>"$WORK/killed.err" || rc=$?
assert_eq "$rc" "1" "kernbench exit status for a killed compiler make ignored"
assert_eq "$(wc -c < "$WORK/killed.out")" "0" "kernbench stdout after a killed compiler"
assert_eq "$(grep -m1 '^schedrig load kernbench:' "$WORK/killed.err")" \
	"schedrig load kernbench: gcc: fatal error: Killed signal terminated program cc1" \
	"kernbench reason line"
# ... and through run: the stored reason is gcc's line.
sed -e 's/name: kb-tiny/name: kb-killed/' -e 's/iterations: 2/iterations: 1/' \
	-e 's/config: tinyconfig}/config: tinyconfig, targets: killedcc}/' "$WORK/kb.yaml" > "$WORK/kbk.yaml"
rc=0
"$SCHEDRIG" run "$WORK/kbk.yaml" --db "$WORK/kbk.db" > "$WORK/kbk.out" 2>&1 || rc=$?
assert_eq "$rc" "1" "run with a killed compiler ($(cat "$WORK/kbk.out"))"
assert_eq "$(q "$WORK/kbk.db" "SELECT state || ': ' || reason FROM load_instance WHERE name = 'kb'")" \
	"failed: schedrig load kernbench: gcc: fatal error: Killed signal terminated program cc1 (exit status 1)" \
	"stored kernbench failure reason"
# A target that is an option is a usage error.
rc=0
"$SCHEDRIG" load kernbench --source "$TREE" --targets "vmlinux -k" >/dev/null 2>&1 || rc=$?
assert_eq "$rc" "2" "kernbench option as target"
# A config file: copied to .config, then olddefconfig; its own cache entry.
printf 'CONFIG_FILE=y\n' > "$WORK/my.config"
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache" --config "$WORK/my.config" \
	--jobs 1 > "$WORK/file.out" 2>"$WORK/file.err" || fail "kernbench with a config file: $(cat "$WORK/file.err")"
head -1 "$WORK/file.out" | grep -q '^schedrig-kernbench 1 jobs=1 ' || fail "kernbench header: $(cat "$WORK/file.out")"
assert_eq "$(find "$WORK/cache" -mindepth 1 -maxdepth 1 -type d | wc -l)" "2" "cache entries with a config file"

# Two concurrent preparations of a new entry: one waits for the other's
# flock and reuses its tree; allnoconfig runs once.
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache2" --config allnoconfig \
	--prepare_only true 2>"$WORK/p1.err" &
p1=$!
"$SCHEDRIG" load kernbench --source "$TREE" --cache_dir "$WORK/cache2" --config allnoconfig \
	--prepare_only true 2>"$WORK/p2.err" &
p2=$!
wait "$p1" || fail "first concurrent preparation: $(cat "$WORK/p1.err")"
wait "$p2" || fail "second concurrent preparation: $(cat "$WORK/p2.err")"
assert_eq "$(cat "$WORK/cache2"/*/prepare.log | grep -c '^configuring allnoconfig')" "1" "concurrent preparations configured"
assert_eq "$(cat "$WORK/p1.err" "$WORK/p2.err" | grep -c '(prepared now)')" "1" "exactly one preparer"

# ---- oltp ----

mariadbd_count() {
	{ pgrep -x mariadbd || true; } | wc -l
}
servers_before=$(mariadbd_count)
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR"

DB=$WORK/oltp.db
cat > "$WORK/oltp.yaml" <<YAML
name: oltp-tiny
iterations: 1
loads:
  - name: db
    tool: oltp
    timeout_s: 180
    params: {clients: 2, duration_s: 3, tables: 1, table_size: 1000}
    sched: {policy: batch}
YAML
"$SCHEDRIG" run "$WORK/oltp.yaml" --db "$DB" > "$WORK/oltp.out" 2>&1 || fail "oltp run failed: $(cat "$WORK/oltp.out")"
assert_eq "$(q "$DB" "SELECT status FROM run")" "complete" "oltp run status"
positive "$DB" "SELECT s.value FROM sample s WHERE s.metric = 'transactions_per_s' AND s.op = '2'" "transactions_per_s"
positive "$DB" "SELECT s.value FROM sample s WHERE s.metric = 'queries_per_s'" "queries_per_s"
positive "$DB" "SELECT s.value FROM sample s WHERE s.metric = 'latency_p95'" "latency_p95"
assert_contains "$(q "$DB" "SELECT sched_applied FROM load_instance WHERE name = 'db'")" "policy=batch" \
	"oltp applied policy"
assert_eq "$(mariadbd_count)" "$servers_before" "mariadbd processes after the oltp run"
! pgrep -f "schedrig-oltp" >/dev/null || fail "left behind: $(pgrep -af schedrig-oltp)"
assert_eq "$(find "$TMPDIR" -mindepth 1 | wc -l)" "0" "oltp private directories left"

# By hand at SCHED_BATCH: the server keeps batch, the client runs at
# SCHED_OTHER; SIGTERM mid-run stops everything, no samples, exit 1.
chrt -b 0 "$SCHEDRIG" load oltp --clients 2 --duration_s 60 --table_size 1000 \
	>"$WORK/stop.out" 2>"$WORK/stop.err" &
pid=$!
server="" client=""
for _ in $(seq 600); do
	server=$(pgrep -f "^/usr/sbin/mariadbd --no-defaults --datadir=$TMPDIR/" | head -1 || true)
	client=$(pgrep -f "sysbench oltp_read_write .*$TMPDIR/.* run$" | head -1 || true)
	[ -n "$server" ] && [ -n "$client" ] && break
	sleep 0.1
done
[ -n "$server" ] && [ -n "$client" ] || fail "oltp server/client did not start: $(cat "$WORK/stop.err")"
assert_contains "$(chrt -p "$server")" "SCHED_BATCH" "server policy"
assert_contains "$(chrt -p "$client")" "SCHED_OTHER" "sysbench client policy"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" "1" "oltp exit status after SIGTERM"
assert_contains "$(cat "$WORK/stop.err")" "stopped by Terminated" "oltp stop reason"
assert_eq "$(wc -c < "$WORK/stop.out")" "0" "oltp stdout after SIGTERM"
! kill -0 "$server" 2>/dev/null || fail "mariadbd $server survived SIGTERM of the load"
assert_eq "$(mariadbd_count)" "$servers_before" "mariadbd processes after SIGTERM"
assert_eq "$(find "$TMPDIR" -mindepth 1 | wc -l)" "0" "oltp private directories left after SIGTERM"

# A server that cannot start: its error log's last line is the reason.
mkdir -p "$WORK/bin"
printf '#!/bin/sh\necho "2026-01-01 0 [ERROR] fake mariadbd: cannot start" >&2\nexit 1\n' > "$WORK/bin/mariadbd"
chmod +x "$WORK/bin/mariadbd"
rc=0
PATH=$WORK/bin:$PATH "$SCHEDRIG" load oltp --duration_s 2 >"$WORK/bad.out" 2>"$WORK/bad.err" || rc=$?
assert_eq "$rc" "1" "oltp exit status when the server cannot start"
assert_contains "$(head -1 "$WORK/bad.err")" "exited during start-up (exit status 1): 2026-01-01 0 [ERROR] fake mariadbd" "oltp start failure reason"
assert_eq "$(find "$TMPDIR" -mindepth 1 | wc -l)" "0" "oltp private directories left after a start failure"
unset TMPDIR

# ---- the other drivers of the catalog, a second or two each ----

DB=$WORK/others.db
cat > "$WORK/others.yaml" <<YAML
name: others
iterations: 1
loads:
  - {name: dbench, tool: dbench, timeout_s: 60, params: {clients: 1, duration_s: 2, dir: "$WORK"}}
  - {name: perf-pipe, tool: perf-pipe, timeout_s: 60, params: {loops: 20000}}
  - {name: stress-ng, tool: stress-ng, timeout_s: 60, params: {stressor: switch, workers: 1, duration_s: 2}}
  - {name: sysbench, tool: sysbench, timeout_s: 60, params: {test: cpu, threads: 1, duration_s: 2}}
YAML
"$SCHEDRIG" run "$WORK/others.yaml" --db "$DB" > "$WORK/others.out" 2>&1 ||
	fail "run of dbench, perf-pipe, stress-ng, sysbench failed: $(cat "$WORK/others.out")"
for lm in dbench:throughput dbench:max_latency perf-pipe:time perf-pipe:usecs_per_op \
	perf-pipe:ops_per_sec stress-ng:bogo_ops_per_s stress-ng:ns_per_switch \
	sysbench:events_per_s sysbench:latency_avg sysbench:latency_p95 sysbench:events; do
	positive "$DB" "SELECT s.value FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		WHERE li.name = '${lm%%:*}' AND s.metric = '${lm#*:}'" "$lm"
done
