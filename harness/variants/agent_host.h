/* The controlling host's side of the agent protocol (agent_proto.h), shared
 * by the backends that run `schedrig agent` where a variant's kernel runs
 * (boot: qemu, boot: ssh): the plan file for a variant run, and a session
 * that decodes the agent's lines and hands the kernel facts and every
 * finished iteration to the caller (variant_run's on_kernel, on_iteration). */
#ifndef SCHEDRIG_AGENT_HOST_H
#define SCHEDRIG_AGENT_HOST_H

#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "store.h"
#include "util.h"
#include "variant.h"

/* The plan file for the agent (JSON text, caller frees): the config text,
 * the variant, and every (cell, iteration) not yet done (vr->done), in plan
 * order. modules: kernel modules the agent loads first (may be empty). */
char *agent_host_plan(const struct variant_run *vr, const struct argv *modules);

/* The state of the conversation with one agent. Zero it, then set vr,
 * label, t0_s and the expectations. */
struct agent_session {
	const struct variant_run *vr;
	const char *label;            /* backend name in messages: "qemu", "ssh" */
	const char *where;            /* where the agent runs, in messages: "the guest" */
	double t0_s;                  /* CLOCK_MONOTONIC seconds the backend started */
	const char *want_release;     /* hello's release must equal it; NULL/"": any */
	const char *want_cmdline;     /* hello's cmdline must contain it; NULL: any */
	struct iteration_result res;  /* insts of the iteration under way */
	bool in_iteration;
	/* The plan's steps (as agent_host_plan wrote them, set at hello): the
	 * agent runs them in order, so every inst, series and iteration line
	 * must be of steps[iterations_done]. */
	struct agent_step *steps;
	size_t n_steps;
	/* skip_done: steps are every step of the plan, and the lines of those
	 * vr->done called done at hello are checked but dropped (boot: lava
	 * picking up the job of a rig that stored part of its log); such a
	 * step may also be missing (the job's plan left it out). */
	bool skip_done;
	bool *drop;                   /* per step: done at hello (skip_done) */
	bool quiet;                   /* no "kernel up" line (a checking pass) */
	bool hello, end, end_ok;
	bool host;                    /* the host line came (once, before any step) */
	int measured_cpus;            /* from it: online CPUs besides the agent's own; 0 unknown */
	char release[256];            /* from hello */
	char end_message[1024];
	size_t lines, iterations_done;
	double boot_s;                /* hello's arrival, seconds after t0_s */
	bool failed;                  /* err holds why (the first failure) */
	bool store_failed;            /* on_kernel, on_iteration or the journal failed */
	/* Journal the agent's knob lines through vr->journal with this host
	 * marker (knob_entry.host, e.g. "guest:v61"); NULL (or no journal):
	 * knob lines stay in the stream file only. */
	const char *knob_host;
	struct knob_entry *knobs;     /* the agent's knob changes journalled here, by arrival */
	size_t n_knobs;
	/* Monitor series of the iteration under way (its "series" lines),
	 * handed to on_iteration as res.series (store_iteration_series) and
	 * dropped after it; monitor and key strings owned. */
	struct stored_series *series;
	size_t n_series;
	struct stored_point *points;
	size_t n_points, cap_points;
	struct stored_series_set series_set;
	/* The trace of the iteration under way (its "trace" lines), written
	 * to trace_path in the run's work directory until its "trace_end";
	 * handed to on_iteration as res.trace. */
	FILE *trace_f;
	char trace_path[PATH_MAX];
	uint64_t trace_written;
	bool trace_done;
};

/* Seconds of CLOCK_MONOTONIC. */
double agent_mono_s(void);

/* Mark the session failed with a message in err (only the first one is
 * kept). */
void agent_session_fail(struct agent_session *s, char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Handle one complete agent line (with or without '\n'): hello (once,
 * first) checks the protocol version, want_release and want_cmdline and
 * calls on_kernel; inst lines are gathered, and so are series lines
 * (monitor series sampled where the agent runs); an iteration line hands
 * them to on_iteration (the series as res.series, NULL when none came);
 * end records the agent's verdict; knob lines (the agent applies and
 * restores its knobs itself) go to vr->journal's record, applied and
 * restored under knob_host when it is set, else are ignored. Nothing the
 * agent says is trusted: every field is checked (agent_decode_line) and
 * against the plan the host sent: an inst, series or iteration line must
 * be of the next step, an inst of a load of its cell (repetitions only of
 * repeat: true loads, none twice), an iteration line must count the inst
 * lines before it and, unless interrupted, hold every load of the cell;
 * trace lines of the next step are written to a file of the run's work
 * directory (at most TRACE_MAX_BYTES plus a piece), and its trace_end must
 * count exactly the bytes that came, before the iteration line;
 * "end ok" only after every step (with skip_done, steps done at hello may
 * be missing and are dropped when present); nothing after the end. Any inconsistency
 * (also a knob applied or restored that was never recorded, an unknown
 * knob kind, a knob path outside its kind's files) fails the session
 * (err); a journal failure fails it with store_failed. No-op once failed. */
void agent_session_line(struct agent_session *s, const char *line, size_t len, char *err,
			size_t errsz);

/* Append n bytes of one agent stream to partial (the stream's incomplete
 * last line) and handle every complete line; blank lines and a lone '\r'
 * (a tty) are skipped. */
void agent_session_feed(struct agent_session *s, struct buf *partial, const char *data, size_t n,
			char *err, size_t errsz);

/* The agent's machine is gone (a qemu guest powered off or was killed):
 * every knob it journalled (knob_host) and did not report restored died
 * with it; mark each restored through vr->journal. Returns 0, or -1 with
 * err when the journal failed (the rows stay for schedrig restore, which
 * only marks guest rows). Call once the guest is stopped. */
int agent_session_knobs_gone(struct agent_session *s, char *err, size_t errsz);

/* Free what the session holds (a half-gathered iteration, the knob list). */
void agent_session_free(struct agent_session *s);

/* Longest silence of the agent allowed between two lines once it is up, in
 * seconds: the variant's timeout_s plus the plan's longest load timeout_s,
 * warmup_s and the runner's grace period. */
double agent_silence_limit_s(const struct variant_run *vr);

#endif
