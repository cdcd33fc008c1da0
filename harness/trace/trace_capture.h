/* Capturing a scheduler trace over the measured window of an iteration,
 * into a text file, with the rig's own tracefs instance
 * (instances/schedrig-RUN-PID, tracefs.h).
 *
 * One trace_capture lives while a backend runs a variant's plan
 * (trace_capture_open ... trace_capture_close): the instance with its ring
 * buffer (buffer_kb per CPU), trace_clock mono (the timestamps are
 * CLOCK_MONOTONIC, the clock of the runner's window) and tracing off.
 * Before an iteration that is traced, trace_capture_arm names the file;
 * the runner (runner_set_trace) calls trace_capture_window_begin right
 * before it starts the measured loads and trace_capture_window_end when the
 * last of them has exited, and trace_capture_tick whenever
 * trace_capture_fd (a timerfd, every TRACE_DRAIN_MS while the window is
 * open) is readable. Events are enabled only inside the window and tracing
 * is on only then; the events are read from trace_pipe while the window is
 * open, so the buffer needs to hold only what the kernel writes between
 * two reads.
 *
 * The file: a header line, the lines of trace_pipe as the kernel prints
 * them (Documentation/trace/ftrace.rst, "trace_pipe"; "CPU:N [LOST M
 * EVENTS]" where the buffer overran), then trailer lines:
 *   # schedrig-trace 1 clock=mono buffer_kb=N events=sched:sched_switch,...
 *   ... trace_pipe lines ...
 *   # window_ns START END          (CLOCK_MONOTONIC ns of the window)
 *   # lost N                       (events lost: overrun + dropped, per_cpu stats)
 *   # task ...                     (trace_capture_note: the runner's task lines)
 *   # end
 * A failure while the window is open (a write error, a tracefs file that
 * refuses) never stops the iteration: it ends the capture with a warning
 * in the result. The instance is made only after the journal's record
 * callback said yes, and taken down (tracing off, events off, rmdir) by
 * trace_capture_close, which calls the journal's removed callback; a
 * killed rig leaves the journal row to schedrig restore. */
#ifndef SCHEDRIG_TRACE_CAPTURE_H
#define SCHEDRIG_TRACE_CAPTURE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_result.h"

/* How often trace_pipe is read while the window is open. */
#define TRACE_DRAIN_MS 100
/* The longest one read of it takes (trace_capture_tick): what is left
 * waits for the next, and what the buffer cannot hold meanwhile is lost,
 * counted. */
#define TRACE_DRAIN_BUDGET_MS 50
/* A trace file stops growing at this size; later events count as lost. */
#define TRACE_MAX_BYTES (1ULL << 30)

/* What to capture. events "group:name" (config.h struct cfg_trace). */
struct trace_request {
	char *const *events;
	size_t n_events;
	int buffer_kb;          /* ring buffer per CPU */
	const char *instance;   /* "schedrig-RUN-PID" (tracefs_instance_name_ok) */
};

/* Where the instance is journalled (the knob journal, kind
 * "trace_instance"): record before it is made (its name, path and the
 * events, comma-separated), removed once it is gone. 0, or -1 with err:
 * a failed record means nothing is made. NULL callbacks are skipped. */
struct trace_journal {
	int (*record)(void *ctx, const char *name, const char *path, const char *events,
		      char *err, size_t errsz);
	int (*removed)(void *ctx, char *err, size_t errsz);
	void *ctx;
};

struct trace_capture;

/* Check, changing nothing lasting, that rq can be captured here: tracefs
 * is mounted or mountable (mounted for the check and unmounted again) and
 * every event of rq exists. 0, or -1 with err naming what is missing. */
int trace_capture_probe(const struct trace_request *rq, char *err, size_t errsz);

/* Find (or mount) tracefs, check the events, journal and make the
 * instance, set its buffer_size_kb (a buffer the kernel cannot allocate
 * is an error naming the file), trace_clock mono, tracing off. 0 with
 * *out, or -1 with err and nothing left made. */
int trace_capture_open(const struct trace_request *rq, const struct trace_journal *j,
		       struct trace_capture **out, char *err, size_t errsz);

/* The next window (trace_capture_window_begin) is traced into the file
 * path (created, or truncated). 0, or -1 with err (the file). */
int trace_capture_arm(struct trace_capture *t, const char *path, char *err, size_t errsz);

/* Is a window armed (between arm and take)? false for NULL. */
bool trace_capture_armed(const struct trace_capture *t);

/* The window opens: buffer cleared, the events enabled, trace_pipe opened,
 * tracing on, the timer armed. Nothing when not armed. */
void trace_capture_window_begin(struct trace_capture *t);

/* The timerfd to poll while the window is open; -1 otherwise. */
int trace_capture_fd(const struct trace_capture *t);

/* The timer fired (or the caller wants the buffer read now): append what
 * trace_pipe holds to the file, for at most TRACE_DRAIN_BUDGET_MS (after
 * trace_capture_window_end every event is read). */
void trace_capture_tick(struct trace_capture *t);

/* The window closes: tracing off, events off, the rest of trace_pipe read,
 * the lost events counted, the window and lost trailer lines written. The
 * file stays open for trace_capture_note. Nothing when no window is open. */
void trace_capture_window_end(struct trace_capture *t);

/* Append "# LINE\n" to the file of a window that ended (the runner's task
 * lines); nothing otherwise. line holds no '\n'. */
void trace_capture_note(struct trace_capture *t, const char *line);

/* The iteration is over: the "# end" line, the file closed, what it holds
 * into r (r->captured false when no window was traced), disarmed. */
void trace_capture_take(struct trace_capture *t, struct trace_result *r);

/* Tests: the file a window reads as its trace_pipe (NULL: the instance's
 * own), opened at trace_capture_window_begin; an endless one (/dev/zero)
 * stands for a machine writing events as fast as they are read. */
void trace_capture_set_pipe_path(const char *path);

/* Take the instance down (tracefs_instance_remove), journal it removed,
 * unmount tracefs when open mounted it, free t. NULL is fine. 0, or -1
 * with err (the instance could not be removed: its journal row stays for
 * schedrig restore). */
int trace_capture_close(struct trace_capture *t, char *err, size_t errsz);

#endif
