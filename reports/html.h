/* The HTML report layout (reports/html.c): one self-contained page of a
 * summary, the provenance of its runs and its figures (inline SVG). */
#ifndef SCHEDRIG_HTML_H
#define SCHEDRIG_HTML_H

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

/* The mmtests layout's html (its slot in report.h): per summary table an
 * <h3 id="table-N"> title and a <table class="cmp">: the mmtests rows Min,
 * Amean|Hmean, Stddev, CoeffVar, Max, BAmean-50/95/99 per op, each cell
 * "value (pct%)", significant means class "sig" and "*", then the
 * significance and n footer in <p class="foot">. */
void report_mmtests_html(struct buf *out, const struct summary *s, const struct report_opts *o);

/* Append s with & < > " ' escaped as entities and control characters
 * (other than TAB and LF) as U+FFFD. */
void html_escape(struct buf *out, const char *s);

/* Append the <svg> element of a gnuplot SVG file (everything from "<svg";
 * the XML declaration dropped) with every id='X', href='#X' and url(#X)
 * rewritten to prefix+X. Nothing when the text holds no "<svg". */
void html_inline_svg(struct buf *out, const char *svg, size_t len, const char *prefix);

#endif
