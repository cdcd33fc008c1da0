/* Knob journal over the results database: see knob_journal.h. */
#include "knob_journal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "knob_pending.h"
#include "util.h"

static char journal_db[PATH_MAX];

void knob_journal_set_db(const char *db)
{
	snprintf(journal_db, sizeof(journal_db), "%s", db);
}

bool knob_host_is_guest(const char *host)
{
	return host && !strncmp(host, KNOB_HOST_GUEST_PREFIX, strlen(KNOB_HOST_GUEST_PREFIX));
}

static int journal_record(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	struct knob_db_journal *j = ctx;
	struct stored_knob k = {
		.run_id = j->run_id, .variant = j->variant, .seq = e->seq, .kind = e->kind,
		.name = e->name, .path = e->path, .old_value = e->old_value,
		.requested_value = e->requested_value, .host = e->host ? e->host : j->host,
		.boot_id = !e->host ? j->boot_id :
			   knob_host_is_guest(e->host) ? KNOB_GUEST_BOOT_ID : "",
	};
	int64_t id;
	if (store_knob_record(j->st, &k, &id, err, errsz))
		return -1;
	if ((size_t)e->seq >= j->n_ids) {
		size_t n = (size_t)e->seq + 1;
		j->ids = xrealloc(j->ids, n * sizeof(*j->ids));
		memset(j->ids + j->n_ids, 0, (n - j->n_ids) * sizeof(*j->ids));
		j->n_ids = n;
	}
	j->ids[e->seq] = id;
	if (e->host)
		return 0; /* a guest's knob: nothing of this machine changes */
	if (!j->n_here && knob_pending_write(journal_db, j->run_id, err, errsz)) {
		char why[512];
		store_knob_restored(j->st, id, why, sizeof(why)); /* it will not be made */
		return -1;
	}
	j->n_here++;
	return 0;
}

static int64_t row_of(const struct knob_db_journal *j, const struct knob_entry *e)
{
	return (size_t)e->seq < j->n_ids ? j->ids[e->seq] : 0;
}

static int journal_applied(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	struct knob_db_journal *j = ctx;
	return store_knob_applied(j->st, row_of(j, e), e->applied_value, err, errsz);
}

static int journal_restored(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	struct knob_db_journal *j = ctx;
	if (store_knob_restored(j->st, row_of(j, e), err, errsz))
		return -1;
	if (!e->host && j->n_here && !--j->n_here)
		return knob_pending_remove(err, errsz);
	return 0;
}

void knob_db_journal_init(struct knob_db_journal *j, struct store *st, int64_t run_id,
			  const char *variant)
{
	struct utsname u;
	memset(j, 0, sizeof(*j));
	j->ops = (struct knob_journal_ops){journal_record, journal_applied, journal_restored, j};
	j->st = st;
	j->run_id = run_id;
	j->variant = variant;
	snprintf(j->host, sizeof(j->host), "%s", uname(&u) ? "" : u.nodename);
	knob_boot_id(j->boot_id, sizeof(j->boot_id));
}

void knob_db_journal_free(struct knob_db_journal *j)
{
	free(j->ids);
	j->ids = NULL;
	j->n_ids = 0;
}
