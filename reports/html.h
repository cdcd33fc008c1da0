/* What HTML output is made of (reports/html.c): escaping, a gnuplot SVG
 * inlined, the mmtests layout's tables. The page of `schedrig report
 * --html` is html_page.h. */
#ifndef SCHEDRIG_HTML_H
#define SCHEDRIG_HTML_H

#include <stddef.h>

#include "report.h"

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
