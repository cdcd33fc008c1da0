/* A trace instance as a knob journal row (trace_knob.h). */
#include "trace_knob.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knob_pending.h"
#include "tracefs.h"
#include "util.h"

static int trace_record(void *ctx, const char *name, const char *path, const char *events,
			char *err, size_t errsz)
{
	struct trace_knob *kt = ctx;
	free(kt->e.name);
	free(kt->e.path);
	free(kt->e.requested_value);
	kt->e.name = xstrdup(name);
	kt->e.path = xstrdup(path);
	kt->e.requested_value = xstrdup(events);
	if (!kt->journal || !kt->journal->record)
		return 0;
	if (kt->journal->record(kt->journal->ctx, &kt->e, err, errsz))
		return -1;
	kt->recorded = true;
	kt->e.changed = true;
	return 0;
}

static int trace_removed(void *ctx, char *err, size_t errsz)
{
	struct trace_knob *kt = ctx;
	if (!kt->recorded || kt->e.restored)
		return 0;
	kt->e.restored = true;
	if (!kt->journal || !kt->journal->restored)
		return 0;
	return kt->journal->restored(kt->journal->ctx, &kt->e, err, errsz);
}

void trace_knob_init(struct trace_knob *kt, const struct knob_journal_ops *journal, int seq)
{
	memset(kt, 0, sizeof(*kt));
	kt->journal = journal;
	kt->e = (struct knob_entry){.seq = seq, .kind = KNOB_KIND_TRACE,
				    .old_value = xstrdup("absent")};
	kt->ops = (struct trace_journal){trace_record, trace_removed, kt};
	kt->lock_fd = -1;
}

int trace_knob_lock(struct trace_knob *kt, char *err, size_t errsz)
{
	if ((kt->lock_fd = knobs_lock(err, errsz)) < 0)
		return -1;
	if (knob_pending_check(err, errsz)) {
		close(kt->lock_fd);
		kt->lock_fd = -1;
		return -1;
	}
	return 0;
}

void trace_knob_free(struct trace_knob *kt)
{
	free(kt->e.name);
	free(kt->e.path);
	free(kt->e.old_value);
	free(kt->e.requested_value);
	free(kt->e.applied_value);
	if (kt->lock_fd >= 0)
		close(kt->lock_fd);
	memset(kt, 0, sizeof(*kt));
	kt->lock_fd = -1;
}

int trace_knob_restore(const struct stored_knob *k)
{
	char dir[PATH_MAX], err[1024];
	bool mounted, existed;
	if (tracefs_row_check(k->name, k->path, dir, sizeof(dir), &mounted, err, sizeof(err))) {
		fprintf(stderr, "schedrig restore: run %lld variant %s: journal row %lld (%s %s, %s):"
			" %s\n", (long long)k->run_id, k->variant, (long long)k->id, k->kind, k->name,
			k->path, err);
		return -1;
	}
	int rc = tracefs_instance_remove(dir, &existed, err, sizeof(err));
	if (mounted)
		tracefs_unmount(TRACEFS_MOUNT_POINT);
	if (rc) {
		fprintf(stderr, "schedrig restore: run %lld variant %s: %s\n", (long long)k->run_id,
			k->variant, err);
		return -1;
	}
	if (existed)
		printf("run %lld variant %s: removed the trace instance %s (its events off, tracing"
		       " off)\n", (long long)k->run_id, k->variant, dir);
	else
		printf("run %lld variant %s: the trace instance %s is gone already: nothing to"
		       " remove\n", (long long)k->run_id, k->variant, dir);
	return 0;
}
