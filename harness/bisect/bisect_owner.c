/* One walker per bisection (bisect_owner.h). */
#include "bisect_owner.h"

#include <stdio.h>
#include <string.h>

#include "provenance.h"
#include "util.h"

void bisect_owner_self(struct stored_bisection *bi)
{
	struct provenance here;
	provenance_read(&here);
	bi->host = xstrdup(here.host);
	bi->boot_id = xstrdup(here.boot_id);
	bi->rig_pid = here.pid;
	bi->rig_start_ticks = here.start_ticks;
}

/* May this process (on host here) take bi over? 0, or -1 with err. */
static int check_free(const struct stored_bisection *bi, const struct provenance *here,
		      char *err, size_t errsz)
{
	if (bi->host && bi->host[0] && strcmp(bi->host, here->host)) {
		snprintf(err, errsz, "bisection %lld was begun on host %s, not on %s: resume it"
			 " there", (long long)bi->id, bi->host, here->host);
		return -1;
	}
	const char *status = provenance_run_status(bi->status, bi->host, bi->boot_id,
						   bi->rig_pid, bi->rig_start_ticks);
	if (!strcmp(status, "running") && bi->rig_start_ticks > 0 &&
	    bi->rig_pid != here->pid) {
		snprintf(err, errsz, "bisection %lld is running (pid %lld): let it end or stop it"
			 " first", (long long)bi->id, bi->rig_pid);
		return -1;
	}
	return 0;
}

int bisect_owner_claim(struct store *st, int64_t id, char *err, size_t errsz)
{
	struct provenance here;
	struct stored_bisection bi = {0};
	provenance_read(&here);
	if (store_begin(st, err, errsz))
		return -1;
	struct rig_id rig = {here.pid, here.start_ticks, here.boot_id};
	int rc = store_bisect_get(st, id, &bi, NULL, err, errsz);
	if (rc == 0)
		rc = check_free(&bi, &here, err, errsz);
	if (rc == 0)
		rc = store_bisect_claim(st, id, here.host, &rig, err, errsz);
	store_bisection_free(&bi);
	if (rc) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err, errsz);
}
