#include "kbuild_source.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "kbuild_cache.h"
#include "kbuild_git.h"
#include "kbuild_key.h"
#include "kbuild_run.h"
#include "kbuild_tree.h"
#include "util.h"

bool ksource_is_package(const char *s)
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
static int output_of(char *const *argv, const char *tmp, bool first_line, struct buf *out)
{
	struct kb_cmd c = {.argv = argv, .log = tmp, .err_log = "/dev/null"};
	char why[256];
	int rc = kb_run(&c, why, sizeof(why)) ? -1 : 0;
	if (!rc)
		buf_read_file(out, tmp, 1024 * 1024);
	unlink(tmp);
	if (first_line && out->len) {
		out->len = strcspn(out->data, "\n");
		out->data[out->len] = '\0';
	}
	return rc;
}

/* The fast path's index of path (a tree or a file) in CACHE/trees/. */
static char *index_of(const char *cache, const char *path, char *err, size_t errsz)
{
	char id[65], *dir = xasprintf("%s/trees", cache);
	kb_sha256_hex(path, strlen(path), id);
	char *idx = mkdir_p(dir, err, errsz) ? NULL : xasprintf("%s/%.16s.idx", dir, id);
	free(dir);
	return idx;
}

/* identity "tarball SHA256" of the file at path. */
static int tarball_identity(const char *path, const char *cache, struct ksource *s, char *err,
			    size_t errsz)
{
	char sha[65], why[512];
	char *idx = index_of(cache, path, why, sizeof(why));
	int rc = ktree_file_sha256(path, idx, sha, why, sizeof(why));
	free(idx);
	if (rc)
		return err_printf(err, errsz, "source %s: %s", s->written, why);
	s->identity = xasprintf("tarball %s", sha);
	return 0;
}

/* Unpack the .deb at deb into unpacked (debs/NAME, under its lock). */
static int unpack_deb(const char *pkg, const char *deb, const char *unpacked, const char *log,
		      char *err, size_t errsz)
{
	char *lock = kcache_lock_of(unpacked), *tmp = kcache_tmp_of(unpacked);
	int fd = kcache_lock(lock, pkg, NULL, NULL, err, errsz), rc = fd < 0 ? fd : 0;
	struct stat st;
	if (fd >= 0 && stat(unpacked, &st)) {
		char *argv[] = {"dpkg-deb", "-x", (char *)deb, tmp, NULL};
		struct kb_cmd c = {.argv = argv, .log = log, .append = true, .keep_env = true};
		char why[256];
		proc_remove_tree(tmp);
		int r = kb_run(&c, why, sizeof(why));
		if (r || rename(tmp, unpacked)) {
			rc = r == KB_INTERRUPTED ? r : -1;
			snprintf(err, errsz, "source %s: dpkg-deb -x %s: %s", pkg, deb,
				 r ? why : strerror(errno));
			proc_remove_tree(tmp);
		}
	}
	if (fd >= 0)
		close(fd);
	free(lock);
	free(tmp);
	return rc;
}

/* linux-source-X.Y not installed: its .deb in CACHE/debs (downloaded when
 * absent), unpacked there once. */
static int package_from_cache(const char *pkg, const char *cache, const char *log, bool fetch,
			      struct ksource *s, char *err, size_t errsz)
{
	char *debs = xasprintf("%s/debs", cache), *prefix = xasprintf("%s_", pkg);
	char deb[4096];
	int rc = -1;
	if (mkdir_p(debs, err, errsz))
		goto out;
	if (newest_file(debs, prefix, ".deb", deb, sizeof(deb)) && !fetch) {
		rc = KSOURCE_NOT_HERE;
		snprintf(err, errsz, "%s is not installed and not in %s", pkg, debs);
		goto out;
	}
	if (newest_file(debs, prefix, ".deb", deb, sizeof(deb))) {
		char *argv[] = {"apt-get", "download", (char *)pkg, NULL};
		struct kb_cmd c = {.argv = argv, .dir = debs, .log = log, .append = true,
				   .keep_env = true};
		char why[256];
		if (kb_run(&c, why, sizeof(why)) ||
		    newest_file(debs, prefix, ".deb", deb, sizeof(deb))) {
			snprintf(err, errsz, "source %s: not installed, and apt-get download %s"
				 " failed (%s); see %s", pkg, pkg, why, log);
			goto out;
		}
	}
	const char *base = strrchr(deb, '/') + 1;
	const char *ver = base + strlen(pkg) + 1;
	char *unpacked = xasprintf("%s/%.*s", debs, (int)(strlen(base) - 4), base);
	s->tarball = xasprintf("%s/usr/src/%s.tar.xz", unpacked, pkg);
	s->origin = xasprintf("debian %s %.*s", pkg, (int)strcspn(ver, "_"), ver);
	rc = unpack_deb(pkg, deb, unpacked, log, err, errsz);
	free(unpacked);
	if (!rc)
		rc = tarball_identity(s->tarball, cache, s, err, errsz);
out:
	free(prefix);
	free(debs);
	return rc;
}

static int resolve_package(const char *pkg, const char *cache, const char *log, bool fetch,
			   struct ksource *s, char *err, size_t errsz)
{
	char *tarball = xasprintf("/usr/src/%s.tar.xz", pkg);
	char *fmt = "${Status} ${Version}";
	char *argv[] = {"dpkg-query", "-W", "-f", fmt, (char *)pkg, NULL};
	char *tmp = xasprintf("%s.dpkg-query", log);
	struct buf out = {0};
	struct stat st;
	int rc;
	if (!stat(tarball, &st) && !output_of(argv, tmp, true, &out) &&
	    !strncmp(buf_str(&out), "install ok installed ", 21)) {
		s->tarball = tarball;
		s->origin = xasprintf("debian %s %s", pkg, buf_str(&out) + 21);
		rc = tarball_identity(tarball, cache, s, err, errsz);
	} else {
		free(tarball);
		rc = package_from_cache(pkg, cache, log, fetch, s, err, errsz);
	}
	free(tmp);
	buf_free(&out);
	return rc;
}

/* origin "git HEAD (DESCRIBE)" of the directory's own repository, if it
 * has one (DIR/.git: a directory or a gitfile); "" otherwise. Read only:
 * --no-optional-locks, so git does not refresh the index. */
static char *git_origin(const char *dir, const char *log)
{
	char *gitdir = xasprintf("%s/.git", dir), *opt = xasprintf("--git-dir=%s", gitdir);
	char *work = xasprintf("--work-tree=%s", dir), *tmp = xasprintf("%s.git", log);
	char *head[] = {"git", "--no-optional-locks", opt, work, "rev-parse", "--verify", "HEAD",
			NULL};
	char *desc[] = {"git", "--no-optional-locks", opt, work, "describe", "--always",
			"--tags", "--dirty", NULL};
	struct buf h = {0}, d = {0};
	struct stat st;
	char *origin = xstrdup("");
	if (!lstat(gitdir, &st) && !output_of(head, tmp, true, &h) && h.len == 40) {
		output_of(desc, tmp, true, &d);
		free(origin);
		origin = xasprintf("git %s (%s)", buf_str(&h), d.len ? buf_str(&d) : "no describe");
	}
	buf_free(&h);
	buf_free(&d);
	free(gitdir);
	free(opt);
	free(work);
	free(tmp);
	return origin;
}

static int resolve_dir(const char *dir, const char *cache, const char *log, struct ksource *s,
		       char *err, size_t errsz)
{
	char real[PATH_MAX], sha[65], why[512];
	struct ktree_stats st;
	if (!realpath(dir, real))
		return err_printf(err, errsz, "source %s: %s", dir, strerror(errno));
	char *idx = index_of(cache, real, why, sizeof(why));
	int rc = ktree_digest(real, idx, sha, &st, why, sizeof(why));
	free(idx);
	if (rc)
		return err_printf(err, errsz, "source %s: %s", dir, why);
	s->dir = xstrdup(real);
	s->identity = xasprintf("tree %s", sha);
	s->origin = git_origin(real, log);
	return 0;
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
	s->origin = xstrdup("");
	return 0;
}

int ksource_resolve(const char *written, const char *commit, const char *cache,
		    const char *log, bool fetch, struct ksource *s, char *err, size_t errsz)
{
	struct stat st;
	memset(s, 0, sizeof(*s));
	s->written = xstrdup(written);
	int rc;
	if (commit)
		rc = resolve_commit(written, commit, s, err, errsz);
	else if (ksource_is_package(written) && stat(written, &st))
		rc = resolve_package(written, cache, log, fetch, s, err, errsz);
	else if (stat(written, &st))
		rc = err_printf(err, errsz, "source %s: %s (a kernel tree directory, a tar archive,"
				" or linux-source-X.Y)", written, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rc = resolve_dir(written, cache, log, s, err, errsz);
	else if (!(rc = tarball_identity(written, cache, s, err, errsz)))
		s->tarball = xstrdup(written);
	if (!rc && !s->origin)
		s->origin = xstrdup("");
	return rc;
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
	if (n == 1 && !lstat(only, &st) && S_ISDIR(st.st_mode))
		return only;
	free(only);
	return xstrdup(dir);
}

/* A commit's tree as a tar archive at tar (absolute: `git archive`, every
 * file under tree/, so the archive has one top-level directory as tree_in
 * expects). */
static int archive_commit(const struct ksource *s, const char *tar, const char *log,
			  char *err, size_t errsz)
{
	char *out = xasprintf("--output=%s", tar);
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

/* CACHE/sources/ID, unpacked under its lock if it is not there yet. */
static int unpack(const struct ksource *s, const char *cache, const char *log, char **tree,
		  char *err, size_t errsz)
{
	char id[65];
	kb_sha256_hex(s->identity, strlen(s->identity), id);
	char *dir = xasprintf("%s/sources/%.16s", cache, id);
	char *lock = kcache_lock_of(dir), *tmp = kcache_tmp_of(dir);
	struct stat st;
	char *parent = xasprintf("%s/sources", cache);
	int fd = mkdir_p(parent, err, errsz) ? -1 : kcache_lock(lock, s->written, NULL, NULL, err,
								  errsz);
	int rc = fd < 0 ? fd : 0;
	if (!rc && stat(dir, &st)) {
		proc_remove_tree(tmp); /* a killed rig's: never used */
		if (!(rc = unpack_into(s, tmp, log, err, errsz)) && rename(tmp, dir))
			rc = err_printf(err, errsz, "source %s: rename %s: %s", s->written, tmp,
					strerror(errno));
		proc_remove_tree(tmp);
	}
	if (fd >= 0)
		close(fd);
	if (!rc)
		*tree = tree_in(dir);
	free(parent);
	free(lock);
	free(tmp);
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
	/* The tree the rig unpacked into its cache is never written: the copy
	 * links its files (kseries_apply unshares what a patch touches; make
	 * writes only in the object directory). A user's tree is copied, so
	 * that an edit while it builds cannot reach the build. -P: a symbolic
	 * link on the command line is copied as a link too. */
	argv_add(&a, s->dir ? "-aP" : "-alP");
	DIR *d = opendir(tree);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, ".git") && strcmp(de->d_name, KBUILD_OBJ_DIR))
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
	free(s->origin);
	free(s->dir);
	free(s->tarball);
	free(s->commit);
	free(s->describe);
	memset(s, 0, sizeof(*s));
}
