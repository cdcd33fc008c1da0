#include "kbuild_plan.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild_kernel.h"
#include "kbuild_run.h"
#include "util.h"

/* The newest build_s of the cache's entries whose source is identity and
 * that were built cold (or from a base's objects); -1 when none. */
static double past_build_s(const char *cache, const char *identity, bool cold)
{
	char *builds = xasprintf("%s/builds", cache);
	DIR *d = opendir(builds);
	struct dirent *de;
	double best = -1;
	time_t newest = 0;
	char *want = xasprintf(" %s", identity);
	while (d && (de = readdir(d))) {
		if (strlen(de->d_name) != 64)
			continue;
		char *path = xasprintf("%s/%s/provenance.txt", builds, de->d_name);
		struct buf t = {0};
		struct stat st;
		if (!stat(path, &st) && !buf_read_file(&t, path, 1024 * 1024)) {
			const char *src = strstr(buf_str(&t), "\nsource "), *at;
			size_t len = src ? strcspn(src + 1, "\n") : 0;
			char *line = src ? xasprintf("%.*s", (int)len, src + 1) : xstrdup("");
			bool kind = strstr(buf_str(&t), cold ? "\nbuild cold\n"
							     : "\nbuild from the objects of ") != NULL;
			double s;
			char value[64];
			if (kind && strstr(line, want) && (at = strstr(buf_str(&t), "\nbuild_s ")) &&
			    st.st_mtime >= newest) {
				snprintf(value, sizeof(value), "%.*s", (int)strcspn(at + 9, "\n"), at + 9);
				if (parse_double(value, &s)) {
					best = s;
					newest = st.st_mtime;
				}
			}
			free(line);
		}
		buf_free(&t);
		free(path);
	}
	if (d)
		closedir(d);
	free(want);
	free(builds);
	return best;
}

/* "about N min here (the newest ... took S s)" or why it is not known. */
static char *estimate(const char *cache, const char *identity, bool cold)
{
	double s = identity ? past_build_s(cache, identity, cold) : -1;
	const char *kind = cold ? "cold build" : "build from a base's objects";
	if (!identity)
		return xstrdup("how long is not known before the source is here");
	if (s < 0)
		return xasprintf("how long is not known here yet (no %s of this source in %s)", kind,
				 cache);
	return s < 90 ? xasprintf("about %.0f s here (the newest %s of this source took %.0f s)",
				  s, kind, s)
		      : xasprintf("about %.0f min here (the newest %s of this source took %.0f s)",
				  s / 60, kind, s);
}

/* The size in MB apt-cache says package has, or -1. */
static double package_mb(const char *pkg, const char *log)
{
	char *argv[] = {"apt-cache", "show", "--no-all-versions", (char *)pkg, NULL};
	struct kb_cmd c = {.argv = argv, .log = log, .err_log = "/dev/null", .keep_env = true};
	char why[256];
	struct buf out = {0};
	double mb = -1, bytes;
	if (!kb_run(&c, why, sizeof(why)) && !buf_read_file(&out, log, 1024 * 1024)) {
		const char *at = strstr(buf_str(&out), "\nSize: ");
		char value[64];
		if (at) {
			snprintf(value, sizeof(value), "%.*s", (int)strcspn(at + 7, "\n"), at + 7);
			if (parse_double(value, &bytes))
				mb = bytes / 1e6;
		}
	}
	buf_free(&out);
	unlink(log);
	return mb;
}

static void plan_one(const struct experiment *e, const char *name, const char *cache,
		     FILE *out)
{
	char err[4096], *logs = xasprintf("%s/logs", cache);
	char *log = xasprintf("%s/plan-%s.log", logs, name);
	struct kbuild b = {0};
	int rc = mkdir_p(logs, err, sizeof(err)) ? -1
		 : kbuild_resolve(e, name, cache, log, false, &b, err, sizeof(err));
	const char *p = e->path;
	if (rc == KSOURCE_NOT_HERE) {
		char *apt = xasprintf("%s.apt-cache", log), *how = estimate(cache, NULL, true);
		double mb = package_mb(b.src.written, apt);
		fprintf(out, "%s: note: kernel %s will be built cold: %s is not installed and not in"
			" %s/debs, so apt-get download fetches it first (%s%.1f MB%s) and it is"
			" unpacked once; %s\n", p, name, b.src.written, b.cache ? b.cache : cache,
			mb < 0 ? "size unknown: " : "", mb < 0 ? 0.0 : mb,
			mb < 0 ? "" : " to download", how);
		free(apt);
		free(how);
	} else if (rc) {
		fprintf(out, "%s: note: kernel %s: cannot tell what building it takes: %s\n", p, name,
			err);
	} else if (b.probable_key) {
		fprintf(out, "%s: note: kernel %s is cached (key %.16s; the final .config, made when"
			" it builds, has the last word)\n", p, name, b.probable_key);
	} else {
		struct buf text = {0};
		kbuild_inputs_text(&b.in, &text);
		bool from_base = b.base_key && kbuild_inputs_objects_fit(buf_str(&text),
									 b.base_key_text);
		char *how = estimate(b.cache, b.src.identity, !from_base);
		if (from_base)
			fprintf(out, "%s: note: kernel %s will be built from the objects of its base"
				" %s (key %.16s): only what its patches and config change is"
				" compiled; %s\n", p, name, b.base_name, b.base_key, how);
		else
			fprintf(out, "%s: note: kernel %s will be built cold; %s%s%s%s\n", p, name, how,
				b.base_name[0] && !b.base_key ? "; its base " : "",
				b.base_name[0] && !b.base_key ? b.base_name : "",
				b.base_name[0] && !b.base_key ? " is not built (built first, it would"
								 " let this one start from its objects)"
							       : "");
		free(how);
		buf_free(&text);
	}
	kbuild_free(&b);
	free(log);
	free(logs);
}

void kbuild_plan_notes(const struct experiment *e, const char *cache, FILE *out)
{
	struct argv done = {0};
	for (size_t v = 0; v < e->n_variants; v++) {
		const char *k = e->variants[v].build;
		bool seen = false;
		for (size_t i = 0; k && i < done.n; i++)
			seen |= !strcmp(done.v[i], k);
		if (!k || seen)
			continue;
		argv_add(&done, k);
		plan_one(e, k, cache, out);
	}
	argv_free(&done);
}
