/* harness/lava/: a LAVA lab's REST API (lava_api) and its job logs
 * (lava_log). The job definition of a boot: lava variant is
 * harness/variants/lava_job.h; the backend harness/variants/lava.c.
 */

/* LAVA's REST API (lava-server 2023.01, /api/v0.2/) over libcurl: submit a
 * job, read its state, download its log, cancel it. A JSON answer is at
 * most 8 MiB and comes within 120 s; every call fails when the lab sends
 * no byte for its stall_s; an HTML page where JSON belongs (a proxy, a
 * login form) is an error that says so. Authentication is
 * "Authorization: Token T" (lava_rest_app LavaTokenAuthentication); the
 * token comes from the lab's token_env variable, else from the password
 * of the ~/.netrc entry for the lab's host, and is never written anywhere
 * (messages name where it came from, never its value). */
#ifndef SCHEDRIG_LAVA_API_H
#define SCHEDRIG_LAVA_API_H

#include <stddef.h>

#include "config.h"
#include "util.h"

struct lava_api {
	const struct cfg_lab *lab;
	void *curl;                /* CURL easy handle */
	struct curl_slist *headers; /* Authorization, Accept, Content-Type */
	char token_from[256];      /* "environment variable X" or "~/.netrc" */
};

/* A job's state as GET /api/v0.2/jobs/N/ gives it. */
struct lava_job_state {
	char state[32];         /* Submitted, Scheduling, Scheduled, Running,
				 * Canceling, Finished */
	char health[32];        /* Unknown, Complete, Incomplete, Canceled */
	char device[128];       /* actual_device ("" before scheduling) */
	char device_type[128];  /* requested_device_type */
	char failure[512];      /* failure_comment ("" none) */
	double lava_s;          /* end_time - submit_time: the job's time by
				 * LAVA's own clock, seconds; NaN before its
				 * end or when either is missing */
};

/* Find the token and set up a handle. Returns 0, or -1 with err (no token:
 * names token_env and ~/.netrc; libcurl failing). */
int lava_api_open(const struct cfg_lab *lab, struct lava_api *api, char *err, size_t errsz);
void lava_api_close(struct lava_api *api);

/* POST /api/v0.2/jobs/ {"definition": yaml}: the new job's id. Returns 0,
 * or -1 with err (HTTP status and LAVA's message, e.g. a refused job). */
int lava_api_submit(struct lava_api *api, const char *yaml, long long *job_id, char *err,
		    size_t errsz);
/* GET /api/v0.2/jobs/N/. Returns 0, or -1 with err. */
int lava_api_job(struct lava_api *api, long long job_id, struct lava_job_state *st, char *err,
		 size_t errsz);
/* GET /api/v0.2/jobs/N/logs/ (the YAML job log, lava_log.h) streamed to
 * the file path, through PATH.part: a download that fails keeps the part
 * with its complete lines, and the next call asks only for the lines
 * after them (LAVA's ?start=N, its range of a log, by line). Bounded by
 * the lab's log_max_mb (in all, the part included) and stall_s (no byte
 * for that long fails it, however long the whole takes). An answer that
 * is not the log (an HTTP error, an HTML page) is never written into it.
 * Returns 0 with the whole log at path; 1 (err) when it is over the cap;
 * -1 with err (the lab stalled, dropped the connection, answered HTML or
 * an error; the file system) with the part kept for the next call. */
int lava_api_logs(struct lava_api *api, long long job_id, const char *path, char *err,
		  size_t errsz);
/* GET /api/v0.2/jobs/N/cancel/. Returns 0, or -1 with err. */
int lava_api_cancel(struct lava_api *api, long long job_id, char *err, size_t errsz);

/* The job's page for people: LAB/scheduler/job/N (caller frees). */
char *lava_api_job_url(const struct cfg_lab *lab, long long job_id);

#endif
