/* The HTML report (reports/html_page.c): one self-contained page of a
 * summary, the provenance of its runs and its figures (inline SVG). */
#ifndef SCHEDRIG_HTML_PAGE_H
#define SCHEDRIG_HTML_PAGE_H

#include <stddef.h>

#include "report.h"
#include "runinfo.h"

struct html_figure {
	const char *kind;      /* plot kind: mean, box, ... */
	const char *title;
	const char *svg;       /* the SVG file's text as gnuplot wrote it */
	size_t svg_len;
};

struct html_doc {
	const char *title;
	const char *generated_at;            /* UTC ISO 8601, or NULL */
	const struct runinfo *runs;
	size_t n_runs;
	const struct html_figure *figs;
	size_t n_figs;
	const char *const *notes;            /* figure notes (series left out, ...) */
	size_t n_notes;
	const char *figures_error;           /* why there are no figures, or NULL */
	const struct report_notes *run_notes; /* "No samples: ...", "Iterations: ..."
					       * of the runs, or NULL */
};

/* Append the page to out: <!DOCTYPE html>, <title> and <h1> d->title;
 * Provenance (per run: status, dates, host, kernel release and command
 * line, CPU model and count, schedrig version, iterations, config path;
 * a table of its variants with their kernels; a table of the knobs applied
 * when the database has the knob table); Config (each run's config text in
 * <pre>); a section per layout with one (report.h, registry order:
 * Comparison by report_mmtests_html, then Percentiles and Latency summary,
 * their text in <pre>), d->run_notes after the first as
 * <ul class="run-notes">, one <li> per note; Figures (each an inline <svg> in a
 * <figure> with its ids prefixed "fN-" so several SVGs can share the page,
 * and a <figcaption>), then the figure notes. Every name and text is HTML-escaped. No
 * script, no external resource. */
void report_html(struct buf *out, const struct summary *s, const struct report_opts *o,
		 const struct html_doc *d);

#endif
