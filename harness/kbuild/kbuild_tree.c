#include "kbuild_tree.h"

#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "kbuild_key.h"
#include "strmap.h"
#include "util.h"

#define KTREE_INDEX_MAX (256 * 1024 * 1024)

/* One remembered file of the index. */
struct ifile {
	long long ino, size, mtime_ns, ctime_ns;
	char sha[65];
	bool trusted;   /* old enough when hashed (KTREE_RACY_S) */
	char *rel;
};

struct index {
	struct ifile *f;
	size_t n;
	struct strmap by_rel;   /* rel -> position in f */
};

static long long ns_of(struct timespec t)
{
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void index_add(struct index *ix, const struct ifile *f)
{
	ix->f = xrealloc(ix->f, (ix->n + 1) * sizeof(*ix->f));
	ix->f[ix->n] = *f;
	ix->f[ix->n].rel = xstrdup(f->rel);
	strmap_add(&ix->by_rel, f->rel, (int64_t)ix->n);
	ix->n++;
}

static void index_free(struct index *ix)
{
	for (size_t i = 0; i < ix->n; i++)
		free(ix->f[i].rel);
	free(ix->f);
	strmap_free(&ix->by_rel);
	memset(ix, 0, sizeof(*ix));
}

/* Lines "INO SIZE MTIME_NS CTIME_NS SHA256 T PATH" (T: 1 trusted, 0 not)
 * after "schedrig-tree-index 1"; anything else ends the reading (an index
 * is only a shortcut: a bad one costs a full read). */
static void index_load(const char *path, struct index *ix)
{
	struct buf b = {0};
	if (!path || buf_read_file(&b, path, KTREE_INDEX_MAX) ||
	    strncmp(buf_str(&b), "schedrig-tree-index 1\n", 22)) {
		buf_free(&b);
		return;
	}
	for (char *p = b.data + 22; *p;) {
		char *eol = strchr(p, '\n');
		if (!eol)
			break;
		*eol = '\0';
		struct ifile f = {0};
		int trusted = 0, used = 0;
		if (sscanf(p, "%lld %lld %lld %lld %64s %d %n", &f.ino, &f.size, &f.mtime_ns,
			   &f.ctime_ns, f.sha, &trusted, &used) < 6 || !used)
			break;
		f.trusted = trusted == 1;
		f.rel = p + used;
		index_add(ix, &f);
		p = eol + 1;
	}
	buf_free(&b);
}

/* Write ix to path through a temporary file renamed over it; a failure
 * only loses the shortcut. */
static void index_save(const char *path, const struct index *ix)
{
	if (!path)
		return;
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid()), err[256];
	struct buf b = {0};
	buf_puts(&b, "schedrig-tree-index 1\n");
	for (size_t i = 0; i < ix->n; i++)
		if (!strchr(ix->f[i].rel, '\n'))
			buf_printf(&b, "%lld %lld %lld %lld %s %d %s\n", ix->f[i].ino, ix->f[i].size,
				   ix->f[i].mtime_ns, ix->f[i].ctime_ns, ix->f[i].sha,
				   ix->f[i].trusted ? 1 : 0, ix->f[i].rel);
	if (file_write(tmp, buf_str(&b), b.len, err, sizeof(err)) || rename(tmp, path))
		unlink(tmp);
	buf_free(&b);
	free(tmp);
}

/* The sha256 of the regular file full (rel in the index) with stat st:
 * from old when its entry matches and is trusted, else read; remembered
 * in next. Counts a read in *hashed. 0, or -1 with err. */
static int file_sha(const struct index *old, struct index *next, const char *rel,
		    const char *full, const struct stat *st, char sha[65], size_t *hashed,
		    char *err, size_t errsz)
{
	struct ifile f = {.ino = (long long)st->st_ino, .size = (long long)st->st_size,
			  .mtime_ns = ns_of(st->st_mtim), .ctime_ns = ns_of(st->st_ctim),
			  .rel = (char *)rel};
	int64_t *at = strmap_get(&old->by_rel, rel);
	const struct ifile *o = at ? &old->f[*at] : NULL;
	if (o && o->trusted && o->ino == f.ino && o->size == f.size &&
	    o->mtime_ns == f.mtime_ns && o->ctime_ns == f.ctime_ns) {
		memcpy(f.sha, o->sha, sizeof(f.sha));
	} else {
		if (kb_sha256_file(full, f.sha))
			return err_printf(err, errsz, "%s: %s", full, strerror(errno));
		(*hashed)++;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	long long newest = f.mtime_ns > f.ctime_ns ? f.mtime_ns : f.ctime_ns;
	f.trusted = ns_of(now) - newest > KTREE_RACY_S * 1000000000LL;
	index_add(next, &f);
	memcpy(sha, f.sha, 65);
	return 0;
}

/* The walk's entries (nftw has no context argument). */
struct entry {
	char *rel;
	struct stat st;
};
static struct {
	struct entry *e;
	size_t n;
	size_t root_len;
} walk;

static int walk_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)type;
	if (ftw->level == 0)
		return FTW_CONTINUE;
	const char *name = path + ftw->base;
	if (ftw->level == 1 && (!strcmp(name, ".git") || !strcmp(name, KBUILD_OBJ_DIR)))
		return S_ISDIR(st->st_mode) ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	walk.e = xrealloc(walk.e, (walk.n + 1) * sizeof(*walk.e));
	walk.e[walk.n].rel = xstrdup(path + walk.root_len + 1);
	walk.e[walk.n].st = *st;
	walk.n++;
	return FTW_CONTINUE;
}

static int by_rel(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->rel, ((const struct entry *)b)->rel);
}

/* One entry's line of the digest into md. */
static int digest_entry(EVP_MD_CTX *md, const char *dir, const struct entry *e,
			const struct index *old, struct index *next, size_t *hashed, char *err,
			size_t errsz)
{
	char *full = xasprintf("%s/%s", dir, e->rel), sha[65];
	struct buf line = {0};
	int rc = 0;
	if (S_ISREG(e->st.st_mode)) {
		rc = file_sha(old, next, e->rel, full, &e->st, sha, hashed, err, errsz);
		buf_printf(&line, "f %c %s ", e->st.st_mode & 0111 ? 'x' : '-', sha);
	} else if (S_ISLNK(e->st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(full, target, sizeof(target));
		if (n < 0)
			rc = err_printf(err, errsz, "%s: %s", full, strerror(errno));
		kb_sha256_hex(target, n > 0 ? (size_t)n : 0, sha);
		buf_printf(&line, "l %s ", sha);
	} else {
		buf_puts(&line, S_ISDIR(e->st.st_mode) ? "d " : "o ");
	}
	buf_append(&line, e->rel, strlen(e->rel) + 1);
	EVP_DigestUpdate(md, line.data, line.len);
	buf_free(&line);
	free(full);
	return rc;
}

static void hex_final(EVP_MD_CTX *md, char out[65])
{
	unsigned char raw[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	static const char digits[] = "0123456789abcdef";
	EVP_DigestFinal_ex(md, raw, &n);
	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = digits[raw[i] >> 4];
		out[2 * i + 1] = digits[raw[i] & 15];
	}
	out[2 * n] = '\0';
}

int ktree_digest(const char *dir, const char *index, char out[65], struct ktree_stats *st,
		 char *err, size_t errsz)
{
	struct index old = {0}, next = {0};
	int rc = 0;
	memset(st, 0, sizeof(*st));
	memset(&walk, 0, sizeof(walk));
	walk.root_len = strlen(dir);
	while (walk.root_len > 1 && dir[walk.root_len - 1] == '/')
		walk.root_len--;
	if (nftw(dir, walk_entry, 64, FTW_PHYS | FTW_ACTIONRETVAL))
		rc = err_printf(err, errsz, "%s: %s", dir, strerror(errno));
	qsort(walk.e, walk.n, sizeof(*walk.e), by_rel);
	index_load(index, &old);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	for (size_t i = 0; i < walk.n && !rc; i++)
		rc = digest_entry(md, dir, &walk.e[i], &old, &next, &st->hashed, err, errsz);
	st->entries = walk.n;
	hex_final(md, out);
	EVP_MD_CTX_free(md);
	if (!rc && (st->hashed || next.n != old.n))
		index_save(index, &next);
	for (size_t i = 0; i < walk.n; i++)
		free(walk.e[i].rel);
	free(walk.e);
	memset(&walk, 0, sizeof(walk));
	index_free(&old);
	index_free(&next);
	return rc;
}

int ktree_file_sha256(const char *path, const char *index, char out[65], char *err,
		      size_t errsz)
{
	struct index old = {0}, next = {0};
	struct stat st;
	size_t hashed = 0;
	if (stat(path, &st))
		return err_printf(err, errsz, "%s: %s", path, strerror(errno));
	index_load(index, &old);
	int rc = file_sha(&old, &next, "file", path, &st, out, &hashed, err, errsz);
	if (!rc && hashed)
		index_save(index, &next);
	index_free(&old);
	index_free(&next);
	return rc;
}
