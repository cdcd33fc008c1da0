/* A variant's traces where its plan runs (trace_variant.h). */
#include "trace_variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefs.h"
#include "util.h"

int trace_variant_open(struct trace_variant *tv, const struct experiment *e, const char *variant,
		       int64_t run_id, const char *dir, const struct knob_journal_ops *journal,
		       int seq, bool hold_lock, char *err, size_t errsz)
{
	memset(tv, 0, sizeof(*tv));
	tv->kt.lock_fd = -1;
	if (!e->trace_all.enabled)
		return 0;
	tv->spec = &e->trace_all;
	tv->variant = variant;
	snprintf(tv->dir, sizeof(tv->dir), "%s", dir);
	trace_knob_init(&tv->kt, journal, seq);
	char name[64];
	/* The rig's pid too: run 1 of two databases may trace at once. */
	snprintf(name, sizeof(name), "%s%lld-%d", TRACEFS_INSTANCE_PREFIX, (long long)run_id,
		 (int)getpid());
	struct trace_request rq = {.events = tv->spec->events, .n_events = tv->spec->n_events,
				   .buffer_kb = tv->spec->buffer_kb, .instance = name};
	if ((hold_lock && trace_knob_lock(&tv->kt, err, errsz)) ||
	    trace_capture_open(&rq, &tv->kt.ops, &tv->tc, err, errsz)) {
		trace_knob_free(&tv->kt);
		tv->spec = NULL;
		return -1;
	}
	return 0;
}

int trace_variant_arm(struct trace_variant *tv, size_t c, int it, char *err, size_t errsz)
{
	if (!tv->tc || !config_trace_iteration(tv->spec, it))
		return 0;
	char *path = xasprintf("%s/trace-%s-c%zu-it%d.txt", tv->dir, tv->variant, c + 1, it);
	int rc = trace_capture_arm(tv->tc, path, err, errsz);
	free(path);
	return rc;
}

struct trace_capture *trace_variant_capture(const struct trace_variant *tv)
{
	return tv->tc;
}

int trace_variant_close(struct trace_variant *tv, char *err, size_t errsz)
{
	int rc = 0;
	if (tv->tc)
		rc = trace_capture_close(tv->tc, err, errsz);
	tv->tc = NULL;
	if (tv->spec)
		trace_knob_free(&tv->kt);
	tv->spec = NULL;
	return rc;
}
