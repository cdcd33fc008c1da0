/* "Host state differs: ..." notes under the tables (report.h
 * report_notes_host): the fingerprints of the runs and variants a table's
 * columns come from, field by field, less what their configs declare. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "hostdecl.h"
#include "hostfp.h"

/* The value of field in in, NULL when it lacks the field. */
static const char *value_of(const struct host_note_input *in, const char *field)
{
	for (size_t i = 0; i < in->n; i++)
		if (!strcmp(in->fields[i], field))
			return in->values[i];
	return NULL;
}

/* Do the inputs' configs declare field alike (all the same declarations,
 * or none)? */
static bool declared_alike(const struct host_note_input *in, size_t n, const char *field)
{
	struct buf first = {0}, other = {0};
	bool alike = true;
	if (in[0].decl)
		hostdecl_values(in[0].decl, field, &first);
	for (size_t i = 1; i < n && alike; i++) {
		other.len = 0;
		if (in[i].decl)
			hostdecl_values(in[i].decl, field, &other);
		alike = !strcmp(buf_str(&first), buf_str(&other));
	}
	buf_free(&first);
	buf_free(&other);
	return alike;
}

/* The note for field, or NULL when the inputs read it alike. */
static char *field_note(const struct host_note_input *in, size_t n, const char *field)
{
	const char **v = xcalloc(n, sizeof(*v));
	bool differ = false, missing = false;
	for (size_t i = 0; i < n; i++) {
		v[i] = value_of(&in[i], field);
		missing |= !v[i];
		if (i && (!v[i] != !v[0] || (v[i] && v[0] && !hostfp_same(field, v[i], v[0]))))
			differ = true;
	}
	/* A field only one kernel has: declared by booting another kernel.
	 * One both have, undeclared, is the kernels' default (hostdecl.h). */
	bool kernels_differ = !declared_alike(in, n, "kernel.release");
	if (!differ || !declared_alike(in, n, field) || (missing && kernels_differ)) {
		free(v);
		return NULL;
	}
	struct buf b = {0};
	bool *done = xcalloc(n, sizeof(*done));
	buf_printf(&b, "Host state differs%s: %s", kernels_differ ? " (kernel default)" : "", field);
	for (size_t i = 0, groups = 0; i < n; i++) {
		if (done[i])
			continue;
		buf_printf(&b, "%s %s (", groups++ ? " vs" : "", v[i] ? v[i] : "absent");
		for (size_t k = i, first = 1; k < n; k++) {
			bool same = !v[k] == !v[i] && (!v[k] || hostfp_same(field, v[k], v[i]));
			if (done[k] || !same)
				continue;
			done[k] = true;
			buf_printf(&b, "%s%s", first ? "" : ", ", in[k].label);
			first = 0;
		}
		buf_puts(&b, ")");
	}
	char *note = xstrdup(buf_str(&b));
	buf_free(&b);
	free(done);
	free(v);
	return note;
}

void report_notes_host(struct report_notes *notes, const struct host_note_input *in, size_t n)
{
	if (n < 2)
		return;
	/* Every field of any input, in order of first appearance. */
	struct argv fields = {0};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < in[i].n; k++) {
			bool seen = false;
			for (size_t j = 0; j < fields.n && !seen; j++)
				seen = !strcmp(fields.v[j], in[i].fields[k]);
			if (!seen)
				argv_add(&fields, in[i].fields[k]);
		}
	for (size_t j = 0; j < fields.n; j++) {
		char *note = field_note(in, n, fields.v[j]);
		if (note) {
			report_notes_add(notes, note);
			notes->n_host++;
		}
	}
	argv_free(&fields);
}
