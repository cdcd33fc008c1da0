/* The run engine's side of host state (session_impl.h): the fingerprint of
 * the machine the rig runs on when a run begins, and each variant's where
 * its kernel runs (variant_run.on_host), checked against what the variant
 * asked for and stored (store_host.h); a fingerprint that changed since
 * it was first stored (a variant visited again by an interleaved run, a
 * resumed run) keeps the first and is said in a warning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostdecl.h"
#include "hostfp.h"
#include "session_impl.h"
#include "store_host.h"

/* "field: OLD -> NEW" of each stable field rows (of variant_id) and fp
 * read differently, appended to out; how many. */
static size_t changes(const struct stored_host_row *rows, size_t n, int64_t variant_id,
		      const struct host_fp *fp, struct buf *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].variant_id != variant_id || !rows[i].stable)
			continue;
		const struct host_field *f = hostfp_get(fp, rows[i].field);
		const char *now = f ? f->value : "(not read)";
		if (f && hostfp_same(f->field, f->value, rows[i].value))
			continue;
		buf_printf(out, "%s%s: %s -> %s", k++ ? "; " : "", rows[i].field, rows[i].value, now);
	}
	return k;
}

/* Store fp as variant_id's fingerprint (0: the run's machine), unless one
 * is stored already: then say what changed (event "warning"). 0, or -1
 * (the store failed: err). */
static int record(struct run_session *rc, int64_t variant_id, const char *who,
		  const struct host_fp *fp, char *err, size_t errsz)
{
	struct stored_host_row *rows;
	size_t n, have = 0;
	if (store_host_rows(rc->st, rc->run_id, &rows, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		have += rows[i].variant_id == variant_id;
	int ret = 0;
	if (have) {
		struct buf b = {0};
		if (changes(rows, n, variant_id, fp, &b)) {
			char *msg = xasprintf("%s: host state changed since it was first read (its"
					      " fingerprint keeps the first): %s", who, buf_str(&b));
			fprintf(stderr, "schedrig: warning: %s\n", msg);
			ret = store_event(rc->st, rc->run_id, "warning", msg, err, errsz);
			free(msg);
		}
		buf_free(&b);
	} else {
		struct stored_host_field *f = xcalloc(fp->n + 1, sizeof(*f));
		for (size_t i = 0; i < fp->n; i++)
			f[i] = (struct stored_host_field){fp->v[i].field, fp->v[i].value,
							  fp->v[i].source, fp->v[i].stable};
		ret = store_host_save(rc->st, rc->run_id, variant_id, f, fp->n, err, errsz);
		free(f);
	}
	store_host_rows_free(rows, n);
	return ret;
}

int session_run_fingerprint(struct run_session *rc)
{
	struct host_fp fp;
	char err[512];
	hostfp_read("/", &fp);
	int rc_ = record(rc, 0, "the rig's machine", &fp, err, sizeof(err));
	hostfp_free(&fp);
	if (rc_)
		fprintf(stderr, "schedrig: %s\n", err);
	return rc_;
}

int session_on_host(void *ctx, const struct host_fp *fp, const struct argv *notes, char *err,
		    size_t errsz)
{
	struct run_session *rc = ctx;
	const struct cfg_variant *v = NULL;
	for (size_t i = 0; i < rc->e->n_variants; i++)
		if (!strcmp(rc->e->variants[i].name, rc->variant))
			v = &rc->e->variants[i];
	struct hostdecls d;
	char why[768];
	hostdecl_of_variant(v, &d);
	int bad = hostdecl_check(&d, fp, why, sizeof(why));
	hostdecls_free(&d);
	if (bad)
		return err_printf(err, errsz, "the fingerprint where its kernel runs does not show"
				  " what it asked for: %s", why);
	char *who = xasprintf("variant %s", v->name);
	int ret = record(rc, rc->variant_id, who, fp, err, errsz);
	for (size_t i = 0; !ret && notes && i < notes->n; i++) {
		char *msg = xasprintf("%s: host: %s", who, notes->v[i]);
		ret = store_event(rc->st, rc->run_id, "note", msg, err, errsz);
		free(msg);
	}
	free(who);
	if (ret)
		rc->store_failed = true;
	return ret;
}
