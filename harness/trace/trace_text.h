/* Reading the text of a scheduler trace, line by line: the lines the
 * kernel prints in tracefs' trace and trace_pipe files
 * (Documentation/trace/ftrace.rst, "Output format": "COMM-PID [CPU] FLAGS
 * SECONDS.USECS: EVENT: FIELDS", with or without the FLAGS and a
 * "(TGID)" column), the lines `perf script` prints for tracepoints
 * ("COMM PID [CPU] SECONDS.USECS: sched:EVENT: FIELDS"), the
 * "CPU:N [LOST M EVENTS]" lines of an overrun, and the rig's own "# "
 * lines of a captured trace (trace_capture.h: window, lost, task). Fields
 * of the sched events as include/trace/events/sched.h prints them:
 *   sched_switch     prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==>
 *                    next_comm=%s next_pid=%d next_prio=%d
 *   sched_waking, sched_wakeup, sched_wakeup_new
 *                    comm=%s pid=%d prio=%d target_cpu=%03d
 *   sched_migrate_task comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d
 *   sched_process_fork comm=%s pid=%d child_comm=%s child_pid=%d
 * A comm may hold blanks: it runs to the next field's name. Pure: no I/O,
 * no allocation. */
#ifndef SCHEDRIG_TRACE_TEXT_H
#define SCHEDRIG_TRACE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_COMM_MAX 64

enum trace_ev_type {
	TEV_SWITCH,
	TEV_WAKING,
	TEV_WAKEUP,
	TEV_WAKEUP_NEW,
	TEV_MIGRATE,
	TEV_FORK,
	TEV_LOST,     /* "CPU:N [LOST M EVENTS]": cpu, lost */
	TEV_OTHER,    /* an event line of another event (name in event) */
};

/* One event line. pid is the task the line is of (the current task). */
struct trace_ev {
	enum trace_ev_type type;
	char event[64];            /* the event's name, without "sched:" */
	int cpu;
	int64_t ts_ns;             /* the timestamp in ns (the clock of the trace) */
	int pid;
	/* switch */
	int prev_pid, next_pid, prev_prio, next_prio;
	char prev_state[16];       /* "S", "R", "R+", "D|K", ... */
	char prev_comm[TRACE_COMM_MAX], next_comm[TRACE_COMM_MAX];
	/* waking, wakeup, wakeup_new, migrate (the task they are of), fork
	 * (the parent) */
	int target_pid, prio, target_cpu, orig_cpu, dest_cpu;
	char comm[TRACE_COMM_MAX];
	/* fork */
	int child_pid;
	char child_comm[TRACE_COMM_MAX];
	/* lost */
	uint64_t lost;
};

/* Parse one line (len bytes, without its '\n'). Returns 1 with *ev for an
 * event line (or a LOST line), 0 for a line that is none (blank, "#"
 * comment), -1 for a line that is neither (garbage, or a sched event
 * whose fields are not the ones above). */
int trace_text_line(const char *line, size_t len, struct trace_ev *ev);

/* The rig's task line of a captured trace, "# task LOAD REPETITION PID
 * TID...": the load's name, the repetition, the process and the ids of
 * the tasks read (trace_capture.h). */
struct trace_task_line {
	char load[72];
	int repetition;
	int pid;
	const char *tids;          /* into the line: blank-separated ids to its end */
	size_t tids_len;
};

/* What a "# " line of a captured trace says: 1 "window_ns START END"
 * (*start, *end), 2 "lost N" (*lost), 3 "task ..." (*task), 0 another
 * comment, -1 a window, lost or task line that is malformed. */
int trace_text_meta(const char *line, size_t len, int64_t *start, int64_t *end, uint64_t *lost,
		    struct trace_task_line *task);

#endif
