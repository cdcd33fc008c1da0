/* LAVA's REST API over libcurl (lava_api.h). */
#include "lava_api.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "netrc.h"

/* A JSON answer of LAVA's API is a few kB: one larger than this is not
 * LAVA's (and is not read on). */
#define LAVA_API_ANSWER_MAX (8u << 20)
/* An API call (not a log download) takes at most this long in all. */
#define LAVA_API_TIMEOUT_S 120L

/* Where a response body goes: a buffer of at most max bytes. */
struct sink {
	struct buf *b;
	size_t max;
	bool over;
};

static size_t to_sink(char *data, size_t size, size_t n, void *arg)
{
	struct sink *k = arg;
	if (k->b->len + size * n > k->max) {
		k->over = true;
		return 0; /* libcurl stops: CURLE_WRITE_ERROR */
	}
	buf_append(k->b, data, size * n);
	return size * n;
}

/* The host of url into host (size bytes). 0, or -1. */
static int url_host(const char *url, char *host, size_t size)
{
	CURLU *u = curl_url();
	char *h = NULL;
	int rc = -1;
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK) {
		snprintf(host, size, "%s", h);
		rc = 0;
	}
	curl_free(h);
	curl_url_cleanup(u);
	return rc;
}

/* The token into tok: token_env, else ~/.netrc. 0, or -1 with err. */
static int find_token(struct lava_api *api, char *tok, size_t size, char *err, size_t errsz)
{
	const struct cfg_lab *lab = api->lab;
	const char *env = lab->token_env ? getenv(lab->token_env) : NULL;
	char host[256] = "";

	if (env && *env) {
		snprintf(tok, size, "%s", env);
		snprintf(api->token_from, sizeof(api->token_from), "environment variable %s",
			 lab->token_env);
		return 0;
	}
	char *path = netrc_path();
	int rc = url_host(lab->url, host, sizeof(host)) ? -1 :
		 netrc_lookup(path, host, NULL, tok, size);
	if (rc == 0)
		snprintf(api->token_from, sizeof(api->token_from), "%s", path);
	else
		snprintf(err, errsz, "lab %s: no API token: %s%s%sno entry 'machine %s ... password"
			 " TOKEN' in %s", lab->name, lab->token_env ? "the environment variable " : "",
			 lab->token_env ? lab->token_env : "", lab->token_env ? " is unset, and " : "",
			 host, path);
	free(path);
	return rc;
}

int lava_api_open(const struct cfg_lab *lab, struct lava_api *api, char *err, size_t errsz)
{
	char tok[1024];

	memset(api, 0, sizeof(*api));
	api->lab = lab;
	if (find_token(api, tok, sizeof(tok), err, errsz))
		return -1;
	char *auth = xasprintf("Authorization: Token %s", tok);
	memset(tok, 0, sizeof(tok));
	api->headers = curl_slist_append(NULL, auth);
	memset(auth, 0, strlen(auth));
	free(auth);
	api->headers = curl_slist_append(api->headers, "Accept: application/json");
	api->curl = curl_easy_init();
	if (!api->curl || !api->headers) {
		snprintf(err, errsz, "lab %s: libcurl could not start", lab->name);
		lava_api_close(api);
		return -1;
	}
	return 0;
}

void lava_api_close(struct lava_api *api)
{
	if (api->curl)
		curl_easy_cleanup(api->curl);
	curl_slist_free_all(api->headers);
	api->curl = NULL;
	api->headers = NULL;
}

/* The options every request of the lab sets: URL, protocols, headers,
 * errbuf, connect and stall timeouts (no byte for stall_s: the server
 * answers too slowly or not at all). */
static void common_options(struct lava_api *api, CURL *h, const char *url,
			   struct curl_slist *headers, char *errbuf)
{
	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, (long)ceil(api->lab->stall_s));
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
}

/* libcurl's reason for cc, in words a user acts on: a stall names the
 * lab's stall_s. */
static void curl_reason(struct lava_api *api, CURLcode cc, const char *errbuf, const char *url,
			char *err, size_t errsz)
{
	if (cc == CURLE_OPERATION_TIMEDOUT)
		snprintf(err, errsz, "%s: the lab sent nothing for %.0f s (stall_s of lab %s): %s", url,
			 api->lab->stall_s, api->lab->name, errbuf[0] ? errbuf : curl_easy_strerror(cc));
	else
		snprintf(err, errsz, "%s: %s", url, errbuf[0] ? errbuf : curl_easy_strerror(cc));
}

/* The <title> of an HTML page (a proxy's error page, a login form) into
 * dst, "" when it has none. */
static void html_title(const struct buf *page, char *dst, size_t size)
{
	const char *t = page->data ? strcasestr(buf_str(page), "<title>") : NULL;
	const char *e = t ? strcasestr(t, "</title>") : NULL;
	dst[0] = '\0';
	if (t && e)
		snprintf(dst, size, "%.*s", (int)(e - t - 7 < 200 ? e - t - 7 : 200), t + 7);
}

/* The answer is an HTML page (Content-Type text/html), not what the API
 * sends: -1 with err naming it (its title), else 0. */
static int refuse_html(CURL *h, const struct buf *out, const char *url, const char *wanted,
		       char *err, size_t errsz)
{
	char *ctype = NULL, title[256];
	curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ctype);
	if (!ctype || strncasecmp(ctype, "text/html", 9))
		return 0;
	html_title(out, title, sizeof(title));
	snprintf(err, errsz, "%s: the lab answered with an HTML page%s%s%s, not %s (a proxy or"
		 " login page in front of LAVA?)", url, title[0] ? " ('" : "", title,
		 title[0] ? "')" : "", wanted);
	return -1;
}

/* One request to LAB/api/v0.2/PATH: GET, or POST of body (JSON). The
 * response body (at most LAVA_API_ANSWER_MAX bytes, JSON) into out. 0 on
 * HTTP 2xx, else -1 with err (libcurl's reason, the status and the start
 * of LAVA's answer, an HTML page, an answer too large). */
static int request(struct lava_api *api, const char *path, const char *body, struct buf *out,
		   char *err, size_t errsz)
{
	CURL *h = api->curl;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *url = xasprintf("%s/api/v0.2/%s", api->lab->url, path);
	struct curl_slist *headers = api->headers;
	struct curl_slist *post = NULL;
	struct sink sink = {out, LAVA_API_ANSWER_MAX, false};
	long status = 0;

	if (body) {
		for (struct curl_slist *l = api->headers; l; l = l->next)
			post = curl_slist_append(post, l->data);
		post = curl_slist_append(post, "Content-Type: application/json");
		headers = post;
	}
	common_options(api, h, url, headers, errbuf);
	if (body)
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, to_sink);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, LAVA_API_TIMEOUT_S);
	CURLcode cc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(post);
	int rc = 0;
	if (sink.over) {
		snprintf(err, errsz, "%s: the lab's answer is larger than %u MiB: not LAVA's", url,
			 LAVA_API_ANSWER_MAX >> 20);
		rc = -1;
	} else if (cc != CURLE_OK) {
		curl_reason(api, cc, errbuf, url, err, errsz);
		rc = -1;
	} else if (status < 200 || status > 299) {
		snprintf(err, errsz, "%s: HTTP %ld%s: %.300s", url, status,
			 status == 401 || status == 403 ? " (the token from the " : "",
			 status == 401 || status == 403 ? api->token_from : buf_str(out));
		if (status == 401 || status == 403) {
			size_t len = strlen(err);
			snprintf(err + len, errsz - len, " was refused)");
		}
		rc = -1;
	} else {
		rc = refuse_html(h, out, url, "JSON", err, errsz);
	}
	free(url);
	return rc;
}

/* Parse out as a JSON object. NULL with err when it is not one. */
static json_t *json_of(const struct buf *out, const char *what, char *err, size_t errsz)
{
	json_error_t je;
	json_t *j = json_loadb(out->data ? out->data : "", out->len, 0, &je);
	if (!json_is_object(j)) {
		snprintf(err, errsz, "%s: LAVA's answer is not a JSON object: %s", what, je.text);
		json_decref(j);
		return NULL;
	}
	return j;
}

int lava_api_submit(struct lava_api *api, const char *yaml, long long *job_id, char *err,
		    size_t errsz)
{
	struct buf out = {0};
	json_t *req = json_pack("{s:s}", "definition", yaml);
	char *body = req ? json_dumps(req, JSON_COMPACT) : NULL;
	json_t *j = NULL;
	int rc = -1;

	if (!body) {
		snprintf(err, errsz, "the job definition is not valid UTF-8");
		goto out;
	}
	if (request(api, "jobs/", body, &out, err, errsz) || !(j = json_of(&out, "submit", err, errsz)))
		goto out;
	json_t *ids = json_object_get(j, "job_ids");
	json_t *id = json_array_get(ids, 0);
	if (!json_is_integer(id) || json_integer_value(id) <= 0 || json_array_size(ids) != 1) {
		snprintf(err, errsz, "submit: no single job id in LAVA's answer: %.200s",
			 buf_str(&out));
		goto out;
	}
	*job_id = json_integer_value(id);
	rc = 0;
out:
	json_decref(j);
	json_decref(req);
	free(body);
	buf_free(&out);
	return rc;
}

/* A time of LAVA's API (Django REST framework's ISO 8601 in UTC:
 * "2026-12-07T10:00:01.123456Z") as seconds since the epoch; NaN when
 * key is missing or not such a time. */
static double get_time(json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	struct tm tm = {0};
	double sec;
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &sec) != 6)
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + sec;
}

static void get_str(json_t *j, const char *key, char *dst, size_t size)
{
	const char *s = json_string_value(json_object_get(j, key));
	snprintf(dst, size, "%s", s ? s : "");
}

int lava_api_job(struct lava_api *api, long long job_id, struct lava_job_state *st, char *err,
		 size_t errsz)
{
	struct buf out = {0};
	char *path = xasprintf("jobs/%lld/", job_id);
	json_t *j = NULL;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (request(api, path, NULL, &out, err, errsz) || !(j = json_of(&out, path, err, errsz)))
		goto out;
	json_t *id = json_object_get(j, "id");
	if (!json_is_integer(id) || json_integer_value(id) != job_id) {
		snprintf(err, errsz, "%s: LAVA answered about another job", path);
		goto out;
	}
	get_str(j, "state", st->state, sizeof(st->state));
	get_str(j, "health", st->health, sizeof(st->health));
	get_str(j, "actual_device", st->device, sizeof(st->device));
	get_str(j, "requested_device_type", st->device_type, sizeof(st->device_type));
	get_str(j, "failure_comment", st->failure, sizeof(st->failure));
	st->lava_s = get_time(j, "end_time") - get_time(j, "submit_time");
	if (!st->state[0]) {
		snprintf(err, errsz, "%s: no state in LAVA's answer", path);
		goto out;
	}
	rc = 0;
out:
	json_decref(j);
	buf_free(&out);
	free(path);
	return rc;
}

/* A log download: the file it appends to, the bytes it holds, the cap;
 * an answer that is not the log (an HTTP error, an HTML page: decided at
 * its first bytes, once its headers are in) goes to msg instead, its
 * first 4 kB. */
struct log_sink {
	CURL *h;
	FILE *f;
	unsigned long long size, max;
	bool checked, refused, over, write_failed;
	struct buf msg;
};

static size_t to_log(char *data, size_t size, size_t n, void *arg)
{
	struct log_sink *k = arg;
	if (!k->checked) {
		long status = 0;
		char *ctype = NULL;
		curl_easy_getinfo(k->h, CURLINFO_RESPONSE_CODE, &status);
		curl_easy_getinfo(k->h, CURLINFO_CONTENT_TYPE, &ctype);
		k->checked = true;
		k->refused = status < 200 || status > 299 ||
			     (ctype && !strncasecmp(ctype, "text/html", 9));
	}
	if (k->refused) {
		if (k->msg.len < 4096)
			buf_append(&k->msg, data, size * n);
		return size * n;
	}
	if (k->size + size * n > k->max) {
		k->over = true;
		return 0;
	}
	if (fwrite(data, 1, size * n, k->f) != size * n) {
		k->write_failed = true;
		return 0;
	}
	k->size += size * n;
	return size * n;
}

/* The complete lines of the part file f (a cut last line is dropped):
 * how many, and the bytes they hold. 0, or -1 (read or truncate failed). */
static int part_lines(FILE *f, long long *lines, unsigned long long *bytes)
{
	char chunk[65536];
	size_t n;
	unsigned long long pos = 0, end = 0;
	*lines = 0;
	rewind(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		for (size_t i = 0; i < n; i++) {
			if (chunk[i] == '\n') {
				(*lines)++;
				end = pos + i + 1;
			}
		}
		pos += n;
	}
	*bytes = end;
	if (ferror(f) || fflush(f) || ftruncate(fileno(f), (off_t)end))
		return -1;
	return fseeko(f, (off_t)end, SEEK_SET);
}

int lava_api_logs(struct lava_api *api, long long job_id, const char *path, char *err,
		  size_t errsz)
{
	char *part = xasprintf("%s.part", path);
	FILE *f = fopen(part, "a+");
	long long lines = 0;
	struct log_sink sink = {.h = api->curl, .f = f,
				.max = (unsigned long long)api->lab->log_max_mb << 20};
	char errbuf[CURL_ERROR_SIZE] = "";
	char *url = NULL;
	long status = 0;
	int rc = -1;

	if (!f || part_lines(f, &lines, &sink.size)) {
		snprintf(err, errsz, "%s: %s", part, strerror(errno));
		goto out;
	}
	/* LAVA serves the lines from the start'th on (lava_rest_app's logs
	 * view, ?start=N): the lines already here are not fetched again. */
	url = lines ? xasprintf("%s/api/v0.2/jobs/%lld/logs/?start=%lld", api->lab->url, job_id,
				lines) :
		      xasprintf("%s/api/v0.2/jobs/%lld/logs/", api->lab->url, job_id);
	common_options(api, api->curl, url, api->headers, errbuf);
	curl_easy_setopt(api->curl, CURLOPT_WRITEFUNCTION, to_log);
	curl_easy_setopt(api->curl, CURLOPT_WRITEDATA, &sink);
	CURLcode cc = curl_easy_perform(api->curl);
	curl_easy_getinfo(api->curl, CURLINFO_RESPONSE_CODE, &status);
	bool flushed = fflush(f) == 0;
	if (sink.over) {
		snprintf(err, errsz, "%s: the job log is larger than %lld MB (log_max_mb of lab %s):"
			 " not stored", url, api->lab->log_max_mb, api->lab->name);
		rc = 1;
	} else if (sink.write_failed || !flushed) {
		snprintf(err, errsz, "%s: %s", part, strerror(errno));
	} else if (cc != CURLE_OK) {
		curl_reason(api, cc, errbuf, url, err, errsz);
	} else if (status == 404 && lines) {
		rc = 0; /* LAVA's answer when no line follows the start'th */
	} else if (status < 200 || status > 299) {
		snprintf(err, errsz, "%s: HTTP %ld: %.300s", url, status, buf_str(&sink.msg));
	} else if (refuse_html(api->curl, &sink.msg, url, "the job log", err, errsz) == 0) {
		rc = 0;
	}
	if (rc == 0 && rename(part, path)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc < 0 && part_lines(f, &lines, &sink.size) == 0 && !sink.size)
		unlink(part); /* nothing of the log yet */
out:
	if (f)
		fclose(f);
	buf_free(&sink.msg);
	free(part);
	free(url);
	return rc;
}

int lava_api_cancel(struct lava_api *api, long long job_id, char *err, size_t errsz)
{
	struct buf out = {0};
	char *path = xasprintf("jobs/%lld/cancel/", job_id);
	int rc = request(api, path, NULL, &out, err, errsz);
	buf_free(&out);
	free(path);
	return rc;
}

char *lava_api_job_url(const struct cfg_lab *lab, long long job_id)
{
	return xasprintf("%s/scheduler/job/%lld", lab->url, job_id);
}
