/* schedrig report --format html: the figures drawn into a temporary
 * directory (reports/plot.h), read back as SVG and laid out with the
 * tables and provenance by reports/html.c. */
#ifndef SCHEDRIG_HTMLREPORT_H
#define SCHEDRIG_HTMLREPORT_H

#include <stddef.h>
#include <stdint.h>

#include "reportcmd.h"

/* Build the page for the runs ids[0..n_ids) of c->db into out, with the
 * runs' notes (reportcmd_notes) under the comparison tables. Figures
 * that cannot be drawn (gnuplot missing or failing) leave a note on stderr
 * and in the page; the page is still written. Returns 0, or 1 after a
 * message on stderr (database, temporary directory). */
int htmlreport_build(const struct reportcmd *c, const struct sample_table *t,
		     const struct summary *s, const struct report_notes *notes,
		     const int64_t *ids, size_t n_ids, struct buf *out);

#endif
