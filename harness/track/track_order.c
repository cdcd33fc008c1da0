/* A history in revision order (track.h track_order). */
#include "track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_git.h"

/* The identity of p's revision: kind, commit and text. */
static char *revision_key(const struct track_point *p)
{
	return p->has_revision ? xasprintf("%d\x1f%s\x1f%s", (int)p->kind, p->commit ? p->commit : "",
					   p->revision)
			       : xasprintf("run %lld", (long long)p->run_id);
}

struct ranked {
	struct track_point p;
	size_t rank, seq;
	const char *key;
};

/* By rank, then revision (the runs of two revisions of one commit, a
 * work tree's clean and dirty builds, are not interleaved), then run. */
static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	int k = strcmp(x->key, y->key);
	if (k)
		return k;
	if (x->p.run_id != y->p.run_id)
		return x->p.run_id < y->p.run_id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Is every point a git revision of one repository? Its directory, or NULL. */
static const char *one_repository(const struct track_history *h)
{
	for (size_t i = 0; i < h->n; i++)
		if (!h->p[i].has_revision || h->p[i].kind != REVISION_GIT || !h->p[i].commit ||
		    !h->p[i].source || strcmp(h->p[i].source, h->p[0].source))
			return NULL;
	return h->n ? h->p[0].source : NULL;
}

/* rank[i]: the git place of point i's commit. 0, or -1 with why. */
static int git_ranks(const struct track_history *h, const char *dir, size_t *rank, char *why,
		     size_t whysz)
{
	char (*hash)[41] = xcalloc(h->n, sizeof(*hash));
	for (size_t i = 0; i < h->n; i++)
		snprintf(hash[i], sizeof(hash[i]), "%s", h->p[i].commit);
	int rc = kgit_topo_order(dir, hash, h->n, rank, why, whysz);
	free(hash);
	return rc;
}

/* rank[i]: the index of the first point of point i's revision. */
static void run_ranks(const struct track_history *h, char **keys, size_t *rank)
{
	for (size_t i = 0; i < h->n; i++) {
		rank[i] = i;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(keys[j], keys[i])) {
				rank[i] = rank[j];
				break;
			}
	}
}

void track_order(struct track_history *h)
{
	char **keys = xcalloc(h->n + 1, sizeof(*keys)), why[1024];
	size_t *rank = xcalloc(h->n + 1, sizeof(*rank));
	struct ranked *r = xcalloc(h->n + 1, sizeof(*r));
	const char *repo = one_repository(h);
	bool any_git = false;
	for (size_t i = 0; i < h->n; i++) {
		any_git |= h->p[i].has_revision && h->p[i].kind == REVISION_GIT;
		keys[i] = revision_key(&h->p[i]);
	}
	free(h->order);
	if (repo && !git_ranks(h, repo, rank, why, sizeof(why))) {
		h->order = xasprintf("git order of %s", repo);
	} else {
		/* Points arrive by run id: the first run of each revision ranks it. */
		run_ranks(h, keys, rank);
		h->order = repo ? xasprintf("run order (git order of %s: %s)", repo, why)
			 : any_git ? xstrdup("run order (not every run is a git revision of one"
					     " repository)")
				   : xstrdup("run order");
	}
	for (size_t i = 0; i < h->n; i++)
		r[i] = (struct ranked){h->p[i], rank[i], i, keys[i]};
	qsort(r, h->n, sizeof(*r), by_rank);
	free(h->first);
	h->first = xcalloc(h->n + 1, sizeof(*h->first));
	h->n_revisions = 0;
	for (size_t i = 0; i < h->n; i++) {
		h->p[i] = r[i].p;
		h->first[i] = i == 0 || strcmp(r[i].key, r[i - 1].key);
		h->n_revisions += h->first[i];
	}
	for (size_t i = 0; i < h->n; i++)
		free(keys[i]);
	free(keys);
	free(rank);
	free(r);
}
