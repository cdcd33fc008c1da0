/* What HTML output is made of (html.h): escaping, gnuplot's SVG inlined,
 * and the mmtests comparison as real tables (the mmtests layout's html
 * slot). The page around them is html_page.c. */
#include "html.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void html_escape(struct buf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': buf_puts(out, "&amp;"); break;
		case '<': buf_puts(out, "&lt;"); break;
		case '>': buf_puts(out, "&gt;"); break;
		case '"': buf_puts(out, "&quot;"); break;
		case '\'': buf_puts(out, "&#39;"); break;
		default:
			if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
				buf_puts(out, "\xef\xbf\xbd"); /* U+FFFD */
			else
				buf_append(out, p, 1);
		}
	}
}

static bool starts_attr(const char *p, const char *start, const char *pat)
{
	return !strncmp(p, pat, strlen(pat)) && p > start &&
	       (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == ':');
}

void html_inline_svg(struct buf *out, const char *svg, size_t len, const char *prefix)
{
	const char *end = svg + len, *p = NULL;
	for (const char *q = svg; q + 4 <= end; q++)
		if (!strncmp(q, "<svg", 4)) {
			p = q;
			break;
		}
	if (!p)
		return;
	const char *start = p;
	while (p < end) {
		static const char *const pats[] = {"id='", "id=\"", "href='#", "href=\"#"};
		bool done = false;
		for (size_t i = 0; i < 4 && !done; i++) {
			if (starts_attr(p, start, pats[i])) {
				size_t n = strlen(pats[i]);
				buf_append(out, p, n);
				buf_puts(out, prefix);
				p += n;
				done = true;
			}
		}
		if (!done && end - p >= 5 && !strncmp(p, "url(#", 5)) {
			buf_puts(out, "url(#");
			buf_puts(out, prefix);
			p += 5;
			done = true;
		}
		if (!done)
			buf_append(out, p++, 1);
	}
}

static void put_value(struct buf *out, double v, int decimals)
{
	char num[64];
	fmt_double(num, sizeof(num), v, decimals);
	buf_puts(out, num);
}

static void comparison_table(struct buf *out, const struct summary *s,
			     const struct summary_table *t, const struct report_opts *o, size_t k)
{
	struct buf text = {0};
	summary_table_title(&text, s, t);
	buf_printf(out, "<h3 id=\"table-%zu\">", k + 1);
	html_escape(out, buf_str(&text));
	buf_puts(out, "</h3>\n<table class=\"cmp\">\n<thead><tr><th>Stat</th><th>Op</th>");
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	for (size_t c = 0; c < t->n_cols; c++) {
		buf_puts(out, "<th class=\"col\">");
		html_escape(out, rc.name[c]);
		buf_puts(out, "</th>");
	}
	report_cols_free(&rc);
	buf_puts(out, "</tr></thead>\n<tbody>\n");
	for (size_t k2 = 0; k2 < sizeof(report_mmtests_stats) / sizeof(report_mmtests_stats[0]); k2++) {
		const struct summary_stat *st = &report_mmtests_stats[k2];
		char label[32];
		summary_stat_label(st, t->better, label, sizeof(label));
		bool mean = summary_stat_is_mean(st, t->better);
		for (size_t op = 0; op < t->n_ops; op++) {
			buf_printf(out, "<tr%s><td>%s</td><td>", mean ? " class=\"mean\"" : "", label);
			html_escape(out, t->ops[op]);
			buf_puts(out, "</td>");
			for (size_t c = 0; c < t->n_cols; c++) {
				const struct summary_group *g = summary_group_at(t, op, c);
				double v = summary_stat_value(st, t->better, g);
				double pct = c ? report_pct(t, st, op, c) : isnan(v) ? NAN : 0.0;
				bool sig = c && mean && g->test.significant;
				buf_printf(out, "<td class=\"num%s\">", sig ? " sig" : "");
				put_value(out, v, report_decimals(o, t));
				buf_puts(out, " <span class=\"pct\">(");
				put_value(out, pct, 2);
				buf_printf(out, "%%)%s</span></td>", sig ? "*" : "");
			}
			buf_puts(out, "</tr>\n");
		}
	}
	buf_puts(out, "</tbody>\n</table>\n<p class=\"foot\">");
	buf_free(&text);
	report_significance_footer(&text, s, t, o, "*");
	report_n_per_column(&text, t, o);
	html_escape(out, buf_str(&text));
	buf_puts(out, "</p>\n");
	buf_free(&text);
}

void report_mmtests_html(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	for (size_t k = 0; k < s->n_tables; k++)
		comparison_table(out, s, &s->tables[k], o, k);
}
