#!/bin/bash
# The built-in loads as the runner starts them, `schedrig load NAME --PARAM
# VALUE ...`: tcp-rr run to its end, tcp-rr with duration_s 0 stopped by
# SIGINT (summary, exit 0, no child process left), wakeup-lat for 2 s.
source "$(dirname "$0")/lib.sh"

# value METRIC OP FILE: VALUE of the result line "METRIC OP VALUE".
value() {
	awk -v m="$1" -v o="$2" '$1 == m && $2 == o { print $3 }' "$3"
}

# assert_positive METRIC OP FILE
assert_positive() {
	local v
	v=$(value "$1" "$2" "$3")
	awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0) }' ||
		fail "$1 $2: expected a number > 0, got '$v'"
}

# 1. tcp-rr, two pairs for 2 s.
rc=0
"$SCHEDRIG" load tcp-rr --pairs 2 --duration_s 2 >"$WORK/rr.out" 2>"$WORK/rr.err" || rc=$?
assert_eq "$rc" 0 "tcp-rr exit status ($(cat "$WORK/rr.err"))"
head -1 "$WORK/rr.out" | grep -q '^schedrig-tcp-rr 1 pairs=2 ' || fail "tcp-rr header: $(head -1 "$WORK/rr.out")"
assert_positive transactions 0 "$WORK/rr.out"
assert_positive transactions 1 "$WORK/rr.out"
assert_positive interval_transactions pair0-s0 "$WORK/rr.out"
assert_positive interval_transactions pair1-s1 "$WORK/rr.out"
for op in p50 p90 p99 p99.9 max; do
	assert_positive latency "$op" "$WORK/rr.out"
done
tail -1 "$WORK/rr.out" | grep -Eq '^end elapsed_s=(1\.9|2\.)' || fail "tcp-rr end line: $(tail -1 "$WORK/rr.out")"

# 2. duration_s 0: runs until SIGINT, then summarizes and exits 0, and has
# reaped its four children (a server and a client process per pair).
t0=$(date +%s.%N)
"$SCHEDRIG" load tcp-rr --pairs 2 --duration_s 0 >"$WORK/stop.out" 2>"$WORK/stop.err" &
pid=$!
kids=
for _ in $(seq 300); do # its four children, 30 s at most
	kids=$(pgrep -P "$pid" | paste -sd, -) || true
	[ "$(echo "$kids" | tr ',' '\n' | grep -c .)" -eq 4 ] && break
	sleep 0.1
done
assert_eq "$(echo "$kids" | tr ',' '\n' | grep -c .)" 4 "tcp-rr child processes while running"
t_kids=$(date +%s.%N)
sleep 2
t_int=$(date +%s.%N)
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
t1=$(date +%s.%N)
assert_eq "$rc" 0 "tcp-rr exit status after SIGINT ($(cat "$WORK/stop.err"))"
left=$(ps -o pid=,stat=,comm= -p "$kids" || true)
[ -z "$left" ] || fail "tcp-rr left child processes behind: $left"
assert_positive transactions 0 "$WORK/stop.out"
assert_positive transactions 1 "$WORK/stop.out"
assert_positive latency p99 "$WORK/stop.out"
# Its clock runs from the pairs' connection to SIGINT: at most the time from
# its start to its exit, at least the 2 s from seeing its four children to
# SIGINT less 1 s for them to connect (how long it took to start, loaded or
# under ASan, does not count).
end=$(tail -1 "$WORK/stop.out")
awk -v e="${end#end elapsed_s=}" -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	-v r="$(awk -v a="$t_kids" -v b="$t_int" 'BEGIN { print b - a }')" \
	'BEGIN { exit !(e + 0 > 0 && e + 0 <= w && e + 0 >= r - 1) }' && [[ $end == "end elapsed_s="* ]] ||
	fail "tcp-rr end line after SIGINT: $end"

# 3. thread mode stopped by SIGTERM.
"$SCHEDRIG" load tcp-rr --duration_s 0 --mode thread >"$WORK/thr.out" 2>"$WORK/thr.err" &
pid=$!
sleep 1
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 0 "tcp-rr thread mode exit status after SIGTERM ($(cat "$WORK/thr.err"))"
assert_positive transactions 0 "$WORK/thr.out"

# 4. A bad parameter is a usage error.
rc=0
"$SCHEDRIG" load tcp-rr --pairs 0 >/dev/null 2>"$WORK/bad.err" || rc=$?
assert_eq "$rc" 2 "tcp-rr --pairs 0 exit status"
assert_contains "$(cat "$WORK/bad.err")" "out of range" "tcp-rr --pairs 0 message"

# 5. wakeup-lat for 2 s.
rc=0
"$SCHEDRIG" load wakeup-lat --runtime_s 2 >"$WORK/wl.out" 2>"$WORK/wl.err" || rc=$?
assert_eq "$rc" 0 "wakeup-lat exit status ($(cat "$WORK/wl.err"))"
for m in wakeup_latency request_latency; do
	for op in p50 p90 p99 p99.9 max; do
		assert_positive "$m" "$op" "$WORK/wl.out"
	done
done
assert_positive requests_per_s all "$WORK/wl.out"
tail -1 "$WORK/wl.out" | grep -Eq '^end elapsed_s=(1\.9|2\.)' || fail "wakeup-lat end line: $(tail -1 "$WORK/wl.out")"
