#include "htmlreport.h"


#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdsetup.h"
#include "html_page.h"
#include "plot.h"
#include "runinfo.h"
#include "store.h"

static int read_whole(const char *path, struct buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(out, chunk, n);
	int rc = ferror(f) ? -1 : 0;
	fclose(f);
	return rc;
}

/* rm -r of the flat temporary directory. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (d) {
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *p = xasprintf("%s/%s", dir, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

int htmlreport_build(const struct reportcmd *c, const struct sample_table *t,
		     const struct summary *s, const struct report_notes *notes,
		     const int64_t *ids, size_t n_ids, struct buf *out)
{
	struct runinfo *ri = NULL;
	char err[8192] = "", now[32];
	struct plot_result pr = {0};
	struct html_figure *figs = NULL;
	struct buf *svgs = NULL;
	size_t n_figs = 0;
	const char *fig_error = NULL;

	if (runinfo_load(c->ctx->st, c->db, ids, n_ids, &ri, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		return 1;
	}
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/schedrig-html.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "schedrig %s: cannot create a temporary directory %s: %s\n", c->cmd,
			dir, strerror(errno));
		free(dir);
		runinfo_free(ri, n_ids);
		return 1;
	}
	struct plot_opts po;
	plot_opts_init(&po);
	po.dir = dir;
	po.formats = PLOT_SVG;
	po.width_px = 900;
	po.height_px = 500;
	if (plot_all(t, s, &po, &pr, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: figures left out: %s\n", c->cmd, err);
		fig_error = err;
	} else {
		figs = xcalloc(pr.n_fig ? pr.n_fig : 1, sizeof(*figs));
		svgs = xcalloc(pr.n_fig ? pr.n_fig : 1, sizeof(*svgs));
		for (size_t i = 0; i < pr.n_fig; i++) {
			char *path = xasprintf("%s/%s.svg", dir, pr.fig[i].base);
			if (read_whole(path, &svgs[n_figs])) {
				fprintf(stderr, "schedrig %s: cannot read %s\n", c->cmd, path);
				buf_free(&svgs[n_figs]);
			} else {
				figs[n_figs] = (struct html_figure){
					.kind = pr.fig[i].kind, .title = pr.fig[i].title,
					.svg = buf_str(&svgs[n_figs]), .svg_len = svgs[n_figs].len};
				n_figs++;
			}
			free(path);
		}
	}
	remove_dir(dir);
	free(dir);

	struct buf title = {0};
	buf_puts(&title, "schedrig report:");
	for (size_t i = 0; i < n_ids; i++)
		buf_printf(&title, "%s %s (run %lld)", i ? "," : "", ri[i].name ? ri[i].name : "-",
			   (long long)ri[i].id);
	utc_now(now, sizeof(now));
	struct html_doc d = {
		.title = buf_str(&title), .generated_at = now, .runs = ri, .n_runs = n_ids,
		.figs = figs, .n_figs = n_figs, .notes = (const char *const *)pr.notes,
		.n_notes = pr.n_notes, .figures_error = fig_error, .run_notes = notes,
	};
	report_html(out, s, &c->ro, &d);
	buf_free(&title);
	for (size_t i = 0; i < n_figs; i++)
		buf_free(&svgs[i]);
	free(svgs);
	free(figs);
	plot_result_free(&pr);
	runinfo_free(ri, n_ids);
	return 0;
}
