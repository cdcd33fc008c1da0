/* A load driver is one const ops table: what the tool is called, its
 * parameters and metrics, how to build its argv, how to parse its output and
 * how to stop it when it runs in the background. One driver per file in
 * loads/; loads/registry.c lists them all. */
#ifndef SCHEDRIG_LOAD_H
#define SCHEDRIG_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples.h"
#include "schedattr.h"
#include "util.h"

enum param_type {
	PARAM_INT,    /* base-10 integer, may be negative */
	PARAM_UINT,   /* base-10 integer >= 0 */
	PARAM_BOOL,   /* true|false */
	PARAM_ENUM,   /* one of choices ("process|thread") */
	PARAM_STRING, /* any text, passed literally as one argv element */
};

/* One parameter a driver accepts under params: in the config. */
struct param_def {
	const char *name;          /* field term: groups, loops, interval_us, ... */
	enum param_type type;
	const char *default_value; /* as text; NULL: no default, omitted from argv */
	const char *choices;       /* PARAM_ENUM only: "a|b|c" */
	long long min, max;        /* PARAM_INT/UINT range, inclusive; min > max: unchecked */
	const char *help;          /* one line, with the unit */
};

/* One metric a driver reports. unit is in the name's sense: s, us, ms, MB/s,
 * ops/s, transactions/s. decimals: digits after the point in tables, as
 * mmtests sets them per benchmark (its Extract modules' _Precision:
 * hackbench 4, cyclictest 0, everything else 2); compare --decimals
 * overrides it. series: an interval series (values per second of a run,
 * tcp-rr interval_transactions), for plots and compare --metric, left out
 * of the default tables. */
struct metric_def {
	const char *name;
	const char *unit;
	enum better better;
	const char *help;
	int decimals;
	bool series;
};

/* The metric called name in the driver called tool, or NULL when either is
 * unknown. */
const struct metric_def *load_metric(const char *tool, const char *name);

/* Resolved parameters of one load instance: every parameter of the driver
 * with the config's value or its default (value NULL when neither). */
struct param_value {
	const char *name;
	const char *value;
};
struct params {
	size_t n;
	const struct param_value *v;
};

/* The value of parameter name, or NULL when it has none. */
const char *params_get(const struct params *p, const char *name);
/* The integer value of parameter name; fallback when absent or not a number
 * (the config loader has already validated types, so drivers need no checks). */
long long params_int(const struct params *p, const char *name, long long fallback);
/* true when the parameter's value is "true". */
bool params_bool(const struct params *p, const char *name);
/* Append flag, then the integer value of parameter name in base 10, to argv
 * ("-g" "4"), when the parameter has a value (resolved parameters carry
 * their defaults, so only one without a default that the config leaves out
 * has none: then nothing is appended, flag neither). The argv building of
 * the drivers whose tools take "-FLAG N". */
void params_argv_int(const struct params *p, struct argv *argv, const char *flag,
		     const char *name);

/* A check hook helper: parameter name set to 0 means "until stopped", which
 * only a background load is (the rig stops it); a measured load would never
 * end. Returns 0, or -1 with the reason in err. */
int params_check_ends(const struct params *p, const char *name, bool background, char *err,
		      size_t errsz);

/* What one finished (or stopped) load instance left behind. Both texts are
 * NUL-terminated, complete, and may contain anything. */
struct load_output {
	const char *out;     /* stdout */
	size_t out_len;
	const char *err;     /* stderr */
	size_t err_len;
	int exit_code;       /* valid when !signaled */
	int term_signal;     /* valid when signaled */
	bool signaled;
	bool stopped;        /* the rig sent stop_signal because measured loads ended */
	/* Scheduling attributes as requested (sched_req_render) and as the
	 * kernel applied them (sched_read_back); NULL or "" when unknown.
	 * The rig checks them (outcome.h), parsers ignore them. */
	const char *sched_requested;
	const char *sched_applied;
};

/* What a load needs where it runs besides its argv[0] tool. boot: local
 * and boot: ssh machines must have these installed; a boot: qemu guest
 * gets them packed from this machine (harness/variants/guestpack.h). */
struct load_needs {
	/* NULL-terminated names looked up in PATH, then /usr/local/sbin,
	 * /usr/sbin and /sbin (proc_find_program); packed with their shared
	 * libraries at the path found, or a #! script with its interpreter. */
	const char *const *programs;
	/* NULL-terminated absolute paths of files or directories, packed as
	 * they are (directories with everything below them). */
	const char *const *files;
	/* A writable, disk-backed working directory: a qemu guest gets a disk
	 * (ext4 on virtio-blk) mounted at /scratch, its working directory and
	 * $TMPDIR (/scratch/tmp). */
	bool scratch;
	/* This machine's /usr, read-only, as the guest's /usr (virtio-9p): a
	 * whole toolchain with headers, pkg-config files and interpreters, the
	 * same one that prepared a tree here (kernbench). */
	bool host_usr;
	/* What else, in words (one line, for schedrig loads); NULL: nothing. */
	const char *note;
};

/* What one instance adds to a qemu guest for its parameters (guest_needs). */
struct guest_extra {
	struct argv files; /* absolute host paths of files or directories */
	/* Pairs: a host directory, then where it goes: a relative path on the
	 * guest's scratch disk (its working directory), or an absolute path:
	 * on the disk too, and mounted (bind) at that path in the guest, for
	 * trees that record their own absolute paths (a kernel tree's tools/). */
	struct argv trees;
	/* Pairs: a relative path on the scratch disk, then the target of the
	 * symbolic link made there. */
	struct argv links;
};

struct load_ops {
	const char *name;        /* tool: key in configs */
	const char *description; /* one line */
	const struct param_def *params;
	size_t n_params;
	const struct metric_def *metrics;
	size_t n_metrics;
	/* The headline metric adaptive iterations watch; NULL: metrics[0]. */
	const char *primary_metric;
	/* Signal that ends the tool when it runs in the background. */
	int stop_signal;
	/* true when the tool prints a parsable summary after stop_signal
	 * (cyclictest, tcp-rr); false when a stopped run yields nothing. */
	bool summarizes_on_stop;

	/* Optional: the parameter that, when > 0, makes the tool put its own
	 * threads at SCHED_FIFO with that priority (cyclictest's priority):
	 * such a load runs real-time whatever its sched: says (preflight.h). */
	const char *rt_priority_param;

	/* Optional, NULL-terminated: text that marks a line in which the tool
	 * says why it failed ("Killed signal terminated program", "(error: ").
	 * A failed or timed-out instance's reason starts with the first such
	 * line of its stderr, else stdout (outcome.h). */
	const char *const *failure_lines;
	/* Optional: NULL-terminated names of the metrics that are durations of
	 * the work the run did (its elapsed time, the time per op): a sample of
	 * one at or below 0 (-0.0 too) is a failed run, never a sample
	 * (outcome.h). NULL: none. */
	const char *const *durations;
	/* Optional: the op every sample of every metric has, when the tool's
	 * output cannot vary it (fake: "0"), so a bisection's --op is checked
	 * before anything runs; NULL: ops are known only from the samples
	 * (thread numbers, percentiles, the tool's own names). */
	const char *fixed_op;

	/* Build argv (argv[0] = program, looked up in PATH) from resolved params.
	 * Returns 0, or -1 with a message in err. NULL for a built-in load:
	 * its argv is builtin_build_argv's ("schedrig" "load" NAME, then
	 * --PARAM VALUE; the runner substitutes its own executable). Called
	 * through load_build_argv. */
	int (*build_argv)(const struct params *p, struct argv *argv, char *err, size_t errsz);

	/* Parse one instance's output into samples. Returns 0 when at least one
	 * sample was found; -1 with the reason in why (crash, no result line,
	 * garbage) — the runner then records a failure, never a sample. */
	int (*parse)(const struct load_output *o, const struct params *p,
		     struct sample_vec *samples, char *why, size_t whysz);

	/* Optional: the parameter whose 0 means "until stopped" (a run time
	 * such as duration_s): only a background load may have it so, the rig
	 * stops it; a measured load would never end, and the config is refused
	 * (params_check_ends). */
	const char *until_stopped_param;

	/* Optional: plan-time checks of one instance's resolved parameters
	 * against its scheduling attributes and role (background: it is
	 * stopped by the rig; measured: it must end by itself). Returns 0, or
	 * -1 with the reason in err, reported as a config error. */
	int (*check)(const struct params *p, const struct sched_req *sched, bool background,
		     char *err, size_t errsz);

	/* Optional: that the files one instance reads on the machine it runs
	 * on are here (kernbench's source and config, dbench's load file),
	 * changing nothing and fast: checked for boot: local variants before
	 * a run starts. Returns 0, or -1 with the reason in err. */
	int (*check_here)(const struct params *p, char *err, size_t errsz);

	/* Optional: checks and preparation in the rig before the instance
	 * starts (e.g. RLIMIT_NOFILE for hackbench). Returns 0 or -1 with err. */
	int (*prepare)(const struct params *p, char *err, size_t errsz);

	/* What the load needs where it runs (schedrig loads, guest packing). */
	struct load_needs needs;

	/* Optional, boot: qemu: what one instance needs in the guest for its
	 * parameters, appended to g (a load file, a prepared tree). prepare:
	 * make it ready here first (kernbench unpacks and configures its
	 * tree); false: only check that it could be (preflight, nothing slow).
	 * Returns 0, or -1 with err. */
	int (*guest_needs)(const struct params *p, bool prepare, struct guest_extra *g, char *err,
			   size_t errsz);

	/* Optional: progress the tool reports as it goes, counted in len
	 * bytes of its output (stdout and stderr are counted alike; the
	 * runner hands over what the load printed inside the measured
	 * window), e.g. kernbench's compile jobs (kbuild's "  CC  FILE"
	 * lines). progress_metric names the rate stored per iteration
	 * (units per second of the window), progress_unit its unit
	 * ("jobs/s"); both set with progress. */
	uint64_t (*progress)(const char *text, size_t len);
	const char *progress_metric;
	const char *progress_unit;

	/* Built-in loads only: entry point of `schedrig load NAME ARGS...`,
	 * argv[0] being NAME. Returns the process exit status. */
	int (*builtin_main)(int argc, char **argv);
};

/* Look up a driver by tool name; NULL when unknown. */
const struct load_ops *load_find(const char *name);
/* All drivers, in registry order; *n receives the count. */
const struct load_ops *const *load_all(size_t *n);
/* Build one instance's argv from its resolved parameters p: ops->build_argv,
 * or builtin_build_argv for a built-in load without one. Returns 0, or -1
 * with a message in err. */
int load_build_argv(const struct load_ops *ops, const struct params *p, struct argv *argv,
		    char *err, size_t errsz);

/* Run a built-in load from a command line: argv[0] the command ("load"),
 * argv[1] the load's name, then its own options; prog names the program
 * in messages ("schedrig load"). Without a name or with --help: the usage
 * and the built-in loads' names (exit 2 without a name). Returns the
 * load's exit status, 2 when the name is no built-in load. What the runner
 * execs for a tool Debian does not ship (builtin.h), in schedrig and in
 * schedrig-agent alike. */
int load_builtin_command(const char *prog, int argc, char **argv);
/* The parameter definition called name in ops, or NULL. */
const struct param_def *load_param(const struct load_ops *ops, const char *name);

#endif
