/* LAVA's REST API over libcurl (lava_api.h). */
#include "lava_api.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netrc.h"

#define LAVA_API_TIMEOUT_S 120L

static size_t to_buf(char *data, size_t size, size_t n, void *b)
{
	buf_append(b, data, size * n);
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

/* One request to LAB/api/v0.2/PATH: GET, or POST of body (JSON). The
 * response body into out. 0 on HTTP 2xx, else -1 with err (libcurl's
 * reason, or the status and the start of LAVA's answer). */
static int request(struct lava_api *api, const char *path, const char *body, struct buf *out,
		   char *err, size_t errsz)
{
	CURL *h = api->curl;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *url = xasprintf("%s/api/v0.2/%s", api->lab->url, path);
	struct curl_slist *headers = api->headers;
	struct curl_slist *post = NULL;
	long status = 0;

	curl_easy_reset(h);
	if (body) {
		for (struct curl_slist *l = api->headers; l; l = l->next)
			post = curl_slist_append(post, l->data);
		post = curl_slist_append(post, "Content-Type: application/json");
		headers = post;
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	}
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, to_buf);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, LAVA_API_TIMEOUT_S);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	CURLcode cc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(post);
	int rc = 0;
	if (cc != CURLE_OK) {
		snprintf(err, errsz, "%s: %s", url, errbuf[0] ? errbuf : curl_easy_strerror(cc));
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

int lava_api_logs(struct lava_api *api, long long job_id, struct buf *log, char *err,
		  size_t errsz)
{
	char *path = xasprintf("jobs/%lld/logs/", job_id);
	int rc = request(api, path, NULL, log, err, errsz);
	free(path);
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
