/* The HTML report: one self-contained page (no external resource, no
 * script): title, provenance per run and variant, the configs, every
 * layout with a section (the mmtests comparison as real tables, the
 * percentile and latency tables as <pre> blocks), the figures as inline
 * SVG. Every name is HTML-escaped. */
#include "html_page.h"

#include <stdio.h>
#include <string.h>

#include "html.h"

static void esc_or_dash(struct buf *out, const char *s)
{
	html_escape(out, s && *s ? s : "-");
}

static void kv_row(struct buf *out, const char *k, const char *v)
{
	buf_printf(out, "<tr><th>%s</th><td>", k);
	esc_or_dash(out, v);
	buf_puts(out, "</td></tr>\n");
}

/* The knob changes of run r, or "none". */
static void knobs_table(struct buf *out, const struct runinfo *r)
{
	if (!r->n_knobs) {
		buf_puts(out, "<p>Knobs applied: none.</p>\n");
		return;
	}
	buf_puts(out, "<table class=\"grid knobs\">\n<thead><tr><th>variant</th><th>kind</th>"
		 "<th>knob</th><th>requested</th><th>applied</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < r->n_knobs; k++) {
		const struct runinfo_knob *kn = &r->knobs[k];
		const char *f[] = {kn->variant, kn->kind, kn->name, kn->requested_value,
				   kn->applied_value};
		buf_puts(out, "<tr>");
		for (int j = 0; j < 5; j++) {
			buf_puts(out, "<td>");
			esc_or_dash(out, f[j]);
			buf_puts(out, "</td>");
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table>\n");
}

/* The host state of run r (runinfo.h): every fingerprint's fields, each
 * with the file it was read from, in a section that opens on a click. */
static void host_table(struct buf *out, const struct runinfo *r)
{
	if (!r->n_host)
		return;
	buf_puts(out, "<details class=\"host\"><summary>Host state</summary>\n<table class=\"grid"
		 " host\">\n<thead><tr><th>where</th><th>field</th><th>value</th><th>read from</th>"
		 "</tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < r->n_host; k++) {
		const struct runinfo_host *h = &r->host_state[k];
		buf_puts(out, "<tr><td>");
		if (h->variant) {
			buf_puts(out, "variant ");
			html_escape(out, h->variant);
		} else {
			buf_puts(out, "the rig's machine");
		}
		const char *f[] = {h->field, h->value, h->source};
		buf_puts(out, "</td>");
		for (int j = 0; j < 3; j++) {
			buf_puts(out, "<td>");
			esc_or_dash(out, f[j]);
			buf_puts(out, "</td>");
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table>\n</details>\n");
}

static void provenance(struct buf *out, const struct html_doc *d)
{
	buf_puts(out, "<h2 id=\"provenance\">Provenance</h2>\n");
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct runinfo *r = &d->runs[i];
		char num[64];
		buf_printf(out, "<h3>Run %lld: ", (long long)r->id);
		esc_or_dash(out, r->name);
		buf_puts(out, "</h3>\n<table class=\"kv\">\n");
		kv_row(out, "status", r->status);
		if (runinfo_partial(r)) {
			snprintf(num, sizeof(num), "%d complete iteration(s) so far",
				 r->complete_iterations);
			kv_row(out, "PARTIAL", num);
		}
		kv_row(out, "started", r->started_at);
		kv_row(out, "ended", r->ended_at);
		kv_row(out, "host", r->host);
		kv_row(out, "kernel release", r->kernel_release);
		kv_row(out, "kernel command line", r->kernel_cmdline);
		kv_row(out, "CPU model", r->cpu_model);
		snprintf(num, sizeof(num), "%d", r->cpu_count);
		kv_row(out, "CPUs", r->cpu_count ? num : NULL);
		snprintf(num, sizeof(num), "%d", r->iterations);
		kv_row(out, "iterations", r->iterations ? num : NULL);
		kv_row(out, "schedrig", r->schedrig_version);
		kv_row(out, "config", r->config_path);
		buf_puts(out, "</table>\n<table class=\"grid variants\">\n<thead><tr><th>variant</th>"
			 "<th>boot</th><th>kernel release</th><th>kernel command line</th>"
			 "<th>status</th></tr></thead>\n<tbody>\n");
		for (size_t v = 0; v < r->n_variants; v++) {
			const struct runinfo_variant *va = &r->variants[v];
			const char *f[] = {va->name, va->boot, va->kernel_release, va->kernel_cmdline,
					   va->status};
			buf_puts(out, "<tr>");
			for (int k = 0; k < 5; k++) {
				buf_puts(out, "<td>");
				esc_or_dash(out, f[k]);
				buf_puts(out, "</td>");
			}
			buf_puts(out, "</tr>\n");
		}
		buf_puts(out, "</tbody>\n</table>\n");
		knobs_table(out, r);
		host_table(out, r);
	}
	buf_puts(out, "<h2 id=\"config\">Config</h2>\n");
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct runinfo *r = &d->runs[i];
		buf_printf(out, "<h3>Run %lld: ", (long long)r->id);
		esc_or_dash(out, r->config_path ? r->config_path : r->name);
		buf_puts(out, "</h3>\n");
		if (r->config_text && *r->config_text) {
			buf_puts(out, "<pre class=\"config\">");
			html_escape(out, r->config_text);
			buf_puts(out, "</pre>\n");
		} else {
			buf_puts(out, "<p>No config stored (imported samples).</p>\n");
		}
	}
}

/* <ul class="CLS"> with one <li> per note; nothing when there are none. */
static void note_list(struct buf *out, const char *cls, const char *const *notes, size_t n)
{
	if (!n)
		return;
	buf_printf(out, "<ul class=\"%s\">\n", cls);
	for (size_t i = 0; i < n; i++) {
		buf_puts(out, "<li>");
		html_escape(out, notes[i]);
		buf_puts(out, "</li>\n");
	}
	buf_puts(out, "</ul>\n");
}

/* Links to the sections: Provenance, Config, every layout with a section
 * (registry order), Figures. */
static void nav(struct buf *out)
{
	size_t n;
	const struct report_layout *const *all = report_layout_all(&n);
	buf_puts(out, "<nav><a href=\"#provenance\">Provenance</a> · <a href=\"#config\">Config</a>");
	for (size_t i = 0; i < n; i++)
		if (all[i]->section)
			buf_printf(out, " · <a href=\"#%s\">%s</a>", all[i]->anchor, all[i]->section);
	buf_puts(out, " · <a href=\"#figures\">Figures</a></nav>\n");
}

/* Every layout with a section: its html, or its text in <pre>; the runs'
 * notes after the first. */
static void sections(struct buf *out, const struct summary *s, const struct report_opts *o,
		     const struct html_doc *d)
{
	size_t n;
	const struct report_layout *const *all = report_layout_all(&n);
	struct report_input in = {.s = s, .o = o, .notes = d->run_notes};
	bool first = true;
	char err[512];
	for (size_t i = 0; i < n; i++) {
		const struct report_layout *l = all[i];
		if (!l->section)
			continue;
		buf_printf(out, "<h2 id=\"%s\">%s</h2>\n", l->anchor, l->section);
		if (l->html) {
			l->html(out, &in, err, sizeof(err));
		} else {
			struct buf text = {0};
			l->text(&text, &in, err, sizeof(err));
			buf_puts(out, "<pre class=\"table\">");
			html_escape(out, buf_str(&text));
			buf_puts(out, "</pre>\n");
			buf_free(&text);
		}
		if (first && d->run_notes)
			note_list(out, "run-notes", (const char *const *)d->run_notes->v,
				  d->run_notes->n);
		first = false;
	}
}

void report_html(struct buf *out, const struct summary *s, const struct report_opts *o,
		 const struct html_doc *d)
{
	buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"generator\" content=\"schedrig\">\n<title>");
	html_escape(out, d->title);
	buf_puts(out, "</title>\n<style>\n"
		 "body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1150px;"
		 "color:#222;line-height:1.35}\n"
		 "h1{font-size:1.6em;border-bottom:2px solid #1f77b4}h2{margin-top:1.6em;"
		 "border-bottom:1px solid #ccc}h3{font-size:1.05em;margin-bottom:.3em}\n"
		 "table{border-collapse:collapse;margin:.4em 0;font-size:.9em}\n"
		 "th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\n"
		 "thead th{background:#eef3f8}table.kv th{text-align:left;background:#f6f6f6}\n"
		 "td.num{text-align:right;font-family:'DejaVu Sans Mono',monospace;white-space:nowrap}\n"
		 "td.sig{font-weight:bold;background:#fff4d6}.pct{color:#666}\n"
		 "tr.mean td{background:#fafcff}td.sig{background:#fff4d6}\n"
		 "pre{background:#f7f7f7;border:1px solid #ddd;padding:.5em;overflow-x:auto;"
		 "font-size:.85em}\n"
		 "figure{margin:1em 0;border:1px solid #ddd;padding:.5em}figure svg{max-width:100%;"
		 "height:auto;display:block}\nfigcaption{font-size:.9em;color:#444}\n"
		 ".foot{font-size:.85em;color:#555;white-space:pre-line}\n"
		 "</style>\n</head>\n<body>\n<h1>");
	html_escape(out, d->title);
	buf_puts(out, "</h1>\n");
	if (d->generated_at) {
		buf_puts(out, "<p class=\"foot\">Generated by schedrig at ");
		html_escape(out, d->generated_at);
		buf_puts(out, ".</p>\n");
	}
	nav(out);
	provenance(out, d);
	sections(out, s, o, d);

	buf_puts(out, "<h2 id=\"figures\">Figures</h2>\n");
	if (d->figures_error) {
		buf_puts(out, "<p class=\"error\">Figures unavailable: ");
		html_escape(out, d->figures_error);
		buf_puts(out, "</p>\n");
	}
	for (size_t i = 0; i < d->n_figs; i++) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "f%zu-", i + 1);
		buf_printf(out, "<figure id=\"figure-%zu\" class=\"figure\" data-kind=\"", i + 1);
		html_escape(out, d->figs[i].kind);
		buf_puts(out, "\">\n");
		html_inline_svg(out, d->figs[i].svg, d->figs[i].svg_len, prefix);
		buf_printf(out, "\n<figcaption>Figure %zu (%s): ", i + 1, d->figs[i].kind);
		html_escape(out, d->figs[i].title);
		buf_puts(out, "</figcaption>\n</figure>\n");
	}
	note_list(out, "notes", d->notes, d->n_notes);
	buf_puts(out, "</body>\n</html>\n");
}
