-- schedrig results database, schema version STORE_SCHEMA_VERSION
-- (harness/store.h, PRAGMA user_version; the number is written there only).
-- Every statement is CREATE ... IF NOT EXISTS: running this file migrates an
-- older database (version 2 added the knob table, version 3 the series table,
-- version 4 the histogram table, version 8 the sample_flag table, version 9
-- the cell_stop table; store.c fills it from the stop notes of older
-- versions; version 10 the kernel_build table, 11 the bisection tables, 13
-- the host_state table, kernel_revision and the track tables), except
-- for version 12, which added bisection.cwd, host, rig_pid, rig_start_ticks
-- and boot_id (store.c adds them to a version 11 bisection table), version
-- 13, which added bisection.rule and min_effect_pct, bisect_point.look and
-- alpha and bisect_run.phase the same way (and the bisect_check,
-- window_sample and trace tables, created here), and
-- for version 5, which split the sample table into sample_key and
-- sample_value, version 6, which added run.rig_pid, run.boot_id and
-- run.rig_start_ticks, and version 7, which added histogram.bounds,
-- min_observed, sum_value and sum_sq_value: store.c renames an old sample
-- table and adds the columns before running this file, and copies the
-- samples after.
-- A sample is never stored without the raw output it came from
-- (load_instance.id -> raw_output), so samples can be rebuilt by reparsing.

-- One row per schedrig run (or import): the config as read and where it ran.
CREATE TABLE IF NOT EXISTS run (
	id            INTEGER PRIMARY KEY,      -- the run ID (RUN on the command line)
	name          TEXT NOT NULL,            -- config name
	config_path   TEXT,                     -- the config file as given
	config_text   TEXT,                     -- the full config as read
	status        TEXT NOT NULL,            -- running|complete|failed|interrupted|imported
	started_at    TEXT NOT NULL,            -- UTC, ISO 8601
	ended_at      TEXT,                     -- UTC, ISO 8601; NULL while running
	host          TEXT,                     -- uname nodename of the controlling host
	kernel_release TEXT,                    -- uname -r there
	kernel_cmdline TEXT,                    -- /proc/cmdline there
	cpu_model     TEXT,                     -- /proc/cpuinfo "model name"
	cpu_count     INTEGER,                  -- online CPUs there
	schedrig_version TEXT,                  -- schedrig --version of the rig
	iterations    INTEGER,                  -- the config's iterations (max when adaptive)
	rig_pid       INTEGER,                  -- the schedrig process writing it (status running)
	boot_id       TEXT,                     -- /proc/sys/kernel/random/boot_id on host then
	rig_start_ticks INTEGER                 -- start time of rig_pid, /proc/PID/stat field 22
);

-- The kernel variants of a run, in config order, with the kernel each ran.
CREATE TABLE IF NOT EXISTS variant (
	id            INTEGER PRIMARY KEY,      -- variant ID
	run_id        INTEGER NOT NULL REFERENCES run(id), -- its run
	seq           INTEGER NOT NULL,         -- config order
	name          TEXT NOT NULL,            -- as in the config
	boot          TEXT NOT NULL,            -- local|qemu|ssh|lava|imported
	kernel_release TEXT,                    -- uname -r where it ran (guest, remote)
	kernel_cmdline TEXT,                    -- /proc/cmdline where it ran
	status        TEXT NOT NULL DEFAULT 'pending', -- pending|running|complete|failed|interrupted
	UNIQUE (run_id, name)
);

-- The cells of a run's plan: one point of the matrix of params and sched values.
CREATE TABLE IF NOT EXISTS cell (
	id            INTEGER PRIMARY KEY,      -- cell ID
	run_id        INTEGER NOT NULL REFERENCES run(id), -- its run
	seq           INTEGER NOT NULL,         -- plan order
	name          TEXT NOT NULL,            -- e.g. hackbench.nice=19,cyclictest.slice_us=100
	UNIQUE (run_id, name)
);

-- One (variant, cell, iteration) of a run; stored in one transaction with its
-- load instances and samples. Only complete iterations feed the tables.
CREATE TABLE IF NOT EXISTS iteration (
	id            INTEGER PRIMARY KEY,      -- iteration ID
	variant_id    INTEGER NOT NULL REFERENCES variant(id), -- its variant
	cell_id       INTEGER NOT NULL REFERENCES cell(id), -- its cell
	iteration     INTEGER NOT NULL,         -- 1-based
	status        TEXT NOT NULL,            -- complete|failed|interrupted
	started_at    TEXT,                     -- UTC, ISO 8601
	ended_at      TEXT,                     -- UTC, ISO 8601
	UNIQUE (variant_id, cell_id, iteration)
);

-- One load's process in one iteration: what ran, with which attributes
-- (requested and read back), how it ended.
CREATE TABLE IF NOT EXISTS load_instance (
	id            INTEGER PRIMARY KEY,      -- load instance ID
	iteration_id  INTEGER NOT NULL REFERENCES iteration(id), -- its iteration
	seq           INTEGER NOT NULL,         -- config order of the load
	repetition    INTEGER NOT NULL DEFAULT 0, -- background repeat: 0, 1, 2, ...
	name          TEXT NOT NULL,            -- the load's name in the config
	tool          TEXT NOT NULL,            -- its driver (schedrig loads)
	role          TEXT NOT NULL,            -- measured|background
	argv          TEXT,                     -- rendered for humans
	pid           INTEGER,                  -- process ID where it ran
	sched_requested TEXT,                   -- e.g. policy=other nice=5 slice_us=300
	sched_applied TEXT,                     -- read back from the kernel after start
	state         TEXT NOT NULL,            -- ok|failed|timeout|stopped|interrupted|warmup
	                                        -- (warmup: ended before the measured loads started)
	exit_code     INTEGER,                  -- exit status; NULL when killed
	term_signal   INTEGER,                  -- the signal that ended it; NULL when it exited
	reason        TEXT,                     -- why a failure is a failure
	started_ns    INTEGER,                  -- CLOCK_MONOTONIC
	ended_ns      INTEGER,                  -- CLOCK_MONOTONIC
	elapsed_s     REAL,                     -- wall time, s
	user_s        REAL,                     -- user CPU of its process tree, s (wait4 rusage)
	system_s      REAL,                     -- system CPU of its process tree, s
	UNIQUE (iteration_id, seq, repetition)
);

-- A load instance's output in full: samples can be rebuilt from it (reparse).
CREATE TABLE IF NOT EXISTS raw_output (
	load_instance_id INTEGER PRIMARY KEY REFERENCES load_instance(id), -- the load instance
	stdout        BLOB,                     -- everything it printed, in full
	stderr        BLOB                      -- likewise
);

-- A sample is a row of sample_value naming its metric, unit, direction
-- and op through sample_key: a run repeats a handful of keys millions of
-- times, and a row of four numbers stores at about twice the rate of the
-- row with four strings that schema version 4 had (bench/ingest.c).
-- Read samples through the view "sample" below.
CREATE TABLE IF NOT EXISTS sample_key (
	id            INTEGER PRIMARY KEY,      -- key ID
	metric        TEXT NOT NULL,            -- e.g. max_latency
	unit          TEXT NOT NULL,            -- e.g. us, s, ops/s
	better        TEXT NOT NULL CHECK (better IN ('higher', 'lower')), -- higher|lower
	op            TEXT NOT NULL,            -- the tool's op or thread, "" when none
	UNIQUE (metric, unit, better, op)
);

-- One B-tree clustered by instance (WITHOUT ROWID, primary key
-- (load_instance_id, seq)): one write per sample and range scans without
-- table lookups. load_instance_id refers to load_instance(id) and key_id to
-- sample_key(id); neither is declared a foreign key because the check costs
-- a lookup per sample and samples are only ever written in their
-- instance's own transaction.
CREATE TABLE IF NOT EXISTS sample_value (
	load_instance_id INTEGER NOT NULL,      -- the load instance it came from
	seq           INTEGER NOT NULL,         -- order the parser produced
	key_id        INTEGER NOT NULL,         -- sample_key(id)
	value         REAL,                     -- NULL stores NaN
	PRIMARY KEY (load_instance_id, seq)
) WITHOUT ROWID;

-- The tool's own warning about one sample (struct sample.flag), e.g.
-- netperf's "Desired confidence was not achieved within the specified
-- iterations.": the sample counts, and reports note it under the table.
-- Only flagged samples have a row. Keys as sample_value's.
CREATE TABLE IF NOT EXISTS sample_flag (
	load_instance_id INTEGER NOT NULL,      -- as sample_value
	seq           INTEGER NOT NULL,         -- as sample_value
	flag          TEXT NOT NULL,            -- the tool's warning, verbatim
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
	id            INTEGER PRIMARY KEY,      -- histogram ID
	load_instance_id INTEGER NOT NULL REFERENCES load_instance(id), -- the load instance it came from
	seq           INTEGER NOT NULL,         -- order the parser produced
	metric        TEXT NOT NULL,            -- e.g. latency
	unit          TEXT NOT NULL,            -- e.g. us
	op            TEXT NOT NULL,            -- thread number or latency op
	bucket_width  REAL NOT NULL,            -- width of even buckets (bounds NULL)
	n_buckets     INTEGER NOT NULL,         -- number of buckets
	limit_value   REAL NOT NULL,            -- values >= this count as overflow
	overflow      INTEGER NOT NULL,         -- count of values >= limit_value
	max_observed  REAL,                     -- the tool's Max; NULL: unknown
	counts        BLOB NOT NULL,            -- n_buckets u64 little-endian
	bounds        BLOB,                     -- n_buckets doubles, ascending; NULL: even buckets
	min_observed  REAL,                     -- the tool's Min; NULL: unknown
	sum_value     REAL,                     -- exact sum of the values; NULL: unknown
	sum_sq_value  REAL,                     -- exact sum of their squares; NULL: unknown
	UNIQUE (load_instance_id, seq)
);

-- What happened during a run, in order: failures, notes, interrupts, the
-- adaptive stop and order notes.
CREATE TABLE IF NOT EXISTS event (
	id            INTEGER PRIMARY KEY,      -- order of the events
	run_id        INTEGER NOT NULL REFERENCES run(id), -- its run
	at            TEXT NOT NULL,            -- UTC, ISO 8601
	kind          TEXT NOT NULL,            -- failure|note|interrupt|iterations|order|...
	message       TEXT NOT NULL             -- one line, as printed
);

-- Adaptive iterations (harness/adaptive.h): each (variant, cell) that
-- stopped, with the "iterations" event that says why (e.g. "variant V cell
-- C: 3 iteration(s), CI 0.8 % <= 1 %"). run --resume runs no more
-- iterations of a cell that has a row here.
CREATE TABLE IF NOT EXISTS cell_stop (
	variant_id    INTEGER NOT NULL REFERENCES variant(id), -- the variant
	cell_id       INTEGER NOT NULL REFERENCES cell(id), -- the cell that stopped
	event_id      INTEGER NOT NULL REFERENCES event(id), -- the "iterations" event saying why
	PRIMARY KEY (variant_id, cell_id)
) WITHOUT ROWID;

-- Restore journal of kernel knobs (sysctl, debugfs sched/ tunables,
-- sched_features, autogroup, and the host: settings' files: THP, SMT,
-- cpufreq governor and boost, IRQ affinity). A row is written BEFORE its knob is changed;
-- restored_at stays NULL until the old value is back, so "schedrig restore"
-- can undo what a crashed rig left behind (newest first).
CREATE TABLE IF NOT EXISTS knob (
	id            INTEGER PRIMARY KEY,      -- order of the changes
	run_id        INTEGER NOT NULL REFERENCES run(id), -- the run that changed it
	variant       TEXT NOT NULL,            -- variant name
	seq           INTEGER NOT NULL,         -- order of application in the variant
	kind          TEXT NOT NULL,            -- sysctl|debugfs|sched_features|sysfs|irq|trace_instance
	name          TEXT NOT NULL,            -- as in the config: kernel.sched_autogroup_enabled;
	                                        -- sysfs: below /sys; irq: an IRQ number or default
	path          TEXT NOT NULL,            -- file written: /proc/sys/kernel/...
	old_value     TEXT NOT NULL,            -- read before the change (a feature: NAME|NO_NAME)
	requested_value TEXT NOT NULL,          -- what the config asked for
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
	id            INTEGER PRIMARY KEY,      -- row ID
	iteration_id  INTEGER NOT NULL,         -- iteration(id)
	monitor       TEXT NOT NULL,            -- stat|psi|schedstat|loadavg|sched|task_schedstat|rusage
	key           TEXT NOT NULL,            -- e.g. user_pct, ctxt_per_s, nr_involuntary_switches
	cpu           INTEGER,                  -- CPU number; NULL: not per CPU
	pid           INTEGER,                  -- thread ID; NULL: not per task
	tgid          INTEGER,                  -- its process (load_instance pid)
	t_ms          REAL NOT NULL,            -- ms since the iteration started (CLOCK_MONOTONIC)
	value         REAL                      -- NULL stores NaN
);

-- Bisections (schedrig bisect, harness/store_bisect.h). Every step is an
-- ordinary run (bisect_run.run_id), so compare, report, plot and mail read
-- it like any other; these tables say which point of the series each run
-- measured and what the bisection concluded.
CREATE TABLE IF NOT EXISTS bisection (
	id            INTEGER PRIMARY KEY,      -- bisection ID (--resume ID, --show ID)
	config_path   TEXT NOT NULL,            -- the config file as given
	config_text   TEXT NOT NULL,            -- the config as read (resume uses it)
	good          TEXT NOT NULL,            -- --good, --bad as given
	bad           TEXT NOT NULL,            -- the bad end as given
	kind          TEXT NOT NULL,            -- variants|patches|commits: the provider
	load          TEXT,                     -- the metric decided on (--metric
	metric        TEXT,                     -- LOAD:METRIC, --op, --cell, or the
	op            TEXT,                     -- only one); NULL until the ends
	cell          TEXT,                     -- are measured
	alpha         REAL NOT NULL,            -- the family-wise alpha (--alpha)
	status        TEXT NOT NULL,            -- running|complete|refused|interrupted|failed
	result        TEXT,                     -- one line: the first bad point or the range
	started_at    TEXT NOT NULL,            -- UTC, ISO 8601
	ended_at      TEXT,                     -- UTC, ISO 8601; NULL while running
	cwd           TEXT,                     -- the directory it was begun in: the steps
	                                        -- run there (NULL: before version 12)
	host          TEXT,                     -- the schedrig walking it (status running):
	rig_pid       INTEGER,                  -- as run.host, rig_pid, rig_start_ticks
	rig_start_ticks INTEGER,                -- and boot_id; one walker per bisection
	boot_id       TEXT,                     -- its boot_id (see host)
	rule          TEXT,                     -- welch|mann-whitney|range (NULL: before
	                                        -- version 13, a rule this schedrig no
	                                        -- longer decides by)
	min_effect_pct REAL                     -- the minimum effect, once the metric is
	                                        -- decided (--min-effect-pct or its default)
);

-- The points of a bisection's series, 0 the good end; verdict NULL while
-- untested; the statistics are of the chosen metric over the point's walk
-- runs (ci95_half Student t; p and t of the rule's test against each end,
-- of the look it was decided at; an end's p is of the ends' test).
CREATE TABLE IF NOT EXISTS bisect_point (
	bisection_id  INTEGER NOT NULL REFERENCES bisection(id), -- its bisection
	k             INTEGER NOT NULL,         -- position in the series, 0 the good end
	name          TEXT NOT NULL,            -- the point's variant name
	label         TEXT NOT NULL,            -- what it is (variant, patch file: subject)
	config_text   TEXT NOT NULL,            -- the point's own config
	verdict       TEXT,                     -- good|bad|between|beyond|skip
	reason        TEXT,                     -- why (skip: failure or ambiguity; between)
	decided_seq   INTEGER,                  -- order of the verdicts
	n             INTEGER,                  -- samples of the metric (its walk runs)
	mean          REAL,                     -- their Amean
	ci95_half     REAL,                     -- half width of the 95 % CI (Student t)
	p_good        REAL,                     -- p of the test against the good end
	p_bad         REAL,                     -- p against the bad end
	t_good        REAL,                     -- the test's statistic against the good end
	t_bad         REAL,                     -- the test's statistic against the bad end
	look          INTEGER,                  -- the look it was decided at (1..3)
	alpha         REAL,                     -- the alpha that look tested at
	PRIMARY KEY (bisection_id, k)
);

-- The runs of each point: in the walk (phase 'walk', NULL before version
-- 13) attempt 1 with the config's iterations, later ones the iterations
-- a later look adds; then the confirm's rounds (phase 'confirm'), one
-- iteration each. A failed end or confirm round is measured again by a new
-- attempt. run_id is NULL until the run has begun (found by its
-- config_path, unique per attempt).
CREATE TABLE IF NOT EXISTS bisect_run (
	bisection_id  INTEGER NOT NULL REFERENCES bisection(id), -- its bisection
	k             INTEGER NOT NULL,         -- the point measured
	attempt       INTEGER NOT NULL,         -- 1, 2, ... of the point (see above)
	config_path   TEXT NOT NULL,            -- the point config written for the run
	run_id        INTEGER REFERENCES run(id), -- the run; NULL until it began
	phase         TEXT,                     -- walk|confirm (NULL: walk)
	PRIMARY KEY (bisection_id, k, attempt)
);

-- The checks after the walk (schema version 13): the confirm (last good
-- against first bad), the drift guard (each end's confirm rounds against
-- its walk samples) and whether the last good and first bad points are
-- like their ends, in that order (seq). b is tested against a.
CREATE TABLE IF NOT EXISTS bisect_check (
	bisection_id  INTEGER NOT NULL REFERENCES bisection(id), -- its bisection
	seq           INTEGER NOT NULL,         -- 1, 2, ...: the order they were made in
	what          TEXT NOT NULL,            -- confirm|good end|bad end|last good|first bad
	k_a           INTEGER NOT NULL,         -- the reference point (an end: itself)
	k_b           INTEGER NOT NULL,         -- the point tested against it
	n_a           INTEGER NOT NULL,         -- samples of a (an end: its walk's)
	n_b           INTEGER NOT NULL,         -- samples of b (the confirm's rounds)
	mean_a        REAL,                     -- the Amean (Hmean: higher is better)
	mean_b        REAL,                     -- likewise of b
	effect_pct    REAL,                     -- (mean_b - mean_a) / mean_a * 100
	p             REAL,                     -- the rule's test of b against a
	statistic     REAL,                     -- its statistic (t, U or z, the range gap)
	alpha         REAL,                     -- the alpha it was tested at
	rounds        INTEGER NOT NULL,         -- the confirm's rounds
	outcome       TEXT NOT NULL,            -- step|no step, held|moved, same|differs
	PRIMARY KEY (bisection_id, what)
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
	id            INTEGER PRIMARY KEY,      -- row ID
	run_id        INTEGER NOT NULL REFERENCES run(id), -- its run
	variant       TEXT NOT NULL,            -- variant name
	kernel        TEXT NOT NULL,            -- kernels: entry
	build_key     TEXT NOT NULL,            -- sha256, "" when not resolved
	status        TEXT NOT NULL,            -- built|cached|failed
	provenance    TEXT NOT NULL,            -- the cache entry's provenance.txt
	message       TEXT NOT NULL,            -- why it failed, "" otherwise
	log_path      TEXT NOT NULL,            -- the build log (results/runs/ID/)
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
	load_instance_id INTEGER NOT NULL,      -- load_instance(id) the sample is of
	seq           INTEGER NOT NULL,         -- order the rig produced (window_metrics.h)
	key_id        INTEGER NOT NULL,         -- sample_key(id): metric, unit, better, op
	value         REAL,                     -- NULL stores NaN
	PRIMARY KEY (load_instance_id, seq)
) WITHOUT ROWID;

-- Scheduler traces (trace: in the config; harness/trace/trace_capture.h),
-- schema version 13: one row per traced iteration, stored in the
-- iteration's transaction. The trace itself is a gzip file of the text
-- format trace_capture.h describes, at path relative to the database's
-- directory (runs/ID/traces/...).
CREATE TABLE IF NOT EXISTS trace (
	id            INTEGER PRIMARY KEY,      -- order the traces were stored in
	iteration_id  INTEGER NOT NULL REFERENCES iteration(id), -- the traced iteration
	path          TEXT NOT NULL,            -- gzip file, relative to the database's directory
	events        TEXT NOT NULL,            -- group:name, comma-separated
	buffer_kb     INTEGER NOT NULL,         -- ring buffer per CPU
	window_start_ns INTEGER NOT NULL,       -- CLOCK_MONOTONIC where it ran
	window_end_ns INTEGER NOT NULL,         -- the same clock; the window ends there
	bytes         INTEGER NOT NULL,         -- of the text, uncompressed
	lines         INTEGER NOT NULL,         -- events read (and LOST lines)
	lost_events   INTEGER NOT NULL,         -- ring buffer overruns and drops
	warning       TEXT,                     -- why it is incomplete; NULL: it is not
	UNIQUE (iteration_id)
);
-- The revision of each variant's kernel (schema version 13), what
-- schedrig track orders a config's history by: for a kernel built from a
-- git tree (kernels: with commit:, or a git work tree) its commit and git
-- describe; for a Debian package kernel (kernel: a package name or a
-- .deb) the package's version; else the label of schedrig run
-- --revision. One row per (run, variant) that has one.
CREATE TABLE IF NOT EXISTS kernel_revision (
	run_id        INTEGER NOT NULL REFERENCES run(id), -- its run
	variant       TEXT NOT NULL,            -- variant name
	kind          TEXT NOT NULL CHECK (kind IN ('git', 'package', 'label')), -- git|package|label
	revision      TEXT NOT NULL,            -- git describe, the package version, or the label
	commit_hash   TEXT,                     -- git: the full commit hash; NULL otherwise
	source        TEXT,                     -- git: the repository directory; package: its name
	UNIQUE (run_id, variant)
);

-- Branches that schedrig track --follow watches (schema version 13): the
-- config, the git tree and branch, which commits it runs, the metric its
-- change points are detected on, the detector's settings and the mail
-- that reports a regression. Like a bisection, one schedrig follows it at
-- a time (host, rig_pid, rig_start_ticks, boot_id), and --resume goes on
-- where a killed one stopped.
CREATE TABLE IF NOT EXISTS track_follow (
	id            INTEGER PRIMARY KEY,      -- follow ID (track --follow --resume ID)
	config_path   TEXT NOT NULL,            -- the config file as given
	config_text   TEXT NOT NULL,            -- the config as read when it began
	tree          TEXT NOT NULL,            -- --tree: the git repository (absolute path)
	branch        TEXT NOT NULL,            -- --branch as given
	build         TEXT NOT NULL,            -- the kernels: entry whose commit: each step sets
	every         INTEGER NOT NULL,         -- --every N: every Nth new commit (and the tip)
	since         TEXT,                     -- --since: the first commit run (full hash; NULL: the tip)
	load          TEXT,                     -- the metric change points are sought in
	metric        TEXT,                     -- (--metric LOAD:METRIC, --op, --cell; NULL
	op            TEXT,                     -- until the first run decided the only one)
	cell          TEXT,                     -- the cell (NULL: see load)
	alpha         REAL NOT NULL,            -- the permutation test's significance level
	permutations  INTEGER NOT NULL,         -- permutations per test
	seed          INTEGER NOT NULL,         -- the permutations' seed
	min_change_pct REAL NOT NULL,           -- the smallest change that counts, percent
	mail          TEXT,                     -- schedrig mail's options, one per line; NULL: no mail
	status        TEXT NOT NULL,            -- running|done|interrupted|failed
	result        TEXT,                     -- why it stopped (failed), one line
	started_at    TEXT NOT NULL,            -- UTC, ISO 8601
	ended_at      TEXT,                     -- UTC, ISO 8601; NULL while running
	cwd           TEXT NOT NULL,            -- the directory it was begun in (its steps run there)
	host          TEXT,                     -- the schedrig following it (status running):
	rig_pid       INTEGER,                  -- as bisection.host, rig_pid, rig_start_ticks
	rig_start_ticks INTEGER,                -- and boot_id
	boot_id       TEXT                      -- its boot_id (see host)
);

-- The commits a follow ran, in the order it ran them: each an ordinary
-- run of the config with the followed build at that commit. run_id is
-- NULL until the run has begun (found by its config_path).
CREATE TABLE IF NOT EXISTS track_step (
	follow_id     INTEGER NOT NULL REFERENCES track_follow(id), -- its follow
	seq           INTEGER NOT NULL,         -- 1 first
	commit_hash   TEXT NOT NULL,            -- the commit built and run (full hash)
	subject       TEXT NOT NULL,            -- its subject line
	config_path   TEXT NOT NULL,            -- the step's config (results/track/ID/)
	run_id        INTEGER REFERENCES run(id), -- the run; NULL until it began
	PRIMARY KEY (follow_id, seq)
);

-- The regressions a follow found and what it did about each: a change
-- point between two revisions of the history (before_commit, the last of
-- the old level; after_commit, the first of the new), bisected when more
-- than one commit lies between them (bisection_id), the result mailed.
-- A bisection's verdict is final; one that stopped for a reason of the
-- machine (a run that did not start, a variant that did not come up, an
-- end without samples) is retryable: --resume bisects it again, at most
-- three attempts in all.
CREATE TABLE IF NOT EXISTS track_change (
	follow_id     INTEGER NOT NULL REFERENCES track_follow(id), -- its follow
	before_commit TEXT NOT NULL,            -- the revision before the change (full hash)
	after_commit  TEXT NOT NULL,            -- the revision after it (full hash)
	commits       INTEGER NOT NULL,         -- commits in before..after (first parent)
	mean_before   REAL NOT NULL,            -- the history's mean before the change
	mean_after    REAL NOT NULL,            -- and after it
	change_pct    REAL NOT NULL,            -- (after - before) / before, percent
	p             REAL NOT NULL,            -- the permutation test's p-value
	bisection_id  INTEGER REFERENCES bisection(id), -- its bisection; NULL: none (yet)
	result        TEXT,                     -- the commit named, one line; NULL until known
	mailed_at     TEXT,                     -- UTC, ISO 8601; NULL: not mailed (yet)
	outcome       TEXT,                     -- verdict (final) | retryable (version 14); NULL: none yet
	attempts      INTEGER NOT NULL DEFAULT 0, -- bisections begun or resumed for it (version 14)
	PRIMARY KEY (follow_id, after_commit)
);

-- The host state of a run (harness/host/hostfp.h; schema version 13): the
-- machine state that moves scheduler numbers (cpufreq governor, boost, SMT,
-- C-states, THP, NUMA balancing, autogroup, isolcpus, IRQ placement, ...),
-- one row per field, each with where it was read. variant_id NULL: the
-- machine the rig ran on, when the run began; else where the variant's
-- kernel ran (this machine, a qemu guest, an ssh machine), read after its
-- knobs and host: settings were applied, before its first iteration.
-- stable 0: a field that changes from run to run by itself (the time it
-- was read, load averages): store_host_digest and compare leave it out.
CREATE TABLE IF NOT EXISTS host_state (
	run_id        INTEGER NOT NULL REFERENCES run(id), -- the run it was read for
	variant_id    INTEGER REFERENCES variant(id), -- NULL: the rig's machine
	field         TEXT NOT NULL,            -- e.g. thp.enabled, cpufreq.governor
	value         TEXT NOT NULL,            -- as read; "unreadable: EPERM (...)"
	source        TEXT NOT NULL,            -- the file or call it was read from
	stable        INTEGER NOT NULL DEFAULT 1, -- 0: changes by itself (left out of digests)
	UNIQUE (run_id, variant_id, field)
);
CREATE INDEX IF NOT EXISTS host_state_by_variant ON host_state(variant_id);
