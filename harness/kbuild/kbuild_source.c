#include "kbuild_source.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "builtin_proc.h"
#include "kbuild_git.h"
#include "kbuild_key.h"
#include "kbuild_run.h"
#include "util.h"

static bool is_package(const char *s)
{
	const char *p = s + strlen("linux-source-");
	if (strncmp(s, "linux-source-", strlen("linux-source-")) || !*p)
		return false;
	for (; *p; p++)
		if (!strchr("0123456789.", *p))
			return false;
	return true;
}

/* Run argv; its stdout (first line when first_line) into out. 0 or -1. */
static int output_of(char *const *argv, const char *dir, const char *tmp, bool first_line,
		     struct buf *out)
{
	struct kb_cmd c = {.argv = argv, .dir = dir, .log = tmp, .err_log = "/dev/null"};
	char why[256];
	if (kb_run(&c, why, sizeof(why)))
		return -1;
	FILE *f = fopen(tmp, "r");
	char chunk[65536];
	size_t n;
	while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(out, chunk, n);
	if (f)
		fclose(f);
	unlink(tmp);
	if (first_line && out->len) {
		out->len = strcspn(out->data, "\n");
		out->data[out->len] = '\0';
	}
	return 0;
}

/* linux-source-X.Y not installed: its .deb in CACHE/debs (downloaded when
 * absent), unpacked there once. */
static int package_from_cache(const char *pkg, const char *cache, const char *log,
			      struct ksource *s, char *err, size_t errsz)
{
	char *debs = xasprintf("%s/debs", cache);
	char deb[4096];
	int rc = -1;
	if (mkdir_p(debs, err, errsz))
		goto out;
	char *prefix = xasprintf("%s_", pkg);
	int missing = newest_file(debs, prefix, ".deb", deb, sizeof(deb));
	if (missing) {
		char *argv[] = {"apt-get", "download", (char *)pkg, NULL};
		struct kb_cmd c = {.argv = argv, .dir = debs, .log = log, .append = true};
		char why[256];
		if (kb_run(&c, why, sizeof(why)) || newest_file(debs, prefix, ".deb", deb,
								 sizeof(deb))) {
			snprintf(err, errsz, "source %s: not installed, and apt-get download %s"
				 " failed (%s); see %s", pkg, pkg, why, log);
			free(prefix);
			goto out;
		}
	}
	free(prefix);
	const char *base = strrchr(deb, '/') + 1;
	const char *ver = base + strlen(pkg) + 1;
	char *unpacked = xasprintf("%s/%.*s", debs, (int)(strlen(base) - 4), base);
	s->tarball = xasprintf("%s/usr/src/%s.tar.xz", unpacked, pkg);
	s->identity = xasprintf("debian %s %.*s", pkg, (int)strcspn(ver, "_"), ver);
	if (access(s->tarball, R_OK)) {
		char *tmp = xasprintf("%s.tmp.%d", unpacked, (int)getpid());
		char *argv[] = {"dpkg-deb", "-x", deb, tmp, NULL};
		struct kb_cmd c = {.argv = argv, .log = log, .append = true};
		char why[256];
		proc_remove_tree(unpacked);
		int r = kb_run(&c, why, sizeof(why));
		if (r || rename(tmp, unpacked)) {
			snprintf(err, errsz, "source %s: dpkg-deb -x %s: %s", pkg, deb,
				 r ? why : strerror(errno));
			proc_remove_tree(tmp);
			free(tmp);
			free(unpacked);
			goto out;
		}
		free(tmp);
	}
	free(unpacked);
	rc = 0;
out:
	free(debs);
	return rc;
}

static int resolve_package(const char *pkg, const char *cache, const char *log,
			   struct ksource *s, char *err, size_t errsz)
{
	char *tarball = xasprintf("/usr/src/%s.tar.xz", pkg);
	char *fmt = "${Status} ${Version}";
	char *argv[] = {"dpkg-query", "-W", "-f", fmt, (char *)pkg, NULL};
	char *tmp = xasprintf("%s.dpkg-query", log);
	struct buf out = {0};
	struct stat st;
	int rc;
	if (!stat(tarball, &st) && !output_of(argv, NULL, tmp, true, &out) &&
	    !strncmp(buf_str(&out), "install ok installed ", 21)) {
		s->tarball = tarball;
		s->identity = xasprintf("debian %s %s size %lld", pkg, buf_str(&out) + 21,
					(long long)st.st_size);
		rc = 0;
	} else {
		free(tarball);
		rc = package_from_cache(pkg, cache, log, s, err, errsz);
	}
	free(tmp);
	buf_free(&out);
	return rc;
}

static EVP_MD_CTX *tree_ctx;

static int tree_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type == FTW_D && !strcmp(path + ftw->base, ".git"))
		return FTW_SKIP_SUBTREE;
	if (type == FTW_F || type == FTW_SL) {
		char line[64];
		int n = snprintf(line, sizeof(line), " %lld %lld.%09ld\n", (long long)st->st_size,
				 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
		EVP_DigestUpdate(tree_ctx, path, strlen(path));
		EVP_DigestUpdate(tree_ctx, line, (size_t)n);
	}
	return FTW_CONTINUE;
}

/* sha256 over every file's path, size and mtime (nftw order is directory
 * order: sorted first would cost more than it is worth; the digest only
 * has to change when the tree does). */
static void tree_digest(const char *dir, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	tree_ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(tree_ctx, EVP_sha256(), NULL);
	nftw(dir, tree_entry, 64, FTW_PHYS | FTW_ACTIONRETVAL);
	EVP_DigestFinal_ex(tree_ctx, md, &n);
	EVP_MD_CTX_free(tree_ctx);
	tree_ctx = NULL;
	char hex[] = "0123456789abcdef";
	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[2 * n] = '\0';
}

static void resolve_dir(const char *dir, const char *log, struct ksource *s)
{
	char *tmp = xasprintf("%s.git", log);
	char *head[] = {"git", "-C", (char *)dir, "rev-parse", "--verify", "HEAD", NULL};
	char *desc[] = {"git", "-C", (char *)dir, "describe", "--always", "--tags", "--dirty",
			NULL};
	char *diff[] = {"git", "-C", (char *)dir, "diff", "HEAD", NULL};
	struct buf h = {0}, d = {0}, df = {0};
	char sha[65];
	s->dir = xstrdup(dir);
	if (!output_of(head, NULL, tmp, true, &h) && h.len == 40 &&
	    !output_of(diff, NULL, tmp, false, &df)) {
		output_of(desc, NULL, tmp, true, &d);
		kb_sha256_hex(df.data ? df.data : "", df.len, sha);
		s->identity = xasprintf("git %s (%s) diff %s", buf_str(&h), buf_str(&d), sha);
	} else {
		tree_digest(dir, sha);
		s->identity = xasprintf("tree %s", sha);
	}
	buf_free(&h);
	buf_free(&d);
	buf_free(&df);
	free(tmp);
}

/* commit: of a directory source: its full hash and git describe. */
static int resolve_commit(const char *dir, const char *commit, struct ksource *s, char *err,
			  size_t errsz)
{
	char hash[41], why[1024];
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_printf(err, errsz, "source %s: commit: needs a git repository's"
				  " directory as source:", dir);
	if (kgit_resolve(dir, commit, hash, why, sizeof(why)))
		return err_printf(err, errsz, "source %s: %s", dir, why);
	s->commit = xstrdup(hash);
	s->describe = kgit_describe(dir, hash);
	s->identity = xasprintf("git commit %s", hash);
	return 0;
}

int ksource_resolve(const char *written, const char *commit, const char *cache,
		    const char *log, struct ksource *s, char *err, size_t errsz)
{
	struct stat st;
	memset(s, 0, sizeof(*s));
	s->written = xstrdup(written);
	if (commit)
		return resolve_commit(written, commit, s, err, errsz);
	if (is_package(written) && stat(written, &st))
		return resolve_package(written, cache, log, s, err, errsz);
	if (stat(written, &st)) {
		snprintf(err, errsz, "source %s: %s (a kernel tree directory, a tar archive, or"
			 " linux-source-X.Y)", written, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		resolve_dir(written, log, s);
		return 0;
	}
	char sha[65];
	if (kb_sha256_file(written, sha)) {
		snprintf(err, errsz, "source %s: %s", written, strerror(errno));
		return -1;
	}
	s->tarball = xstrdup(written);
	s->identity = xasprintf("tarball %s", sha);
	return 0;
}

/* The tree inside an unpacked tarball: its only top-level directory, else
 * the directory itself. */
static char *tree_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *only = NULL;
	size_t n = 0;
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		free(only);
		only = xasprintf("%s/%s", dir, de->d_name);
	}
	if (d)
		closedir(d);
	struct stat st;
	if (n == 1 && !stat(only, &st) && S_ISDIR(st.st_mode))
		return only;
	free(only);
	return xstrdup(dir);
}

/* A commit's tree as a tar archive at tar (`git archive`, every file
 * under tree/, so the archive has one top-level directory as tree_in
 * expects). */
static int archive_commit(const struct ksource *s, const char *tar, const char *log,
			  char *err, size_t errsz)
{
	char cwd[PATH_MAX];
	if (tar[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return err_printf(err, errsz, "source %s: getcwd: %s", s->written, strerror(errno));
	/* git -C TREE reads a relative --output in TREE, not here. */
	char *out = tar[0] == '/' ? xasprintf("--output=%s", tar)
				  : xasprintf("--output=%s/%s", cwd, tar);
	char *argv[] = {"git", "-C", s->written, "archive", "--format=tar", "--prefix=tree/",
			out, s->commit, NULL};
	struct kb_cmd c = {.argv = argv, .log = log, .append = true};
	char why[256];
	int rc = kb_run(&c, why, sizeof(why));
	if (rc)
		snprintf(err, errsz, "source %s: git archive %s: %s", s->written, s->commit, why);
	free(out);
	return rc == KB_INTERRUPTED ? rc : rc ? -1 : 0;
}

/* Unpack the archive into tmp; a commit's is made first in tmp itself and
 * removed once unpacked (a killed rig leaves one directory, not two
 * things). */
static int unpack_into(const struct ksource *s, const char *tmp, const char *log, char *err,
		       size_t errsz)
{
	char *tar = s->commit ? xasprintf("%s/commit.tar", tmp) : xstrdup(s->tarball);
	char *argv[] = {"tar", "-xf", tar, "-C", (char *)tmp, NULL};
	struct kb_cmd c = {.argv = argv, .log = log, .append = true};
	char why[256];
	int rc = mkdir_p(tmp, err, errsz);
	if (!rc && s->commit)
		rc = archive_commit(s, tar, log, err, errsz);
	if (!rc && (rc = kb_run(&c, why, sizeof(why))))
		snprintf(err, errsz, "source %s: tar -xf %s: %s", s->written, tar, why);
	if (s->commit)
		unlink(tar);
	free(tar);
	return rc == KB_INTERRUPTED ? rc : rc ? -1 : 0;
}

static int unpack(const struct ksource *s, const char *cache, const char *log, char **tree,
		  char *err, size_t errsz)
{
	char id[65];
	kb_sha256_hex(s->identity, strlen(s->identity), id);
	char *dir = xasprintf("%s/sources/%.16s", cache, id);
	struct stat st;
	int rc = 0;
	if (stat(dir, &st)) {
		char *tmp = xasprintf("%s.tmp.%d", dir, (int)getpid());
		if (!(rc = unpack_into(s, tmp, log, err, errsz)) && rename(tmp, dir)) {
			snprintf(err, errsz, "source %s: rename %s: %s", s->written, tmp,
				 strerror(errno));
			rc = -1;
		}
		proc_remove_tree(tmp);
		free(tmp);
	}
	if (!rc)
		*tree = tree_in(dir);
	free(dir);
	return rc;
}

int ksource_copy(const struct ksource *s, const char *cache, const char *dest, const char *log,
		 char *err, size_t errsz)
{
	char *tree = NULL;
	if (s->dir)
		tree = xstrdup(s->dir);
	else {
		int rc = unpack(s, cache, log, &tree, err, errsz);
		if (rc)
			return rc;
	}
	struct argv a = {0};
	argv_add(&a, "cp");
	/* The tree the rig unpacked into its cache is never built in: the copy
	 * links its files (kseries_apply unshares what a patch touches; make
	 * writes only new files). A user's tree is copied: a tree built in
	 * before holds outputs (.cmd files, .config) a build rewrites in place. */
	argv_add(&a, s->dir ? "-a" : "-al");
	DIR *d = opendir(tree);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, ".git"))
			argv_addf(&a, "%s/%s", tree, de->d_name);
	if (d)
		closedir(d);
	argv_add(&a, dest);
	struct kb_cmd c = {.argv = a.v, .log = log, .append = true};
	char why[256];
	int rc = a.n > 3 ? kb_run(&c, why, sizeof(why)) : -1;
	if (rc)
		snprintf(err, errsz, "source %s: copying %s: %s", s->written, tree,
			 a.n > 3 ? why : "an empty tree");
	argv_free(&a);
	free(tree);
	return rc == KB_INTERRUPTED ? rc : rc ? -1 : 0;
}

void ksource_free(struct ksource *s)
{
	free(s->written);
	free(s->identity);
	free(s->dir);
	free(s->tarball);
	free(s->commit);
	free(s->describe);
	memset(s, 0, sizeof(*s));
}
