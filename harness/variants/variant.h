/* harness/variants/: kernel-variant backends, one file each (local, qemu,
 * ssh, lava), behind struct variant_backend and listed in backends.c; what
 * they share: variant (the interface, the plan's tools), the guest's image,
 * initramfs, tools and disk (guest_image, initramfs, guestpack, guestdisk),
 * kernel_btf (what an image says about itself), the agent's host side
 * (agent_host), ssh (ssh_remote, sshargv), the LAVA job definition
 * (lava_job; the lab's API and logs are harness/lava/).
 */

/* Kernel-variant backends: where a variant's loads run. One file per backend
 * in harness/variants/ (local.c: the running kernel, in-process runner).
 * A backend brings the variant up (knobs, boot), runs every cell × iteration
 * of the plan there, and hands each finished iteration to the caller, which
 * parses and stores it on the controlling host. */
#ifndef SCHEDRIG_VARIANT_H
#define SCHEDRIG_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "hostfp.h"
#include "knobs.h"
#include "plan.h"
#include "runner.h"

/* Facts about the kernel a variant really ran on, filled by the backend
 * before the first iteration (uname -r and /proc/cmdline where it ran). */
struct variant_kernel {
	char release[256];
	char cmdline[4096];
	int autogroup; /* kernel.sched_autogroup_enabled before the variant's
			* knobs: 0, 1; -1 unknown */
};

/* Called once per finished iteration, in plan order (cell, then iteration,
 * 1-based). Returns 0 to go on, -1 to stop the variant (storage failed). */
typedef int (*iteration_fn)(void *ctx, size_t cell, int iteration,
			    struct iteration_result *res);

/* Called once, after the kernel is up and before any iteration. */
typedef int (*kernel_fn)(void *ctx, const struct variant_kernel *k);

/* Called once per backend run, after the variant's knobs and host:
 * settings were applied and before its first iteration: the fingerprint
 * of the machine its kernel runs on (hostfp.h), read there, and what
 * applying the settings skipped (hostset.h notes, one message each).
 * Returns 0, or -1 with err to stop the variant: the fingerprint does not
 * show what was asked for (hostdecl_check), or storing it failed. */
typedef int (*host_fn)(void *ctx, const struct host_fp *fp, const struct argv *notes, char *err,
		       size_t errsz);

struct variant_run {
	const struct experiment *e;
	const struct cfg_variant *v;
	const struct plan *p;
	int iterations;
	const char *self_exe;  /* this schedrig binary */
	const char *work_dir;  /* scratch directory of the run (exists) */
	int64_t run_id;        /* the run's id (names its trace instance) */
	kernel_fn on_kernel;
	host_fn on_host;
	iteration_fn on_iteration;
	void *ctx;
	/* Adaptive iterations: after each iteration, true when the cell has
	 * enough (its confidence interval is narrow enough, or its time budget
	 * is spent); NULL: always run all iterations. */
	bool (*enough)(void *ctx, size_t cell, int iteration);
	/* Skip (cell, iteration) pairs already stored (run --resume); NULL: none. */
	bool (*done)(void *ctx, size_t cell, int iteration);
	/* Journal of the variant's knob changes (knobs.h), written before each
	 * change, so "schedrig restore" can undo them; NULL: not journalled. */
	const struct knob_journal_ops *journal;
	/* Notes the backend keeps with the run as events of a kind (boot:
	 * lava: "lava-job", each job's id, URL and device) and reads back (run
	 * --resume picks its jobs up by id): 0, or -1 (store failed). NULL:
	 * nothing kept. notes hands over malloc'd strings (caller frees). */
	int (*note)(void *ctx, const char *kind, const char *message);
	int (*notes)(void *ctx, const char *kind, char ***msgs, size_t *n);
	/* boot: lava: decode this job log file instead of submitting a job
	 * (schedrig import-lava); NULL: submit. */
	const char *lava_log;
};

struct preflight;
/* A variant's plan running elsewhere as one job the rig only waits for
 * (boot: lava: a LAVA job); the backend's own. */
struct variant_job;

/* A backend has either run (the rig drives the variant, one variant at a
 * time) or the four job slots start, poll, cancel and collect (the
 * variant's plan runs elsewhere as a job: the session starts every such
 * variant of the run, waits for all of them in one loop and collects each
 * as it finishes). The other slots are NULL. */
struct variant_backend {
	const char *name; /* value of boot: in configs */
	/* Run the whole plan on the variant. Returns 0 when every iteration was
	 * handed over (failures inside iterations are theirs to record), or -1
	 * with err when the variant itself failed (knob refused, boot failed). */
	int (*run)(const struct variant_run *vr, char *err, size_t errsz);
	/* Start the plan's steps left (vr->done) without waiting: 0 with *job,
	 * or with *job NULL when no step is left; -1 with err (the job
	 * refused). vr must stay valid until collect. */
	int (*start)(const struct variant_run *vr, struct variant_job **job, char *err,
		     size_t errsz);
	/* One look at the job, without waiting: 0 still running, 1 finished
	 * (collect it), -1 ended badly with err (collect frees it): canceled
	 * after cancel, its time bound passed (then canceled), the lab's API
	 * failing. Prints a line when the job's state changes. */
	int (*poll)(struct variant_job *job, char *err, size_t errsz);
	/* Ask for the job to be canceled (Ctrl-C, the run stopping) without
	 * waiting; poll then reports it ended (bounded wait). After poll's 1:
	 * its results are dropped, collect only frees it. */
	void (*cancel)(struct variant_job *job);
	/* After poll's 1: hand the job's results to vr (on_kernel,
	 * on_iteration, as run does), free the job, 0 or -1 with err as run.
	 * After poll's -1, or cancel after poll's 1: free the job, -1, err
	 * left as it was. */
	int (*collect)(struct variant_job *job, char *err, size_t errsz);
	/* Check v and the plan's loads against what v will have, before
	 * anything runs (preflight.h): refuse what cannot work there, warn
	 * about what cannot be known until it runs. */
	void (*preflight)(struct preflight *pf, const struct cfg_variant *v);
};

/* The load tools of plan p: argv[0] of every instance ("schedrig", the
 * built-in loads, left out), once each, in plan order, appended to tools.
 * When loads is not NULL, the name of the first load (cfg_load.name) that
 * runs each tool is appended to it, at the same index as the tool. */
void variant_plan_tools(const struct plan *p, struct argv *tools, struct argv *loads);

/* Every load tool of plan p is installed here (spawn_which), every
 * program and file a load needs besides (load_ops.needs: oltp's MariaDB,
 * looked up as proc_find_program does) and every file its instances read
 * (load_ops.check_here: kernbench's source, dbench's load file) is here,
 * when e has a boot: local variant, whose loads run on this machine; 0
 * also when it has none. Else -1 with one message in err naming each
 * missing tool and the load that runs it, then per load each missing
 * program and needed file and its first missing file: "load 'L': tool 'T'
 * is not installed here (no executable file of that name in PATH); load
 * 'L2': program 'P' is not installed here; load 'L2': FILE is not here;
 * load 'L3': WHY". */
int variant_check_local_tools(const struct experiment *e, const struct plan *p, char *err,
			      size_t errsz);

#endif
