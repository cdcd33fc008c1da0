/* Applying a variant's scheduler knobs and restoring them: the host-wide
 * knob lock, each knob read, journalled, written and read back in order,
 * restored newest first, and the probe that checks all of it changing
 * nothing (knobs.h). Which files are knobs: knob_paths.c; reading and
 * writing one: knob_io.c. */
#include "knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "knob_pending.h"
#include "util.h"

/* knobs_lock waits out a shared hold (knobs_host_clean) this often and long. */
#define LOCK_TRIES 50
#define LOCK_RETRY_NS 10000000L

size_t knobs_count(const struct cfg_variant *v)
{
	return (v->autogroup >= 0) + v->n_sysctl + v->n_debugfs + v->n_sched_features;
}

static void entry_free(struct knob_entry *e)
{
	free(e->name);
	free(e->path);
	free(e->old_value);
	free(e->requested_value);
	free(e->applied_value);
	memset(e, 0, sizeof(*e));
}

static char *lock_path(void)
{
	return xasprintf("%s/schedrig-knobs.lock", knobs_lock_dir());
}

int knobs_lock(char *err, size_t errsz)
{
	char *path = lock_path();
	int fd = lock_file_open(path, err, errsz);
	if (fd < 0) {
		free(path);
		return -1;
	}
	for (int tries = 1; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		if (errno == EWOULDBLOCK && tries < LOCK_TRIES) {
			nanosleep(&(struct timespec){.tv_nsec = LOCK_RETRY_NS}, NULL);
			continue;
		}
		char holder[32];
		lock_file_holder(fd, holder, sizeof(holder));
		knob_errorf(err, errsz,
			    "another schedrig (pid %s) has scheduler knobs changed on this machine"
			    " (%s); knob changes of two runs at once would undo each other",
			    holder, path);
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* the lock holds; only the holder's pid in messages is lost */
	}
	return fd;
}

int knobs_host_clean(char *err, size_t errsz)
{
	char *path = lock_path();
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	free(path);
	/* Held shared while the record is read: no rig can take the lock (and
	 * write a record) meanwhile, so a record then is one nobody will restore. */
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB)) {
		char holder[32];
		lock_file_holder(fd, holder, sizeof(holder));
		knob_errorf(err, errsz,
			    "another schedrig (pid %s) is changing kernel knobs on this machine now;"
			    " what runs meanwhile would measure its settings: try again when it is done",
			    holder);
		close(fd);
		return -1;
	}
	rc = knob_pending_check(err, errsz);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void knobs_unlock(struct knob_state *st)
{
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	st->lock_fd = -1;
}

void knobs_free(struct knob_state *st)
{
	if (!st)
		return;
	knobs_unlock(st);
	knob_entries_free(st->entries, st->n);
	argv_free(&st->skipped);
	free(st);
}

void knob_entries_free(struct knob_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		entry_free(&v[i]);
	free(v);
}

size_t knobs_requests(const struct cfg_variant *v, struct knob_request *r)
{
	size_t n = 0;
	if (v->autogroup >= 0)
		r[n++] = (struct knob_request){"sysctl", "kernel.sched_autogroup_enabled",
					       v->autogroup ? "1" : "0", false};
	for (size_t i = 0; i < v->n_sysctl; i++)
		r[n++] = (struct knob_request){"sysctl", v->sysctl[i].key, v->sysctl[i].value, false};
	for (size_t i = 0; i < v->n_debugfs; i++)
		r[n++] = (struct knob_request){"debugfs", v->debugfs[i].key, v->debugfs[i].value, false};
	for (size_t i = 0; i < v->n_sched_features; i++)
		r[n++] = (struct knob_request){"sched_features", v->sched_features[i].key,
					       v->sched_features[i].key, false};
	return n;
}

/* The number of whitespace-separated fields of text, when every one is a
 * base-10 integer (parse_ll) without a leading zero (the kernel reads
 * /proc/sys integers with base 0: "010" is 8); -1 when one is not, or there
 * is none. */
static long integer_fields(const char *text)
{
	long n = 0;
	for (const char *p = text;; n++) {
		char field[64];
		long long v;
		p += strspn(p, " \t\n");
		size_t len = strcspn(p, " \t\n");
		if (!len)
			return n ? n : -1;
		if (len >= sizeof(field))
			return -1;
		snprintf(field, sizeof(field), "%.*s", (int)len, p);
		const char *digits = field + (field[0] == '-');
		if (!parse_ll(field, &v) || (digits[0] == '0' && digits[1]))
			return -1;
		p += len;
	}
}

/* A knob whose file reads integers takes as many base-10 integers: '+1',
 * '0x10' or '1 2' for a '0' would fail at the write or the read-back, and
 * '010' would be written as 8. */
static int value_shape_check(const struct knob_entry *e, char *err, size_t errsz)
{
	if (strcmp(e->kind, "sysctl") && strcmp(e->kind, "debugfs"))
		return 0; /* a mode, a CPU list or a mask */
	long want = integer_fields(e->old_value);
	if (want < 0 || integer_fields(e->requested_value) == want)
		return 0;
	knob_errorf(err, errsz, "%s reads '%.100s': '%.100s' is not %ld base-10 integer%s like it",
		    e->path, e->old_value, e->requested_value, want, want == 1 ? "" : "s");
	return -1;
}

/* Fill e for request q, read its old value and check the requested one
 * has its shape (value_shape_check). */
static int knob_prepare(const struct knob_request *q, struct knob_entry *e, char *err,
			size_t errsz)
{
	static const char *const kinds[] = {"sysctl", "debugfs", "sched_features", "sysfs", "irq"};
	e->kind = NULL;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(q->kind, kinds[k]))
			e->kind = kinds[k]; /* a constant: the entry outlives the request */
	if (!e->kind || knob_name_check(q->kind, q->name, err, errsz))
		return -1;
	e->name = xstrdup(q->name);
	e->requested_value = xstrdup(q->value);
	e->path = knob_file(q->kind, q->name);
	if (!strcmp(q->kind, "sched_features")) {
		e->old_value = knob_read_feature(e->path, knob_feature_name(q->value), err, errsz);
	} else {
		bool sysctl = !strcmp(q->kind, "sysctl"), debugfs = !strcmp(q->kind, "debugfs");
		e->old_value = knob_read_value(e->path, err, errsz);
		if (!e->old_value && errno == ENOENT && (sysctl || debugfs))
			knob_errorf(err, errsz, "%s: no such file (this kernel (%s) has no %s %s)", e->path,
				    knob_kernel_release(), sysctl ? "sysctl" : "debugfs tunable", q->name);
		else if (!e->old_value && errno == ENOENT)
			knob_errorf(err, errsz, "%s: no such file (this machine or kernel (%s) has none)",
				    e->path, knob_kernel_release());
	}
	return e->old_value ? value_shape_check(e, err, errsz) : -1;
}

int knobs_restore(struct knob_state *st, const struct knob_journal_ops *journal, char *err,
		  size_t errsz)
{
	int rc = 0;
	char why[1024];
	if (!st)
		return 0;
	for (size_t i = st->n; i-- > 0;) {
		struct knob_entry *e = &st->entries[i];
		if (e->restored)
			continue;
		if (e->changed && knob_write_verify(e->path, e->old_value, NULL, 0, why, sizeof(why))) {
			if (!rc)
				knob_errorf(err, errsz, "cannot restore %s: %s", e->name, why);
			rc = -1;
			continue;
		}
		e->restored = true;
		if (journal && journal->restored && journal->restored(journal->ctx, e, why, sizeof(why))) {
			if (!rc)
				knob_errorf(err, errsz, "%s restored, but the journal failed: %s", e->path, why);
			rc = -1;
		}
	}
	if (st->mounted_debugfs) {
		knobs_debugfs_unmount();
		st->mounted_debugfs = false;
	}
	knobs_unlock(st);
	return rc;
}

int knobs_apply(const struct cfg_variant *v, const struct knob_journal_ops *journal,
		struct knob_state **out, char *err, size_t errsz)
{
	size_t n = knobs_count(v);
	struct knob_request *req = xcalloc(n ? n : 1, sizeof(*req));
	n = knobs_requests(v, req);
	int rc = knobs_apply_requests(req, n, journal, out, err, errsz);
	free(req);
	return rc;
}

/* Does any request need debugfs (mounted)? */
static bool needs_debugfs(const struct knob_request *req, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(req[i].kind, "debugfs") || !strcmp(req[i].kind, "sched_features"))
			return true;
	return false;
}

int knobs_apply_requests(const struct knob_request *req, size_t n_req,
			 const struct knob_journal_ops *journal, struct knob_state **out, char *err,
			 size_t errsz)
{
	struct knob_state *st = xcalloc(1, sizeof(*st));

	st->entries = xcalloc(n_req ? n_req : 1, sizeof(*st->entries));
	st->lock_fd = -1;
	*out = NULL;
	if (n_req && ((st->lock_fd = knobs_lock(err, errsz)) < 0 || knob_pending_check(err, errsz)))
		goto fail;
	if (needs_debugfs(req, n_req) && knobs_debugfs_mount(&st->mounted_debugfs, err, errsz))
		goto fail;
	for (size_t i = 0; i < n_req; i++) {
		struct knob_entry *e = &st->entries[st->n];
		if (knob_prepare(&req[i], e, err, errsz)) {
			entry_free(e);
			goto fail;
		}
		e->seq = (int)st->n;
		/* Journalled before anything changes. */
		if (journal && journal->record && journal->record(journal->ctx, e, err, errsz)) {
			entry_free(e);
			goto fail;
		}
		st->n++;
		if (knob_write(e->path, e->requested_value, err, errsz)) {
			if (!req[i].optional)
				goto fail; /* nothing changed: restore just closes the entry */
			/* Nothing changed: closed at once, and said. */
			argv_add(&st->skipped, err);
			e->restored = true;
			if (journal && journal->restored &&
			    journal->restored(journal->ctx, e, err, errsz))
				goto fail;
			continue;
		}
		e->changed = true;
		int rc = knob_read_back(e->path, e->requested_value, &e->applied_value, err, errsz);
		if (!e->applied_value)
			goto fail;
		char jerr[512];
		if (journal && journal->applied && journal->applied(journal->ctx, e, jerr, sizeof(jerr))) {
			if (!rc)
				knob_errorf(err, errsz, "%s", jerr);
			goto fail;
		}
		if (rc)
			goto fail;
	}
	*out = st;
	return 0;

fail:;
	char why[1024];
	if (knobs_restore(st, journal, why, sizeof(why))) {
		size_t len = strlen(err);
		snprintf(err + len, errsz - len, "; restoring: %s (schedrig restore retries)", why);
	}
	knobs_free(st);
	return -1;
}

int knobs_probe(const struct cfg_variant *v, struct argv *problems)
{
	size_t n = knobs_count(v);
	struct knob_request *req = xcalloc(n ? n : 1, sizeof(*req));
	n = knobs_requests(v, req);
	int rc = knobs_probe_requests(req, n, problems);
	free(req);
	return rc;
}

int knobs_probe_requests(const struct knob_request *req, size_t n_req, struct argv *problems)
{
	bool need_debugfs = needs_debugfs(req, n_req), mounted = false;
	char err[1024];
	size_t before = problems->n;

	if (need_debugfs && knobs_debugfs_mount(&mounted, err, sizeof(err))) {
		argv_add(problems, err);
		need_debugfs = false;
	}
	for (size_t i = 0; i < n_req; i++) {
		struct knob_entry e = {0};
		bool dbg = !strcmp(req[i].kind, "debugfs") || !strcmp(req[i].kind, "sched_features");
		if (dbg && !need_debugfs)
			continue;
		if (knob_prepare(&req[i], &e, err, sizeof(err)))
			argv_add(problems, err);
		else if (access(e.path, W_OK))
			argv_addf(problems, "%s: not writable: %s", e.path, strerror(errno));
		entry_free(&e);
	}
	if (mounted)
		knobs_debugfs_unmount();
	return (int)(problems->n - before);
}
