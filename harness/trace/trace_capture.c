/* One tracefs instance over the measured windows of a variant's
 * iterations (trace_capture.h). */
#include "trace_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "tracefs.h"
#include "util.h"

#define DRAIN_CHUNK (1 << 20)

struct trace_capture {
	char root[PATH_MAX];
	char path[PATH_MAX];        /* the instance directory */
	bool mounted;               /* open mounted tracefs */
	char **events;
	size_t n_events;
	int buffer_kb;
	struct trace_journal journal;
	char *chunk;                /* DRAIN_CHUNK bytes */
	int timer_fd;
	/* the window under way */
	bool armed, in_window, ended;
	int out_fd, pipe_fd;
	struct trace_result r;
	struct tracefs_stats before;
	bool have_before;
};

/* The first failure of a window: kept as the result's warning. */
static void warn(struct trace_capture *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct trace_capture *t, const char *fmt, ...)
{
	va_list ap;
	if (t->r.warning[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->r.warning, sizeof(t->r.warning), fmt, ap);
	va_end(ap);
}

/* Write n bytes to the trace file; a failure becomes the warning and stops
 * the writing (what follows is counted as lost). */
static void out_write(struct trace_capture *t, const char *data, size_t n, uint64_t lines)
{
	if (t->out_fd < 0) {
		t->r.lost += lines;
		return;
	}
	if (t->r.bytes + n > TRACE_MAX_BYTES) {
		warn(t, "%s reached %llu bytes: later events are not in it", t->r.path,
		     (unsigned long long)TRACE_MAX_BYTES);
		t->r.lost += lines;
		return;
	}
	for (size_t off = 0; off < n;) {
		ssize_t w = write(t->out_fd, data + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			warn(t, "%s: write: %s", t->r.path, strerror(errno));
			close(t->out_fd);
			t->out_fd = -1;
			t->r.lost += lines;
			return;
		}
		off += (size_t)w;
	}
	t->r.bytes += n;
}

static void out_printf(struct trace_capture *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct trace_capture *t, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		out_write(t, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1, 0);
}

static void events_switch(struct trace_capture *t, const char *value)
{
	char why[512];
	for (size_t i = 0; i < t->n_events; i++) {
		char *dir = tracefs_event_dir(t->path, t->events[i]);
		if (tracefs_write(dir, "enable", value, why, sizeof(why)))
			warn(t, "%s", why);
		free(dir);
	}
}

int trace_capture_probe(const struct trace_request *rq, char *err, size_t errsz)
{
	char root[PATH_MAX];
	bool mounted;
	if (tracefs_root(root, sizeof(root), true, &mounted, err, errsz))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < rq->n_events && !rc; i++)
		rc = tracefs_event_check(root, rq->events[i], err, errsz);
	if (mounted)
		tracefs_unmount(root);
	return rc;
}

static void capture_free(struct trace_capture *t)
{
	for (size_t i = 0; i < t->n_events; i++)
		free(t->events[i]);
	free(t->events);
	free(t->chunk);
	if (t->timer_fd >= 0)
		close(t->timer_fd);
	free(t);
}

/* The instance's settings: ring buffer, clock, tracing off. */
static int instance_setup(struct trace_capture *t, char *err, size_t errsz)
{
	char kb[32];
	snprintf(kb, sizeof(kb), "%d", t->buffer_kb);
	if (tracefs_write(t->path, "tracing_on", "0", err, errsz) ||
	    tracefs_write(t->path, "trace_clock", "mono", err, errsz))
		return -1;
	if (tracefs_write(t->path, "buffer_size_kb", kb, err, errsz)) {
		size_t len = strlen(err);
		snprintf(err + len, errsz - len, " (trace: buffer_kb %d per CPU is more than the"
			 " kernel can allocate: lower it)", t->buffer_kb);
		return -1;
	}
	return 0;
}

int trace_capture_open(const struct trace_request *rq, const struct trace_journal *j,
		       struct trace_capture **out, char *err, size_t errsz)
{
	struct trace_capture *t = xcalloc(1, sizeof(*t));
	char why[512];
	struct buf evs = {0};

	*out = NULL;
	t->timer_fd = t->out_fd = t->pipe_fd = -1;
	t->buffer_kb = rq->buffer_kb;
	t->journal = j ? *j : (struct trace_journal){0};
	t->events = xcalloc(rq->n_events + 1, sizeof(*t->events));
	for (size_t i = 0; i < rq->n_events; i++) {
		t->events[t->n_events++] = xstrdup(rq->events[i]);
		buf_printf(&evs, "%s%s", i ? "," : "", rq->events[i]);
	}
	if (tracefs_root(t->root, sizeof(t->root), true, &t->mounted, err, errsz))
		goto fail;
	for (size_t i = 0; i < t->n_events; i++)
		if (tracefs_event_check(t->root, t->events[i], err, errsz))
			goto fail;
	if (!tracefs_instance_name_ok(rq->instance)) {
		err_printf(err, errsz, "'%s' is not a trace instance name of the rig", rq->instance);
		goto fail;
	}
	char *path = xasprintf("%s/instances/%s", t->root, rq->instance);
	int refused = t->journal.record &&
		      t->journal.record(t->journal.ctx, rq->instance, path, buf_str(&evs), err, errsz);
	free(path);
	if (refused)
		goto fail;
	if (tracefs_instance_create(t->root, rq->instance, t->path, sizeof(t->path), err, errsz)) {
		if (t->journal.removed)
			t->journal.removed(t->journal.ctx, why, sizeof(why)); /* it was never made */
		goto fail;
	}
	int setup = instance_setup(t, err, errsz);
	if (!setup && (t->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) < 0)
		setup = err_printf(err, errsz, "timerfd_create: %s", strerror(errno));
	if (setup) {
		bool existed;
		tracefs_instance_remove(t->path, &existed, why, sizeof(why));
		if (t->journal.removed)
			t->journal.removed(t->journal.ctx, why, sizeof(why));
		goto fail;
	}
	t->chunk = xmalloc(DRAIN_CHUNK);
	buf_free(&evs);
	*out = t;
	return 0;
fail:
	if (t->mounted)
		tracefs_unmount(t->root);
	buf_free(&evs);
	capture_free(t);
	return -1;
}

int trace_capture_arm(struct trace_capture *t, const char *path, char *err, size_t errsz)
{
	memset(&t->r, 0, sizeof(t->r));
	snprintf(t->r.path, sizeof(t->r.path), "%s", path);
	t->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (t->out_fd < 0)
		return err_printf(err, errsz, "%s: %s", path, strerror(errno));
	t->armed = true;
	t->in_window = t->ended = false;
	out_printf(t, "# schedrig-trace 1 clock=mono buffer_kb=%d events=", t->buffer_kb);
	for (size_t i = 0; i < t->n_events; i++)
		out_printf(t, "%s%s", i ? "," : "", t->events[i]);
	out_printf(t, "\n");
	return 0;
}

bool trace_capture_armed(const struct trace_capture *t)
{
	return t && t->armed;
}

static void timer_arm(struct trace_capture *t, bool on)
{
	struct itimerspec its = {0};
	if (on) {
		its.it_interval.tv_nsec = (long)TRACE_DRAIN_MS * 1000000;
		its.it_value = its.it_interval;
	}
	timerfd_settime(t->timer_fd, 0, &its, NULL);
}

static const char *pipe_path_override; /* trace_capture_set_pipe_path */

void trace_capture_set_pipe_path(const char *path)
{
	pipe_path_override = path;
}

void trace_capture_window_begin(struct trace_capture *t)
{
	char why[512];
	if (!t || !t->armed || t->in_window || t->ended)
		return;
	/* Opening trace with O_TRUNC empties the ring buffer. */
	char *trace = xasprintf("%s/trace", t->path);
	int fd = open(trace, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		warn(t, "%s: %s", trace, strerror(errno));
	else
		close(fd);
	free(trace);
	events_switch(t, "1");
	char *pipe_path = pipe_path_override ? xstrdup(pipe_path_override)
					     : xasprintf("%s/trace_pipe", t->path);
	t->pipe_fd = open(pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->pipe_fd < 0)
		warn(t, "%s: %s", pipe_path, strerror(errno));
	free(pipe_path);
	t->have_before = tracefs_stats_read(t->path, &t->before, why, sizeof(why)) == 0;
	t->r.window_start_ns = mono_ns();
	if (tracefs_write(t->path, "tracing_on", "1", why, sizeof(why)))
		warn(t, "%s", why);
	t->in_window = true;
	timer_arm(t, true);
}

int trace_capture_fd(const struct trace_capture *t)
{
	return t && t->in_window ? t->timer_fd : -1;
}

/* Read trace_pipe until it is empty (EAGAIN) or at its end. */
/* Read trace_pipe into the file until it is empty or, with until_ns > 0,
 * CLOCK_MONOTONIC passes until_ns: while tracing is on the machine can
 * write events as fast as they are read (a flood of switches under load),
 * and the runner must get back to its loads and signals. */
static void drain(struct trace_capture *t, int64_t until_ns)
{
	while (t->pipe_fd >= 0 && (until_ns <= 0 || mono_ns() < until_ns)) {
		ssize_t n = read(t->pipe_fd, t->chunk, DRAIN_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN)
				warn(t, "%s/trace_pipe: read: %s", t->path, strerror(errno));
			return;
		}
		uint64_t lines = 0;
		for (const char *p = t->chunk; (p = memchr(p, '\n', (size_t)(t->chunk + n - p))); p++)
			lines++;
		t->r.lines += lines;
		out_write(t, t->chunk, (size_t)n, lines);
	}
}

void trace_capture_tick(struct trace_capture *t)
{
	uint64_t expirations;
	if (!t || !t->in_window)
		return;
	if (read(t->timer_fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		warn(t, "timerfd: %s", strerror(errno));
	drain(t, mono_ns() + TRACE_DRAIN_BUDGET_MS * 1000000LL);
}

void trace_capture_window_end(struct trace_capture *t)
{
	char why[512];
	struct tracefs_stats after;
	if (!t || !t->in_window)
		return;
	/* Off first, then the time: every event is inside the window. */
	if (tracefs_write(t->path, "tracing_on", "0", why, sizeof(why)))
		warn(t, "%s", why);
	t->r.window_end_ns = mono_ns();
	timer_arm(t, false);
	events_switch(t, "0");
	drain(t, 0);
	if (t->pipe_fd >= 0)
		close(t->pipe_fd);
	t->pipe_fd = -1;
	if (t->have_before && !tracefs_stats_read(t->path, &after, why, sizeof(why))) {
		uint64_t lost = after.overrun + after.dropped;
		uint64_t base = t->before.overrun + t->before.dropped;
		t->r.lost += lost > base ? lost - base : 0;
	} else {
		warn(t, "the lost events of %s are unknown: %s", t->path,
		     t->have_before ? why : "its per_cpu stats did not read");
	}
	out_printf(t, "# window_ns %lld %lld\n", (long long)t->r.window_start_ns,
		   (long long)t->r.window_end_ns);
	out_printf(t, "# lost %llu\n", (unsigned long long)t->r.lost);
	t->in_window = false;
	t->ended = true;
	t->r.captured = true;
}

void trace_capture_note(struct trace_capture *t, const char *line)
{
	if (!t || !t->ended)
		return;
	out_printf(t, "# %s\n", line);
}

void trace_capture_take(struct trace_capture *t, struct trace_result *r)
{
	memset(r, 0, sizeof(*r));
	if (!t || !t->armed)
		return;
	if (t->in_window)
		trace_capture_window_end(t);
	if (t->ended)
		out_printf(t, "# end\n");
	if (t->out_fd >= 0 && close(t->out_fd))
		warn(t, "%s: close: %s", t->r.path, strerror(errno));
	t->out_fd = -1;
	*r = t->r;
	if (!t->ended)
		unlink(t->r.path); /* armed, but the window never opened */
	t->armed = t->ended = false;
	memset(&t->r, 0, sizeof(t->r));
}

int trace_capture_close(struct trace_capture *t, char *err, size_t errsz)
{
	if (!t)
		return 0;
	struct trace_result r;
	trace_capture_take(t, &r);
	bool existed;
	int rc = tracefs_instance_remove(t->path, &existed, err, errsz);
	if (!rc && t->journal.removed)
		rc = t->journal.removed(t->journal.ctx, err, errsz);
	if (t->mounted)
		tracefs_unmount(t->root);
	capture_free(t);
	return rc;
}
