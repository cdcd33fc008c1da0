# Helpers of the reliability tests (interrupt, resume, timeout, concurrent):
# sourced after lib.sh, not a test itself (run-tests runs only *.sh).

# The rig runs in its own directory so that everything it starts can be found
# by its working directory (loads inherit it), even processes re-parented to
# init, without mistaking other users' hackbench for ours.
RIGDIR=$WORK/rig
mkdir -p "$RIGDIR"

# start_rig ARGS...: start `schedrig ARGS` in the background in $RIGDIR with
# SIGINT/SIGTERM/SIGHUP at their default action (bash starts background
# commands with SIGINT ignored); RIG_PID receives its pid.
start_rig() {
	(cd "$RIGDIR" && exec env --default-signal=INT,TERM,HUP "$SCHEDRIG" "$@") \
		>>"$WORK/rig.out" 2>>"$WORK/rig.err" &
	RIG_PID=$!
}

# leftovers: "pid comm" of every live process working in $RIGDIR (empty
# when none). Zombies are not counted: they run nothing.
leftovers() {
	processes_in "$RIGDIR"
}

# assert_no_leftovers WHAT: no process of ours survives (allowing 2 s for
# SIGKILL of a parent-death signal to land).
assert_no_leftovers() {
	local left i
	for i in $(seq 20); do
		left=$(leftovers)
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	# Also name them the way pgrep sees them.
	fail "$1: processes left behind: $(echo "$left" | tr '\n' ';') pgrep: $(pgrep -a 'hackbench|cyclictest|schedrig' | tr '\n' ';')"
}

# kill_leftovers: clean up after a failed assertion (EXIT trap): the rig
# first, then, until none is left, whatever runs in $RIGDIR.
kill_leftovers() {
	local p i
	[ -z "${RIG_PID:-}" ] || kill -KILL "$RIG_PID" 2>/dev/null || true
	for i in $(seq 50); do
		p=$(leftovers | cut -d' ' -f1)
		[ -z "$p" ] && return 0
		kill -KILL $p 2>/dev/null || true
		sleep 0.1
	done
}
trap 'kill_leftovers; rm -rf "$WORK"' EXIT

# assert_integrity DB
assert_integrity() {
	assert_eq "$(q "$1" 'PRAGMA integrity_check')" ok "integrity_check of $1"
}

# assert_complete_iterations_intact DB RUN CYCLICTEST_SAMPLES: every
# complete iteration of RUN has a measured cyclictest instance in state ok
# with exactly CYCLICTEST_SAMPLES samples, every instance in state ok has
# samples, every instance has its raw output, and no complete iteration has
# an interrupted or failed instance.
assert_complete_iterations_intact() {
	local db=$1 run=$2 k=$3 bad
	bad=$(q "$db" "SELECT i.id FROM iteration i JOIN variant v ON v.id = i.variant_id
		WHERE v.run_id = $run AND i.status = 'complete' AND
		(SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
		 WHERE li.iteration_id = i.id AND li.tool = 'cyclictest' AND li.state = 'ok') != $k")
	[ -z "$bad" ] || fail "complete iterations without their $k cyclictest samples: $bad"
	bad=$(q "$db" "SELECT li.id FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
		JOIN variant v ON v.id = i.variant_id WHERE v.run_id = $run AND li.state = 'ok' AND
		NOT EXISTS (SELECT 1 FROM sample s WHERE s.load_instance_id = li.id)")
	[ -z "$bad" ] || fail "load instances in state ok without samples: $bad"
	bad=$(q "$db" "SELECT li.id FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
		JOIN variant v ON v.id = i.variant_id WHERE v.run_id = $run AND
		NOT EXISTS (SELECT 1 FROM raw_output r WHERE r.load_instance_id = li.id)")
	[ -z "$bad" ] || fail "load instances without raw output: $bad"
	bad=$(q "$db" "SELECT i.id FROM iteration i JOIN variant v ON v.id = i.variant_id
		JOIN load_instance li ON li.iteration_id = i.id WHERE v.run_id = $run AND
		i.status = 'complete' AND li.state IN ('interrupted', 'failed', 'timeout')")
	[ -z "$bad" ] || fail "complete iterations with unfinished instances: $bad"
}
