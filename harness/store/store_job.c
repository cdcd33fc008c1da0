/* What the tables of a job that one rig process owns while it runs
 * (bisection, track_follow) share: the claim by a rig, the metric it
 * chose and its end (store_impl.h). */
#include "store_impl.h"

#include <stdlib.h>

#include "util.h"

int store_job_claim(struct store *s, const char *table, int64_t id, const char *host,
		    const struct rig_id *rig, const char *what, char *err, size_t errsz)
{
	char *sql = xasprintf("UPDATE %s SET status = 'running', result = NULL, ended_at = NULL,"
			      " host = ?, rig_pid = ?, rig_start_ticks = ?, boot_id = ? WHERE id = ?",
			      table);
	int rc = store_write(s, what, err, errsz, sql, "tIItI", host, (int64_t)rig->pid,
			     (int64_t)rig->start_ticks, rig->boot_id, id);
	free(sql);
	return rc;
}

int store_job_choice(struct store *s, const char *table, int64_t id, const char *load,
		     const char *metric, const char *op, const char *cell, const char *what,
		     char *err, size_t errsz)
{
	char *sql = xasprintf("UPDATE %s SET load = ?, metric = ?, op = ?, cell = ? WHERE id = ?",
			      table);
	int rc = store_write(s, what, err, errsz, sql, "ttttI", load, metric, op, cell, id);
	free(sql);
	return rc;
}

int store_job_end(struct store *s, const char *table, int64_t id, const char *status,
		  const char *result, const char *what, char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	char *sql = xasprintf("UPDATE %s SET status = ?, result = ?, ended_at = ? WHERE id = ?",
			      table);
	int rc = store_write(s, what, err, errsz, sql, "tttI", status, result, now, id);
	free(sql);
	return rc;
}
