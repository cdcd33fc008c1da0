#include "csvio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idmap.h"

#define CSV_FIELDS 12
#define CSV_TOOL 10       /* absent from CSVs written before it */
#define CSV_REPETITION 11 /* the last field, absent from CSVs written before it */

static const char *const field_names[CSV_FIELDS] = {
	"run", "variant", "cell", "load", "metric", "unit", "better", "op", "iteration", "value",
	"tool", "repetition",
};

/* A cursor over the whole input text. */
struct csv_reader {
	const char *p, *end;
	long line;          /* current line number, 1-based */
	struct buf field[CSV_FIELDS];
	size_t n_fields;
};

/* Parse one record. Returns 1 with n_fields set, 0 at end of input, -1 on a
 * syntax error (message in err). */
static int csv_next_record(struct csv_reader *r, char *err, size_t errsz)
{
	if (r->p >= r->end)
		return 0;
	r->n_fields = 0;
	for (;;) {
		if (r->n_fields == CSV_FIELDS) {
			snprintf(err, errsz, "more than %d fields", CSV_FIELDS);
			return -1;
		}
		struct buf *f = &r->field[r->n_fields++];
		f->len = 0;
		buf_append(f, "", 0);
		if (r->p < r->end && *r->p == '"') {
			r->p++;
			for (;;) {
				if (r->p >= r->end) {
					snprintf(err, errsz, "unterminated quoted field");
					return -1;
				}
				if (*r->p == '"') {
					if (r->p + 1 < r->end && r->p[1] == '"') {
						buf_append(f, "\"", 1);
						r->p += 2;
						continue;
					}
					r->p++;
					break;
				}
				if (*r->p == '\n')
					r->line++;
				buf_append(f, r->p, 1);
				r->p++;
			}
			if (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r') {
				snprintf(err, errsz, "text after a closing quote");
				return -1;
			}
		} else {
			const char *s = r->p;
			while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r') {
				if (*r->p == '"') {
					snprintf(err, errsz, "quote inside an unquoted field");
					return -1;
				}
				r->p++;
			}
			buf_append(f, s, (size_t)(r->p - s));
		}
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == '\r')
			r->p++;
		if (r->p < r->end && *r->p == '\n') {
			r->p++;
			r->line++;
		} else if (r->p < r->end) {
			snprintf(err, errsz, "carriage return inside a field");
			return -1;
		}
		return 1;
	}
}

/* What read_text keeps between rows: the strings of the row before,
 * interned (a CSV repeats them row after row: a field equal to the last
 * one is neither checked nor interned again), and the identities seen. */
struct csv_rows {
	const char *last[CSV_FIELDS];
	struct idmap groups; /* variant, cell, load, metric → group number + 1 */
	struct idmap seen;   /* group, op, iteration, repetition → first line */
};

/* Field i of the row, interned in t: "" when the row has no such field
 * (an older header); NULL (its check failed) when it is not plain text. */
static const char *field_text(struct csv_rows *c, struct sample_table *t, size_t i,
			      const char *text)
{
	if (c->last[i] && !strcmp(c->last[i], text))
		return c->last[i];
	if (!plain_text(text))
		return NULL;
	return c->last[i] = sample_table_intern(t, text);
}

static int64_t ptr_key(const char *p)
{
	return (int64_t)(intptr_t)p;
}

/* The line of an earlier row with the identity of row (variant, cell,
 * load, metric, op, iteration, repetition: the run is left out, as import
 * stores one file as one run), or 0 after remembering row's line. Row's
 * strings are interned: equal strings are one pointer. */
static long seen_before(struct csv_rows *c, const struct sample_row *row, long line)
{
	bool added;
	int64_t gk[4] = {ptr_key(row->variant), ptr_key(row->cell), ptr_key(row->load),
			 ptr_key(row->metric)};
	int64_t *group = idmap_put(&c->groups, gk, &added);
	if (added)
		group[0] = (int64_t)c->groups.n;
	int64_t sk[4] = {group[0], ptr_key(row->op), row->iteration, row->repetition};
	int64_t *at = idmap_put(&c->seen, sk, &added);
	if (added)
		at[0] = line;
	return added ? 0 : (long)at[0];
}

static long read_text(const char *text, size_t len, const char *name, const char *default_run,
		      struct sample_table *t, char *err, size_t errsz)
{
	/* A UTF-8 byte order mark (spreadsheets write one) is not data. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	struct csv_reader r = { .p = text, .end = text + len, .line = 1 };
	struct csv_rows c = {0};
	char msg[256];
	long rows = 0, start, first;
	int rc;

	start = r.line;
	rc = csv_next_record(&r, msg, sizeof(msg));
	if (rc == 0) {
		snprintf(err, errsz, "%s:1: empty file, expected the header %s", name, CSV_SAMPLE_HEADER);
		goto fail;
	}
	if (rc < 0)
		goto syntax;
	size_t n_cols = r.n_fields;
	bool header_ok = n_cols >= CSV_TOOL && n_cols <= CSV_FIELDS;
	for (size_t i = 0; header_ok && i < n_cols; i++)
		header_ok = !strcmp(buf_str(&r.field[i]), field_names[i]);
	if (!header_ok) {
		snprintf(err, errsz, "%s:1: bad header, expected %s (or, as older exports wrote it,"
			 " %s or %s)", name, CSV_SAMPLE_HEADER, CSV_SAMPLE_HEADER_NO_REPETITION,
			 CSV_SAMPLE_HEADER_NO_TOOL);
		goto fail;
	}
	const char *run_default = sample_table_intern(t, default_run ? default_run : "");
	const char *header = n_cols == CSV_FIELDS ? CSV_SAMPLE_HEADER :
			     n_cols == CSV_REPETITION ? CSV_SAMPLE_HEADER_NO_REPETITION :
						       CSV_SAMPLE_HEADER_NO_TOOL;
	for (;;) {
		start = r.line;
		rc = csv_next_record(&r, msg, sizeof(msg));
		if (rc == 0)
			break;
		if (rc < 0)
			goto syntax;
		if (r.n_fields == 1 && !r.field[0].len)
			continue; /* blank line */
		if (r.n_fields != n_cols) {
			snprintf(err, errsz, "%s:%ld: %zu fields, expected %zu (%s)", name, start,
				 r.n_fields, n_cols, header);
			goto fail;
		}
		const char *f[CSV_FIELDS];
		for (size_t i = 0; i < CSV_FIELDS; i++)
			f[i] = i < n_cols ? buf_str(&r.field[i]) : "";
		static const int required[] = { 1, 3, 4 };
		for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
			if (!*f[required[i]]) {
				snprintf(err, errsz, "%s:%ld: empty %s", name, start, field_names[required[i]]);
				goto fail;
			}
		}
		/* The names interned, the numbers checked as text only. */
		for (size_t i = 0; i < CSV_FIELDS; i++) {
			bool name_field = i != 6 && i != 8 && i != 9 && i != CSV_REPETITION;
			const char *ok = name_field ? field_text(&c, t, i, f[i]) :
				       plain_text(f[i]) ? f[i] : NULL;
			if (!ok) {
				snprintf(err, errsz, "%s:%ld: %s is not UTF-8 text without control"
					 " characters", name, start, field_names[i]);
				goto fail;
			}
			f[i] = ok;
		}
		struct sample_row row = {
			.run = *f[0] ? f[0] : run_default,
			.variant = f[1], .cell = f[2], .load = f[3], .metric = f[4], .unit = f[5],
			.op = f[7], .tool = *f[CSV_TOOL] ? f[CSV_TOOL] : NULL,
		};
		int better = better_parse(f[6]);
		if (better < 0) {
			snprintf(err, errsz, "%s:%ld: better is '%.40s', expected lower or higher",
				 name, start, f[6]);
			goto fail;
		}
		row.better = (enum better)better;
		long long it;
		if (!parse_ll(f[8], &it) || it < 1 || it > 1000000000) {
			snprintf(err, errsz, "%s:%ld: iteration '%.40s' is not an integer >= 1",
				 name, start, f[8]);
			goto fail;
		}
		row.iteration = (int)it;
		if (*f[CSV_REPETITION] &&
		    (!parse_ll(f[CSV_REPETITION], &it) || it < 0 || it > 1000000000)) {
			snprintf(err, errsz, "%s:%ld: repetition '%.40s' is not an integer >= 0",
				 name, start, f[CSV_REPETITION]);
			goto fail;
		}
		row.repetition = *f[CSV_REPETITION] ? (int)it : 0;
		row.value = NAN;
		if (strcasecmp(f[9], "nan") && !parse_double(f[9], &row.value)) {
			snprintf(err, errsz, "%s:%ld: value '%.40s' is not a decimal number in range"
				 " (NaN for none)", name, start, f[9]);
			goto fail;
		}
		if ((first = seen_before(&c, &row, start))) {
			snprintf(err, errsz, "%s:%ld: the same sample as line %ld (variant, cell,"
				 " load, metric, op, iteration and repetition)", name, start, first);
			goto fail;
		}
		sample_table_push(t, &row);
		rows++;
	}
	for (size_t i = 0; i < CSV_FIELDS; i++)
		buf_free(&r.field[i]);
	idmap_free(&c.groups);
	idmap_free(&c.seen);
	return rows;
syntax:
	snprintf(err, errsz, "%s:%ld: %s", name, start, msg);
fail:
	for (size_t i = 0; i < CSV_FIELDS; i++)
		buf_free(&r.field[i]);
	idmap_free(&c.groups);
	idmap_free(&c.seen);
	return -1;
}

long csv_read_samples_str(const char *text, const char *name, const char *default_run,
			  struct sample_table *t, char *err, size_t errsz)
{
	return read_text(text, strlen(text), name, default_run, t, err, errsz);
}

long csv_read_samples(FILE *f, const char *name, const char *default_run,
		      struct sample_table *t, char *err, size_t errsz)
{
	struct buf b = {0};
	char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	if (ferror(f)) {
		snprintf(err, errsz, "%s: read error", name);
		buf_free(&b);
		return -1;
	}
	if (b.data && memchr(b.data, '\0', b.len)) {
		snprintf(err, errsz, "%s: NUL byte in the file", name);
		buf_free(&b);
		return -1;
	}
	/* Every export ends with a newline: a last line without one is a cut
	 * file (head -c, a full disk, an interrupted copy), whose last value
	 * would read as a shorter number (1.9658 as 1.965). */
	if (b.len && b.data[b.len - 1] != '\n') {
		long line = 1;
		for (const char *p = b.data; (p = memchr(p, '\n', b.len - (size_t)(p - b.data))); p++)
			line++;
		snprintf(err, errsz, "%s:%ld: the last line ends without a newline: the file is"
			 " truncated (an export always ends with one)", name, line);
		buf_free(&b);
		return -1;
	}
	long rc = read_text(buf_str(&b), b.len, name, default_run, t, err, errsz);
	buf_free(&b);
	return rc;
}

void csv_put_field(struct buf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		buf_puts(out, s);
		return;
	}
	buf_puts(out, "\"");
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			buf_puts(out, "\"\"");
		else
			buf_append(out, p, 1);
	}
	buf_puts(out, "\"");
}

void csv_format_double(char *dst, size_t size, double v)
{
	if (isnan(v) || isinf(v)) {
		fmt_double(dst, size, v, 0);
		return;
	}
	/* A double whose shortest form has k <= 15 significant digits prints
	 * as exactly that form with %.15g (trailing zeros dropped), since it
	 * lies within half an ulp of a 15-digit grid point; only the others
	 * need 16 or 17 digits. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(dst, size, "%.*g", prec, v);
		if (strtod(dst, NULL) == v)
			return;
	}
}

void csv_write_samples(struct buf *out, const struct sample_table *t)
{
	char num[40];

	buf_puts(out, CSV_SAMPLE_HEADER "\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		csv_put_field(out, r->run);
		buf_puts(out, ",");
		csv_put_field(out, r->variant);
		buf_puts(out, ",");
		csv_put_field(out, r->cell);
		buf_puts(out, ",");
		csv_put_field(out, r->load);
		buf_puts(out, ",");
		csv_put_field(out, r->metric);
		buf_puts(out, ",");
		csv_put_field(out, r->unit);
		buf_printf(out, ",%s,", better_name(r->better));
		csv_put_field(out, r->op);
		csv_format_double(num, sizeof(num), r->value);
		buf_printf(out, ",%d,%s,", r->iteration, num);
		csv_put_field(out, r->tool ? r->tool : "");
		buf_printf(out, ",%d\n", r->repetition);
	}
}
