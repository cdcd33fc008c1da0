/* The controlling host's side of the agent protocol (agent_host.h); moved
 * out of harness/variants/qemu.c so boot: qemu and boot: ssh share it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent_host.h"
#include "agent_proto.h"
#include "knobs.h"
#include "trace_knob.h"
#include "tracefs.h"

/* Is (cell, iteration) of vr done (vr->done)? */
static bool step_done(const struct variant_run *vr, size_t cell, int iteration)
{
	return vr->done && vr->done(vr->ctx, cell, iteration);
}

/* The (cell, iteration) steps of vr not done yet (with all, every step),
 * in plan order (malloc'd). */
static struct agent_step *plan_steps(const struct variant_run *vr, bool all, size_t *n)
{
	struct agent_step *run = xcalloc(vr->p->n_cells * (size_t)vr->iterations + 1, sizeof(*run));
	*n = 0;
	for (size_t c = 0; c < vr->p->n_cells; c++)
		for (int it = 1; it <= vr->iterations; it++)
			if (all || !step_done(vr, c, it))
				run[(*n)++] = (struct agent_step){c, it};
	return run;
}

char *agent_host_plan(const struct variant_run *vr, const struct argv *modules)
{
	struct agent_plan ap = {
		.config_name = vr->e->path ? vr->e->path : vr->e->name,
		.config = vr->e->text,
		.variant = vr->v->name,
		.iterations = vr->iterations,
		.cells = xcalloc(vr->p->n_cells + 1, sizeof(char *)),
		.n_cells = vr->p->n_cells,
		.modules = modules->v,
		.n_modules = modules->n,
		.run_id = vr->run_id,
	};
	for (size_t c = 0; c < vr->p->n_cells; c++)
		ap.cells[c] = vr->p->cells[c].name;
	ap.run = plan_steps(vr, false, &ap.n_run);
	char *text = agent_plan_encode(&ap);
	free(ap.cells);
	free(ap.run);
	return text;
}

double agent_mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void agent_session_fail(struct agent_session *s, char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	if (s->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	s->failed = true;
}

static void on_hello(struct agent_session *s, const struct agent_msg *m, char *err, size_t errsz)
{
	const struct variant_run *vr = s->vr;
	const char *where = s->where ? s->where : "the guest";
	struct variant_kernel vk;

	if (s->hello) {
		agent_session_fail(s, err, errsz, "agent line %zu: a second hello", s->lines);
		return;
	}
	if (m->proto != AGENT_PROTO_VERSION) {
		agent_session_fail(s, err, errsz, "%s's agent speaks agent protocol %d, this schedrig"
				   " speaks %d: build or install schedrig-agent with schedrig", where,
				   m->proto, AGENT_PROTO_VERSION);
		return;
	}
	s->hello = true;
	/* The steps of the plan file, computed as agent_host_plan did: this
	 * session has stored no iteration yet, so vr->done answers alike. With
	 * skip_done every step, and those done already are marked to drop. */
	s->steps = plan_steps(vr, s->skip_done, &s->n_steps);
	if (s->skip_done) {
		s->drop = xcalloc(s->n_steps + 1, sizeof(*s->drop));
		for (size_t i = 0; i < s->n_steps; i++)
			s->drop[i] = step_done(vr, s->steps[i].cell, s->steps[i].iteration);
	}
	s->boot_s = agent_mono_s() - s->t0_s;
	snprintf(s->release, sizeof(s->release), "%s", m->release);
	if (s->want_release && s->want_release[0] && strcmp(m->release, s->want_release)) {
		agent_session_fail(s, err, errsz, "%s runs kernel %s, not %s", where, m->release,
				   s->want_release);
		return;
	}
	if (s->want_cmdline && !strstr(m->cmdline, s->want_cmdline)) {
		agent_session_fail(s, err, errsz, "%s's /proc/cmdline '%s' lacks append: '%s'",
				   where, m->cmdline, s->want_cmdline);
		return;
	}
	snprintf(vk.release, sizeof(vk.release), "%s", m->release);
	snprintf(vk.cmdline, sizeof(vk.cmdline), "%s", m->cmdline);
	vk.autogroup = m->autogroup;
	if (!s->quiet)
		printf("[%s] %s: kernel %s up, agent ready %.1f s after %s started\n",
		       vr->v->name, s->label, m->release, s->boot_s, s->label);
	fflush(stdout);
	if (vr->on_kernel(vr->ctx, &vk)) {
		s->store_failed = true;
		agent_session_fail(s, err, errsz, "storing the variant failed");
	}
}

/* The kind of a knob line as a constant string (knob_entry.kind), NULL
 * when it is not one knobs.h knows. */
static const char *knob_kind(const char *kind)
{
	static const char *const kinds[] = {"sysctl", "debugfs", "sched_features", "sysfs", "irq",
					    KNOB_KIND_TRACE};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i]))
			return kinds[i];
	return NULL;
}

/* A trace instance of the rig's under one of the tracefs mount points
 * (the agent's tracefs_root: /sys/kernel/tracing, or debugfs' tracing/). */
static bool trace_instance_path(const char *path)
{
	static const char *const roots[] = {"/sys/kernel/tracing/instances/",
					    "/sys/kernel/debug/tracing/instances/"};
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strncmp(path, roots[i], strlen(roots[i])) &&
		    tracefs_instance_name_ok(path + strlen(roots[i])))
			return true;
	return false;
}

/* Is path a file of the knob kind where the agent runs (its text only:
 * that machine's files are not ours to resolve)? sysctl: below /proc/sys/;
 * debugfs: below /sys/kernel/debug/sched/; sched_features: its file;
 * sysfs: a host setting's file below /sys/ (knob_name_check); irq: an
 * IRQ's smp_affinity_list or default_smp_affinity; trace_instance: one of
 * the rig's instances. No "..", no "//". */
static bool knob_path_of_kind(const char *kind, const char *path)
{
	const char *rest = NULL;
	if (strstr(path, "/../") || strstr(path, "//") ||
	    (strlen(path) >= 3 && !strcmp(path + strlen(path) - 3, "/..")))
		return false;
	if (!strcmp(kind, "sysctl"))
		rest = !strncmp(path, "/proc/sys/", 10) ? path + 10 : NULL;
	else if (!strcmp(kind, "debugfs"))
		rest = !strncmp(path, "/sys/kernel/debug/sched/", 24) ? path + 24 : NULL;
	else if (!strcmp(kind, KNOB_KIND_TRACE))
		return trace_instance_path(path);
	else if (!strcmp(kind, "sysfs"))
		return !strncmp(path, "/sys/", 5) && !knob_name_check("sysfs", path + 5, NULL, 0);
	else if (!strcmp(kind, "irq"))
		return !strcmp(path, "/proc/irq/default_smp_affinity") ||
		       (!strncmp(path, "/proc/irq/", 10) && strspn(path + 10, "0123456789") &&
			!strcmp(path + 10 + strspn(path + 10, "0123456789"), "/smp_affinity_list"));
	else
		return !strcmp(path, "/sys/kernel/debug/sched/features") ||
		       !strcmp(path, "/sys/kernel/debug/sched_features");
	return rest && *rest;
}

/* The newest journalled knob of the agent with seq, NULL when none. */
static struct knob_entry *knob_by_seq(struct agent_session *s, int seq)
{
	for (size_t i = s->n_knobs; i-- > 0;)
		if (s->knobs[i].seq == seq)
			return &s->knobs[i];
	return NULL;
}

static void journal_fail(struct agent_session *s, char *err, size_t errsz, const char *why)
{
	s->store_failed = true;
	agent_session_fail(s, err, errsz, "journalling a knob of %s failed: %s",
			   s->where ? s->where : "the guest", why);
}

/* A knob line: record, applied or restored through vr->journal. */
static void on_knob(struct agent_session *s, const struct agent_msg *m, char *err, size_t errsz)
{
	const struct knob_journal_ops *j = s->vr->journal;
	const char *kind = knob_kind(m->kind);
	struct knob_entry *e;
	char why[512] = "";

	if (!s->knob_host || !j)
		return;
	if (!kind || (strcmp(m->event, "record") && strcmp(m->event, "applied") &&
		      strcmp(m->event, "restored"))) {
		agent_session_fail(s, err, errsz, "agent line %zu: unknown knob %s '%s'", s->lines,
				   kind ? "event" : "kind", kind ? m->event : m->kind);
		return;
	}
	if (!knob_path_of_kind(kind, m->path)) {
		agent_session_fail(s, err, errsz, "agent line %zu: knob path '%s' is not a %s file",
				   s->lines, m->path, kind);
		return;
	}
	if (!strcmp(m->event, "record")) {
		s->knobs = xrealloc(s->knobs, (s->n_knobs + 1) * sizeof(*s->knobs));
		e = &s->knobs[s->n_knobs++];
		*e = (struct knob_entry){
			.seq = m->seq, .kind = kind, .name = xstrdup(m->name),
			.path = xstrdup(m->path), .old_value = xstrdup(m->old_value),
			.requested_value = xstrdup(m->requested), .host = s->knob_host,
		};
		if (j->record && j->record(j->ctx, e, why, sizeof(why)))
			journal_fail(s, err, errsz, why);
		return;
	}
	if (!(e = knob_by_seq(s, m->seq)) || e->restored) {
		agent_session_fail(s, err, errsz, "agent line %zu: knob %d (%s) %s but %s", s->lines,
				   m->seq, m->name, m->event,
				   e ? "already restored" : "never recorded");
		return;
	}
	if (!strcmp(m->event, "applied")) {
		free(e->applied_value);
		e->applied_value = m->has_applied ? xstrdup(m->applied) : NULL;
		e->changed = true;
		if (j->applied && j->applied(j->ctx, e, why, sizeof(why)))
			journal_fail(s, err, errsz, why);
	} else {
		e->restored = true;
		if (j->restored && j->restored(j->ctx, e, why, sizeof(why)))
			journal_fail(s, err, errsz, why);
	}
}

int agent_session_knobs_gone(struct agent_session *s, char *err, size_t errsz)
{
	const struct knob_journal_ops *j = s->vr->journal;
	int rc = 0;
	for (size_t i = 0; i < s->n_knobs; i++) {
		struct knob_entry *e = &s->knobs[i];
		if (e->restored)
			continue;
		e->restored = true;
		if (j && j->restored && j->restored(j->ctx, e, err, errsz))
			rc = -1;
	}
	return rc;
}

/* Forget the gathered series (after their iteration was handed over). */
static void series_clear(struct agent_session *s)
{
	for (size_t i = 0; i < s->n_series; i++) {
		free((char *)s->series[i].monitor);
		free((char *)s->series[i].key);
	}
	free(s->series);
	free(s->points);
	s->series = NULL;
	s->points = NULL;
	s->n_series = s->n_points = s->cap_points = 0;
}

/* A series line: its series and points join the iteration under way. */
static void on_series(struct agent_session *s, const struct agent_msg *m)
{
	uint32_t k = (uint32_t)s->n_series;
	s->series = xrealloc(s->series, (s->n_series + 1) * sizeof(*s->series));
	s->series[s->n_series++] = (struct stored_series){
		.monitor = xstrdup(m->monitor), .key = xstrdup(m->key),
		.cpu = m->cpu, .pid = m->pid, .tgid = m->tgid,
	};
	if (s->n_points + m->n_points > s->cap_points) {
		while (s->n_points + m->n_points > s->cap_points)
			s->cap_points = s->cap_points ? 2 * s->cap_points : 256;
		s->points = xrealloc(s->points, s->cap_points * sizeof(*s->points));
	}
	for (size_t i = 0; i < m->n_points; i++)
		s->points[s->n_points++] = (struct stored_point){k, m->t_ms[i], m->value[i]};
}

/* The number of CPUs of a CPU list ("0-3,8"), 0 when it is not one. */
static int list_count(const char *list)
{
	int n = 0;
	for (const char *p = list; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return 0;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		if (*end && *end != ',')
			return 0;
		p = *end ? end + 1 : end;
	}
	return n;
}

/* The host line: the fingerprint to vr->on_host; the CPUs that measure. */
static void on_host(struct agent_session *s, const struct agent_msg *m, char *err, size_t errsz)
{
	const struct variant_run *vr = s->vr;
	char why[1024];
	if (s->host || s->iterations_done || s->in_iteration) {
		agent_session_fail(s, err, errsz, "agent line %zu: a host line %s", s->lines,
				   s->host ? "twice" : "after the plan's first step");
		return;
	}
	s->host = true;
	const struct host_field *online = hostfp_get(&m->fp, "cpu.online");
	const struct host_field *rig = hostfp_get(&m->fp, "rig.cpus");
	int n_on = online ? list_count(online->value) : 0, n_rig = rig ? list_count(rig->value) : 0;
	s->measured_cpus = n_rig && n_rig < n_on ? n_on - n_rig : n_on;
	if (vr->on_host && vr->on_host(vr->ctx, &m->fp, &m->notes, why, sizeof(why)))
		agent_session_fail(s, err, errsz, "%s", why);
}

/* The end line's agent_cpu, as a note of the run. */
static void note_agent_cpu(struct agent_session *s, const struct agent_msg *m)
{
	const struct variant_run *vr = s->vr;
	if (!m->has_cpu || !vr->note)
		return;
	double user = m->cpu_user_us / 1e6, sys = m->cpu_system_us / 1e6, wall = m->cpu_wall_us / 1e6;
	double pct = 100 * (user + sys) / wall;
	char *msg = xasprintf("agent cpu: variant %s: user_s=%.6f system_s=%.6f wall_s=%.6f"
			      " pct_of_one_cpu=%.4f measured_cpus=%d pct_per_measured_cpu=%.5f",
			      vr->v->name, user, sys, wall, pct, s->measured_cpus,
			      s->measured_cpus ? pct / s->measured_cpus : pct);
	if (vr->note(vr->ctx, "note", msg))
		s->store_failed = true;
	free(msg);
}

/* The step the agent must report next (it runs the plan in order), NULL
 * when every step is done. */
static const struct agent_step *next_step(const struct agent_session *s)
{
	return s->iterations_done < s->n_steps ? &s->steps[s->iterations_done] : NULL;
}

/* Does a line of (cell, iteration) belong to the next step of the plan? */
static bool is_next(const struct agent_session *s, size_t cell, int iteration)
{
	const struct agent_step *st = next_step(s);
	return st && st->cell == cell && st->iteration == iteration;
}

/* skip_done: steps to drop that the agent's plan may have left out (they
 * were done when it was written) are passed over up to (cell, iteration),
 * or with iteration 0 up to the end. Only between iterations. */
static void skip_absent(struct agent_session *s, size_t cell, int iteration)
{
	while (s->drop && !s->in_iteration && s->iterations_done < s->n_steps &&
	       s->drop[s->iterations_done] && !is_next(s, cell, iteration))
		s->iterations_done++;
}

/* An inst line: checked against the next step and the cell's loads, then
 * gathered. */
static void on_inst(struct agent_session *s, struct agent_msg *m, char *err, size_t errsz)
{
	const struct variant_run *vr = s->vr;
	if (!s->host) {
		agent_session_fail(s, err, errsz, "agent line %zu: an inst line before the host line",
				   s->lines);
		return;
	}
	skip_absent(s, m->cell, m->iteration);
	if (!is_next(s, m->cell, m->iteration) || m->load >= vr->p->cells[m->cell].n_inst) {
		agent_session_fail(s, err, errsz, "agent line %zu: cell %zu load %zu iteration %d is"
				   " not the next step of the plan", s->lines, m->cell, m->load,
				   m->iteration);
		return;
	}
	const struct plan_instance *pi = &vr->p->cells[m->cell].inst[m->load];
	bool repeats = pi->load->role == ROLE_BACKGROUND && pi->load->repeat, twice = false;
	for (size_t i = 0; i < s->res.n; i++)
		twice |= s->res.r[i].pi == pi && s->res.r[i].repetition == m->inst.repetition;
	if (twice || (m->inst.repetition > 0 && !repeats)) {
		agent_session_fail(s, err, errsz, "agent line %zu: load %zu of cell %zu reported"
				   " twice, or repeated without repeat: true", s->lines, m->load,
				   m->cell);
		return;
	}
	s->in_iteration = true;
	s->res.r = xrealloc(s->res.r, (s->res.n + 1) * sizeof(*s->res.r));
	s->res.r[s->res.n] = m->inst;
	s->res.r[s->res.n].pi = pi;
	s->res.n++;
	memset(&m->inst, 0, sizeof(m->inst)); /* moved */
}

/* Forget the trace of the iteration under way: its file closed and, when
 * it was not handed over (keep false), removed. */
static void trace_clear(struct agent_session *s, bool keep)
{
	if (s->trace_f)
		fclose(s->trace_f);
	s->trace_f = NULL;
	if (s->trace_path[0] && !keep)
		unlink(s->trace_path);
	s->trace_path[0] = '\0';
	s->trace_written = 0;
	s->trace_done = false;
	memset(&s->res.trace, 0, sizeof(s->res.trace));
}

/* A trace line: its piece appended to the iteration's trace file. */
static void on_trace(struct agent_session *s, const struct agent_msg *m, char *err, size_t errsz)
{
	const struct variant_run *vr = s->vr;
	if (!is_next(s, m->cell, m->iteration) || s->trace_done ||
	    !config_trace_iteration(&vr->e->trace_all, m->iteration)) {
		agent_session_fail(s, err, errsz, "agent line %zu: a trace of cell %zu iteration %d"
				   " that is not the next step's, after its end, or of an iteration"
				   " the config does not trace", s->lines, m->cell, m->iteration);
		return;
	}
	if (!s->trace_f) {
		snprintf(s->trace_path, sizeof(s->trace_path), "%s/agent-trace-%s-c%zu-it%d.txt",
			 vr->work_dir, vr->v->name, m->cell + 1, m->iteration);
		if (!(s->trace_f = fopen(s->trace_path, "wbe"))) {
			agent_session_fail(s, err, errsz, "%s: %s", s->trace_path, strerror(errno));
			s->trace_path[0] = '\0';
			return;
		}
	}
	s->in_iteration = true;
	s->trace_written += m->trace_data.len;
	if (s->trace_written > TRACE_MAX_BYTES + AGENT_TRACE_CHUNK ||
	    fwrite(m->trace_data.data, 1, m->trace_data.len, s->trace_f) != m->trace_data.len)
		agent_session_fail(s, err, errsz, "%s: the trace is larger than the capture writes,"
				   " or cannot be written", s->trace_path);
}

/* A trace_end line: the trace file is whole when its bytes say so. */
static void on_trace_end(struct agent_session *s, const struct agent_msg *m, char *err,
			 size_t errsz)
{
	if (!is_next(s, m->cell, m->iteration) || s->trace_done ||
	    m->trace.bytes != s->trace_written) {
		agent_session_fail(s, err, errsz, "agent line %zu: trace end of cell %zu iteration %d"
				   " (%llu bytes) does not match the next step and the %llu bytes"
				   " that came", s->lines, m->cell, m->iteration,
				   (unsigned long long)m->trace.bytes,
				   (unsigned long long)s->trace_written);
		return;
	}
	if (!s->trace_f) {
		agent_session_fail(s, err, errsz, "agent line %zu: a trace end without a trace",
				   s->lines);
		return;
	}
	if (fclose(s->trace_f)) {
		s->trace_f = NULL;
		agent_session_fail(s, err, errsz, "%s: write failed", s->trace_path);
		return;
	}
	s->trace_f = NULL;
	s->trace_done = true;
	s->in_iteration = true;
	s->res.trace = m->trace;
	snprintf(s->res.trace.path, sizeof(s->res.trace.path), "%s", s->trace_path);
}

/* The iteration under way is over: its gathered lines are dropped and the
 * next step is due. */
static void end_iteration(struct agent_session *s)
{
	iteration_result_free(&s->res);
	s->res.series = NULL;
	series_clear(s);
	s->in_iteration = false;
	s->iterations_done++;
}

/* An iteration line: the next step, with as many results as came, and,
 * unless interrupted, a result for every load of the cell. */
static void on_iteration(struct agent_session *s, const struct agent_msg *m, char *err,
			 size_t errsz)
{
	const struct variant_run *vr = s->vr;
	skip_absent(s, m->cell, m->iteration);
	if (!is_next(s, m->cell, m->iteration) || m->n != s->res.n) {
		agent_session_fail(s, err, errsz, "agent line %zu: iteration end (cell %zu iteration"
				   " %d, %zu results) does not match the next step of the plan and"
				   " its %zu results", s->lines, m->cell, m->iteration, m->n,
				   s->res.n);
		return;
	}
	const struct plan_cell *cell = &vr->p->cells[m->cell];
	for (size_t k = 0; k < cell->n_inst && !m->interrupted; k++) {
		bool seen = false;
		for (size_t i = 0; i < s->res.n && !seen; i++)
			seen = s->res.r[i].pi == &cell->inst[k];
		if (!seen) {
			agent_session_fail(s, err, errsz, "agent line %zu: iteration %d of cell %zu"
					   " ended without a result of load %zu", s->lines,
					   m->iteration, m->cell, k);
			return;
		}
	}
	if (s->trace_f) {
		agent_session_fail(s, err, errsz, "agent line %zu: iteration end before its trace's"
				   " end", s->lines);
		return;
	}
	if (s->drop && s->drop[s->iterations_done]) {
		/* skip_done: stored already; dropped. */
		trace_clear(s, false);
		end_iteration(s);
		return;
	}
	s->res.interrupted = m->interrupted;
	snprintf(s->res.started_at, sizeof(s->res.started_at), "%s", m->started_at);
	snprintf(s->res.ended_at, sizeof(s->res.ended_at), "%s", m->ended_at);
	s->series_set = (struct stored_series_set){
		.series = s->series, .n_series = s->n_series,
		.points = s->points, .n_points = s->n_points,
	};
	s->res.series = s->n_series ? &s->series_set : NULL;
	if (vr->on_iteration(vr->ctx, m->cell, m->iteration, &s->res)) {
		s->store_failed = true;
		agent_session_fail(s, err, errsz, "storing an iteration failed");
	}
	trace_clear(s, true); /* on_iteration kept or left the file */
	end_iteration(s);
}

void agent_session_line(struct agent_session *s, const char *line, size_t len, char *err,
			size_t errsz)
{
	struct agent_msg m;
	char why[512];

	if (s->failed)
		return;
	s->lines++;
	if (agent_decode_line(line, len, &m, why, sizeof(why))) {
		agent_session_fail(s, err, errsz, "agent line %zu: %s", s->lines, why);
		return;
	}
	if (!s->hello && m.type != AGENT_MSG_HELLO) {
		agent_session_fail(s, err, errsz, "the agent's first line is not hello");
		goto out;
	}
	if (s->end) {
		agent_session_fail(s, err, errsz, "agent line %zu: a line after the end line",
				   s->lines);
		goto out;
	}
	switch (m.type) {
	case AGENT_MSG_HELLO:
		on_hello(s, &m, err, errsz);
		break;
	case AGENT_MSG_KNOB:
		/* Kept in the agent stream file of the run directory, and journalled. */
		on_knob(s, &m, err, errsz);
		break;
	case AGENT_MSG_INST:
		on_inst(s, &m, err, errsz);
		break;
	case AGENT_MSG_ITERATION:
		on_iteration(s, &m, err, errsz);
		break;
	case AGENT_MSG_SERIES:
		skip_absent(s, m.cell, m.iteration);
		if (!is_next(s, m.cell, m.iteration)) {
			agent_session_fail(s, err, errsz, "agent line %zu: series of cell %zu"
					   " iteration %d do not belong to the next step of the plan",
					   s->lines, m.cell, m.iteration);
			break;
		}
		s->in_iteration = true;
		on_series(s, &m);
		break;
	case AGENT_MSG_TRACE:
		skip_absent(s, m.cell, m.iteration);
		on_trace(s, &m, err, errsz);
		break;
	case AGENT_MSG_TRACE_END:
		skip_absent(s, m.cell, m.iteration);
		on_trace_end(s, &m, err, errsz);
		break;
	case AGENT_MSG_HOST:
		on_host(s, &m, err, errsz);
		break;
	case AGENT_MSG_END:
		skip_absent(s, 0, 0);
		if (m.ok && (s->in_iteration || s->iterations_done != s->n_steps)) {
			agent_session_fail(s, err, errsz, "the agent ended ok after %zu of the plan's"
					   " %zu iterations", s->iterations_done, s->n_steps);
			break;
		}
		if (m.ok && !s->host) {
			agent_session_fail(s, err, errsz, "the agent ended ok without its host line");
			break;
		}
		note_agent_cpu(s, &m);
		s->end = true;
		s->end_ok = m.ok;
		snprintf(s->end_message, sizeof(s->end_message), "%s", m.message);
		break;
	}
out:
	agent_msg_free(&m);
}

void agent_session_feed(struct agent_session *s, struct buf *p, const char *data, size_t n,
			char *err, size_t errsz)
{
	char *nl;

	buf_append(p, data, n);
	while (p->len && (nl = memchr(p->data, '\n', p->len))) {
		size_t len = (size_t)(nl - p->data) + 1;
		/* Skip blank lines and a stray '\r' a tty may add. */
		if (len > 1 && !(len == 2 && p->data[0] == '\r'))
			agent_session_line(s, p->data, len, err, errsz);
		memmove(p->data, p->data + len, p->len - len);
		p->len -= len;
		p->data[p->len] = '\0';
	}
}

void agent_session_free(struct agent_session *s)
{
	free(s->steps);
	free(s->drop);
	s->steps = NULL;
	s->drop = NULL;
	s->n_steps = 0;
	trace_clear(s, false);
	iteration_result_free(&s->res);
	series_clear(s);
	knob_entries_free(s->knobs, s->n_knobs);
	s->knobs = NULL;
	s->n_knobs = 0;
}

double agent_silence_limit_s(const struct variant_run *vr)
{
	double longest = 0;
	for (size_t c = 0; c < vr->p->n_cells; c++)
		for (size_t i = 0; i < vr->p->cells[c].n_inst; i++)
			if (vr->p->cells[c].inst[i].load->timeout_s > longest)
				longest = vr->p->cells[c].inst[i].load->timeout_s;
	return vr->v->boot_timeout_s + longest + vr->e->warmup_s + RUNNER_GRACE_S;
}
