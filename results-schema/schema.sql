-- schedrig results database, schema version STORE_SCHEMA_VERSION
-- (harness/store.h, PRAGMA user_version; the number is written there only).
-- Every statement is CREATE ... IF NOT EXISTS: running this file migrates an
-- older database (version 2 added the knob table, version 3 the series table,
-- version 4 the histogram table, version 8 the sample_flag table, version 9
-- the cell_stop table; store.c fills it from the stop notes of older
-- versions; version 10 the kernel_build table, 11 the bisection tables), except
-- for version 12, which added bisection.cwd, host, rig_pid, rig_start_ticks
-- and boot_id (store.c adds them to a version 11 bisection table), and
-- for version 13, which added the tables window_sample and trace (created
-- here) and nothing to older tables,
-- for version 5, which split the sample table into sample_key and
-- sample_value, version 6, which added run.rig_pid, run.boot_id and
-- run.rig_start_ticks, and version 7, which added histogram.bounds,
-- min_observed, sum_value and sum_sq_value: store.c renames an old sample
-- table and adds the columns before running this file, and copies the
-- samples after.
-- A sample is never stored without the raw output it came from
-- (load_instance.id -> raw_output), so samples can be rebuilt by reparsing.

CREATE TABLE IF NOT EXISTS run (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL,            -- config name
	config_path   TEXT,
	config_text   TEXT,                     -- the full config as read
	status        TEXT NOT NULL,            -- running|complete|failed|interrupted|imported
	started_at    TEXT NOT NULL,            -- UTC, ISO 8601
	ended_at      TEXT,
	host          TEXT,
	kernel_release TEXT,
	kernel_cmdline TEXT,
	cpu_model     TEXT,
	cpu_count     INTEGER,
	schedrig_version TEXT,
	iterations    INTEGER,
	rig_pid       INTEGER,                  -- the schedrig process writing it (status running)
	boot_id       TEXT,                     -- /proc/sys/kernel/random/boot_id on host then
	rig_start_ticks INTEGER                 -- start time of rig_pid, /proc/PID/stat field 22
);

CREATE TABLE IF NOT EXISTS variant (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES run(id),
	seq           INTEGER NOT NULL,         -- config order
	name          TEXT NOT NULL,
	boot          TEXT NOT NULL,            -- local|qemu|ssh|lava|imported
	kernel_release TEXT,
	kernel_cmdline TEXT,
	status        TEXT NOT NULL DEFAULT 'pending',
	UNIQUE (run_id, name)
);

CREATE TABLE IF NOT EXISTS cell (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES run(id),
	seq           INTEGER NOT NULL,         -- plan order
	name          TEXT NOT NULL,            -- e.g. hackbench.nice=19,cyclictest.slice_us=100
	UNIQUE (run_id, name)
);

CREATE TABLE IF NOT EXISTS iteration (
	id            INTEGER PRIMARY KEY,
	variant_id    INTEGER NOT NULL REFERENCES variant(id),
	cell_id       INTEGER NOT NULL REFERENCES cell(id),
	iteration     INTEGER NOT NULL,         -- 1-based
	status        TEXT NOT NULL,            -- complete|failed|interrupted
	started_at    TEXT,
	ended_at      TEXT,
	UNIQUE (variant_id, cell_id, iteration)
);

CREATE TABLE IF NOT EXISTS load_instance (
	id            INTEGER PRIMARY KEY,
	iteration_id  INTEGER NOT NULL REFERENCES iteration(id),
	seq           INTEGER NOT NULL,         -- config order of the load
	repetition    INTEGER NOT NULL DEFAULT 0, -- background repeat: 0, 1, 2, ...
	name          TEXT NOT NULL,
	tool          TEXT NOT NULL,
	role          TEXT NOT NULL,            -- measured|background
	argv          TEXT,                     -- rendered for humans
	pid           INTEGER,
	sched_requested TEXT,                   -- e.g. policy=other nice=5 slice_us=300
	sched_applied TEXT,                     -- read back from the kernel after start
	state         TEXT NOT NULL,            -- ok|failed|timeout|stopped|interrupted|warmup
	                                        -- (warmup: ended before the measured loads started)
	exit_code     INTEGER,
	term_signal   INTEGER,
	reason        TEXT,                     -- why a failure is a failure
	started_ns    INTEGER,                  -- CLOCK_MONOTONIC
	ended_ns      INTEGER,
	elapsed_s     REAL,
	user_s        REAL,
	system_s      REAL,
	UNIQUE (iteration_id, seq, repetition)
);

CREATE TABLE IF NOT EXISTS raw_output (
	load_instance_id INTEGER PRIMARY KEY REFERENCES load_instance(id),
	stdout        BLOB,
	stderr        BLOB
);

-- A sample is a row of sample_value naming its metric, unit, direction
-- and op through sample_key: a run repeats a handful of keys millions of
-- times, and a row of four numbers stores at about twice the rate of the
-- row with four strings that schema version 4 had (bench/ingest.c).
-- Read samples through the view "sample" below.
CREATE TABLE IF NOT EXISTS sample_key (
	id            INTEGER PRIMARY KEY,
	metric        TEXT NOT NULL,
	unit          TEXT NOT NULL,
	better        TEXT NOT NULL CHECK (better IN ('higher', 'lower')),
	op            TEXT NOT NULL,
	UNIQUE (metric, unit, better, op)
);

-- One B-tree clustered by instance (WITHOUT ROWID, primary key
-- (load_instance_id, seq)): one write per sample and range scans without
-- table lookups. load_instance_id refers to load_instance(id) and key_id to
-- sample_key(id); neither is declared a foreign key because the check costs
-- a lookup per sample and samples are only ever written in their
-- instance's own transaction.
CREATE TABLE IF NOT EXISTS sample_value (
	load_instance_id INTEGER NOT NULL,
	seq           INTEGER NOT NULL,         -- order the parser produced
	key_id        INTEGER NOT NULL,
	value         REAL,                     -- NULL stores NaN
	PRIMARY KEY (load_instance_id, seq)
) WITHOUT ROWID;

-- The tool's own warning about one sample (struct sample.flag), e.g.
-- netperf's "Desired confidence was not achieved within the specified
-- iterations.": the sample counts, and reports note it under the table.
-- Only flagged samples have a row. Keys as sample_value's.
CREATE TABLE IF NOT EXISTS sample_flag (
	load_instance_id INTEGER NOT NULL,
	seq           INTEGER NOT NULL,
	flag          TEXT NOT NULL,
	PRIMARY KEY (load_instance_id, seq)
) WITHOUT ROWID;

-- Every stored sample with its names, as schema version 4 stored them.
CREATE VIEW IF NOT EXISTS sample AS
	SELECT v.load_instance_id, v.seq, k.metric, k.unit, k.better, k.op, v.value
	FROM sample_value v JOIN sample_key k ON k.id = v.key_id;

-- Latency histograms a parser found (harness/samples.h struct sample_hist;
-- cyclictest -h N: one per thread, metric latency, op = thread number;
-- tcp-rr and wakeup-lat: one per latency metric). Bucket i (0-based) counts
-- values x with upper(i-1) < x <= upper(i): upper(i) = i*bucket_width when
-- bounds is NULL, else the i-th of bounds; overflow counts x >= limit_value
-- (LIMIT is an SQL keyword).
-- counts: n_buckets unsigned 64-bit integers, little-endian, bucket 0 first.
-- bounds: n_buckets IEEE 754 doubles (their bits little-endian), strictly
-- ascending; NULL for evenly spaced buckets (schema 6 and older).
-- min_observed, sum_value, sum_sq_value: the tool's Min, the exact sum of
-- the values and of their squares; NULL when unknown.
CREATE TABLE IF NOT EXISTS histogram (
	id            INTEGER PRIMARY KEY,
	load_instance_id INTEGER NOT NULL REFERENCES load_instance(id),
	seq           INTEGER NOT NULL,         -- order the parser produced
	metric        TEXT NOT NULL,
	unit          TEXT NOT NULL,
	op            TEXT NOT NULL,
	bucket_width  REAL NOT NULL,
	n_buckets     INTEGER NOT NULL,
	limit_value   REAL NOT NULL,
	overflow      INTEGER NOT NULL,
	max_observed  REAL,                     -- the tool's Max; NULL: unknown
	counts        BLOB NOT NULL,
	bounds        BLOB,
	min_observed  REAL,
	sum_value     REAL,
	sum_sq_value  REAL,
	UNIQUE (load_instance_id, seq)
);

CREATE TABLE IF NOT EXISTS event (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES run(id),
	at            TEXT NOT NULL,
	kind          TEXT NOT NULL,            -- failure|note|interrupt|iterations|order|...
	message       TEXT NOT NULL
);

-- Adaptive iterations (harness/adaptive.h): each (variant, cell) that
-- stopped, with the "iterations" event that says why (e.g. "variant V cell
-- C: 3 iteration(s), CI 0.8 % <= 1 %"). run --resume runs no more
-- iterations of a cell that has a row here.
CREATE TABLE IF NOT EXISTS cell_stop (
	variant_id    INTEGER NOT NULL REFERENCES variant(id),
	cell_id       INTEGER NOT NULL REFERENCES cell(id),
	event_id      INTEGER NOT NULL REFERENCES event(id),
	PRIMARY KEY (variant_id, cell_id)
) WITHOUT ROWID;

-- Restore journal of kernel knobs (sysctl, debugfs sched/ tunables,
-- sched_features, autogroup). A row is written BEFORE its knob is changed;
-- restored_at stays NULL until the old value is back, so "schedrig restore"
-- can undo what a crashed rig left behind (newest first).
CREATE TABLE IF NOT EXISTS knob (
	id            INTEGER PRIMARY KEY,      -- order of the changes
	run_id        INTEGER NOT NULL REFERENCES run(id),
	variant       TEXT NOT NULL,            -- variant name
	seq           INTEGER NOT NULL,         -- order of application in the variant
	kind          TEXT NOT NULL,            -- sysctl|debugfs|sched_features
	name          TEXT NOT NULL,            -- as in the config: kernel.sched_autogroup_enabled
	path          TEXT NOT NULL,            -- file written: /proc/sys/kernel/...
	old_value     TEXT NOT NULL,            -- read before the change (a feature: NAME|NO_NAME)
	requested_value TEXT NOT NULL,
	applied_value TEXT,                     -- read back after the change; NULL: not (yet) read
	host          TEXT,                     -- where it was changed (uname nodename)
	boot_id       TEXT,                     -- /proc/sys/kernel/random/boot_id there
	changed_at    TEXT NOT NULL,            -- UTC, ISO 8601 (row written)
	restored_at   TEXT                      -- NULL until restored
);

-- Monitor series (harness/monitor.h): one row per sampled point of an
-- iteration, stored in the iteration's transaction. cpu is NULL when the
-- series is not per CPU; pid (a thread id) and tgid (its process, the
-- load_instance pid) are NULL when it is not per task. iteration_id has no
-- REFERENCES clause on purpose: the per-row foreign-key check would double
-- the rig's cost of storing series (bench/monitor-cost.sh); store.c deletes
-- series rows with their iteration.
CREATE TABLE IF NOT EXISTS series (
	id            INTEGER PRIMARY KEY,
	iteration_id  INTEGER NOT NULL,         -- iteration(id)
	monitor       TEXT NOT NULL,            -- stat|psi|schedstat|loadavg|sched|task_schedstat|rusage
	key           TEXT NOT NULL,            -- e.g. user_pct, ctxt_per_s, nr_involuntary_switches
	cpu           INTEGER,
	pid           INTEGER,
	tgid          INTEGER,
	t_ms          REAL NOT NULL,            -- ms since the iteration started (CLOCK_MONOTONIC)
	value         REAL                      -- NULL stores NaN
);

-- Bisections (schedrig bisect, harness/store_bisect.h). Every step is an
-- ordinary run (bisect_run.run_id), so compare, report, plot and mail read
-- it like any other; these tables say which point of the series each run
-- measured and what the bisection concluded.
CREATE TABLE IF NOT EXISTS bisection (
	id            INTEGER PRIMARY KEY,
	config_path   TEXT NOT NULL,
	config_text   TEXT NOT NULL,            -- the config as read (resume uses it)
	good          TEXT NOT NULL,            -- --good, --bad as given
	bad           TEXT NOT NULL,
	kind          TEXT NOT NULL,            -- variants|patches|commits: the provider
	load          TEXT,                     -- the metric decided on (--metric
	metric        TEXT,                     -- LOAD:METRIC, --op, --cell, or the
	op            TEXT,                     -- only one); NULL until the ends
	cell          TEXT,                     -- are measured
	alpha         REAL NOT NULL,
	status        TEXT NOT NULL,            -- running|complete|refused|interrupted|failed
	result        TEXT,                     -- one line: the first bad point or the range
	started_at    TEXT NOT NULL,            -- UTC, ISO 8601
	ended_at      TEXT,
	cwd           TEXT,                     -- the directory it was begun in: the steps
	                                        -- run there (NULL: before version 12)
	host          TEXT,                     -- the schedrig walking it (status running):
	rig_pid       INTEGER,                  -- as run.host, rig_pid, rig_start_ticks
	rig_start_ticks INTEGER,                -- and boot_id; one walker per bisection
	boot_id       TEXT
);

-- The points of a bisection's series, 0 the good end; verdict NULL while
-- untested; the statistics are of the chosen metric over every run of the
-- point (ci95_half Student t; p and t of Welch's test against each end).
CREATE TABLE IF NOT EXISTS bisect_point (
	bisection_id  INTEGER NOT NULL REFERENCES bisection(id),
	k             INTEGER NOT NULL,
	name          TEXT NOT NULL,            -- the point's variant name
	label         TEXT NOT NULL,            -- what it is (variant, patch file: subject)
	config_text   TEXT NOT NULL,            -- the point's own config
	verdict       TEXT,                     -- good|bad|skip
	reason        TEXT,                     -- why (skip: failure or ambiguity)
	decided_seq   INTEGER,                  -- order of the verdicts
	n             INTEGER,
	mean          REAL,
	ci95_half     REAL,
	p_good        REAL,
	p_bad         REAL,
	t_good        REAL,
	t_bad         REAL,
	PRIMARY KEY (bisection_id, k)
);

-- The runs of each point: attempt 1 with the config's iterations, 2 the
-- extra iterations of an ambiguous point. run_id is NULL until the run has
-- begun (found by its config_path, unique per attempt).
CREATE TABLE IF NOT EXISTS bisect_run (
	bisection_id  INTEGER NOT NULL REFERENCES bisection(id),
	k             INTEGER NOT NULL,
	attempt       INTEGER NOT NULL,
	config_path   TEXT NOT NULL,
	run_id        INTEGER REFERENCES run(id),
	PRIMARY KEY (bisection_id, k, attempt)
);

-- Indexes covered by a primary key or UNIQUE constraint (older databases
-- have them; each cost a page write per stored iteration).
DROP INDEX IF EXISTS sample_by_instance;
DROP INDEX IF EXISTS instance_by_iteration;
DROP INDEX IF EXISTS iteration_by_variant;
DROP INDEX IF EXISTS histogram_by_instance;
CREATE INDEX IF NOT EXISTS series_by_iteration ON series(iteration_id);
CREATE INDEX IF NOT EXISTS knob_unrestored ON knob(restored_at);

-- Kernels the rig built for a run's variants (kernels: in the config,
-- harness/kbuild/kbuild.h); schema version 10. One row per variant that names a
-- build. provenance is the cache entry's provenance.txt ("name value"
-- lines: kernel, key, source, patch, config, config_sha256, config_diff,
-- make_args, compiler, build_s, bzimage_sha256); a failed build has its
-- reason in message and its log kept at log_path (results/runs/ID/).
CREATE TABLE IF NOT EXISTS kernel_build (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES run(id),
	variant       TEXT NOT NULL,            -- variant name
	kernel        TEXT NOT NULL,            -- kernels: entry
	build_key     TEXT NOT NULL,            -- sha256, "" when not resolved
	status        TEXT NOT NULL,            -- built|cached|failed
	provenance    TEXT NOT NULL,
	message       TEXT NOT NULL,            -- why it failed, "" otherwise
	log_path      TEXT NOT NULL,
	UNIQUE (run_id, variant)
);

-- The rig's own samples of a load instance over the measured window
-- (schema version 13): its schedstat deltas summed over its tasks and over
-- the repetitions of it in the window (harness/trace/schedwin.h), and the
-- progress rate its driver counts in its output (kernbench's compile jobs
-- per second). Keys in sample_key, read with sample_value by reports
-- (store_load_rows), never replaced by reparse (they are not the parser's).
-- load_instance_id refers to load_instance(id) as in sample_value.
CREATE TABLE IF NOT EXISTS window_sample (
	load_instance_id INTEGER NOT NULL,
	seq           INTEGER NOT NULL,
	key_id        INTEGER NOT NULL,
	value         REAL,                     -- NULL stores NaN
	PRIMARY KEY (load_instance_id, seq)
) WITHOUT ROWID;

-- Scheduler traces (trace: in the config; harness/trace/trace_capture.h),
-- schema version 13: one row per traced iteration, stored in the
-- iteration's transaction. The trace itself is a gzip file of the text
-- format trace_capture.h describes, at path relative to the database's
-- directory (runs/ID/traces/...).
CREATE TABLE IF NOT EXISTS trace (
	id            INTEGER PRIMARY KEY,
	iteration_id  INTEGER NOT NULL REFERENCES iteration(id),
	path          TEXT NOT NULL,
	events        TEXT NOT NULL,            -- group:name, comma-separated
	buffer_kb     INTEGER NOT NULL,         -- ring buffer per CPU
	window_start_ns INTEGER NOT NULL,       -- CLOCK_MONOTONIC where it ran
	window_end_ns INTEGER NOT NULL,
	bytes         INTEGER NOT NULL,         -- of the text, uncompressed
	lines         INTEGER NOT NULL,         -- events read (and LOST lines)
	lost_events   INTEGER NOT NULL,         -- ring buffer overruns and drops
	warning       TEXT,                     -- why it is incomplete; NULL: it is not
	UNIQUE (iteration_id)
);
