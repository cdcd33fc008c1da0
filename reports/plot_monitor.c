/* Figures "monitor": the monitor series of stored runs (table series,
 * harness/monitor.h) over time, per run, variant and cell (see plot.h
 * plot_monitors for the list). x is seconds since the iteration started
 * (t_ms / 1000); a NULL value (NaN) is written '?' and leaves a gap. */
#include "plot.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a figure draws. Kinds of lines:
 *   PER_CPU   one line per CPU, of the first iteration that has the series;
 *   PER_ITER  the system-wide series (cpu and pid NULL), one line per
 *             iteration;
 *   PER_LOAD  per-task series summed over a load's threads at each sample,
 *             one line per load instance (name and iteration). */
enum mon_lines { PER_CPU, PER_ITER, PER_LOAD };

static const struct mon_fig {
	const char *name;      /* file name part */
	const char *monitor, *key;
	enum mon_lines lines;
	const char *what;      /* title and y label */
} mon_figs[] = {
	{"cpu_user_pct", "stat", "user_pct", PER_CPU, "CPU user % per CPU"},
	{"cpu_system_pct", "stat", "system_pct", PER_CPU, "CPU system % per CPU"},
	{"cpu_idle_pct", "stat", "idle_pct", PER_CPU, "CPU idle % per CPU"},
	{"ctxt_per_s", "stat", "ctxt_per_s", PER_ITER, "context switches/s (all CPUs)"},
	{"psi_cpu_some_pct", "psi", "cpu_some_pct", PER_ITER,
	 "PSI cpu some % (stall time as % of the interval)"},
	{"nr_involuntary_switches", "sched", "nr_involuntary_switches", PER_LOAD,
	 "involuntary switches per load (cumulative, sum over its threads)"},
};

static void buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

static int db_err(sqlite3 *db, const char *what, char *err, size_t errsz)
{
	snprintf(err, errsz, "cannot read monitor series (%s): %s", what, sqlite3_errmsg(db));
	return -1;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

/* One figure of one (run, variant, cell). */
static int draw(struct plot_ctx *c, sqlite3 *db, const struct mon_fig *mf, int64_t variant_id,
		int64_t cell_id, const char *name_part, const char *title, char *err, size_t errsz)
{
	static const char *const sql[] = {
		[PER_CPU] = "SELECT i.iteration, s.cpu, s.t_ms, s.value FROM series s"
			    " JOIN iteration i ON i.id = s.iteration_id"
			    " WHERE i.variant_id = ?1 AND i.cell_id = ?2 AND s.monitor = ?3"
			    " AND s.key = ?4 AND s.cpu IS NOT NULL AND s.pid IS NULL"
			    " ORDER BY i.iteration, s.cpu, s.t_ms",
		[PER_ITER] = "SELECT i.iteration, '', s.t_ms, s.value FROM series s"
			     " JOIN iteration i ON i.id = s.iteration_id"
			     " WHERE i.variant_id = ?1 AND i.cell_id = ?2 AND s.monitor = ?3"
			     " AND s.key = ?4 AND s.cpu IS NULL AND s.pid IS NULL"
			     " ORDER BY i.iteration, s.t_ms",
		[PER_LOAD] = "SELECT i.iteration, li.name || CASE WHEN li.repetition > 0"
			     " THEN ' repetition ' || li.repetition ELSE '' END, s.t_ms,"
			     " sum(s.value) FROM series s"
			     " JOIN iteration i ON i.id = s.iteration_id"
			     " JOIN load_instance li ON li.iteration_id = i.id AND li.pid = s.tgid"
			     " WHERE i.variant_id = ?1 AND i.cell_id = ?2 AND s.monitor = ?3"
			     " AND s.key = ?4 AND s.pid IS NOT NULL"
			     " GROUP BY i.iteration, li.seq, li.repetition, s.t_ms"
			     " ORDER BY li.seq, li.repetition, i.iteration, s.t_ms",
	};
	sqlite3_stmt *st;
	struct plot_fig f;
	struct buf key = {0}, line = {0};
	long long first_it = -1;
	size_t lines = 0;
	int step;

	if (sqlite3_prepare_v2(db, sql[mf->lines], -1, &st, NULL) != SQLITE_OK)
		return db_err(db, mf->name, err, errsz);
	sqlite3_bind_int64(st, 1, variant_id);
	sqlite3_bind_int64(st, 2, cell_id);
	sqlite3_bind_text(st, 3, mf->monitor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, mf->key, -1, SQLITE_STATIC);

	char *extra = xasprintf("%s-%s", name_part, mf->name);
	plot_fig_begin(c, &f, NULL, extra, "monitor");
	free(extra);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		long long it = sqlite3_column_int64(st, 0);
		if (mf->lines == PER_CPU) {
			if (first_it < 0)
				first_it = it;
			if (it != first_it)
				continue;
		}
		buf_clear(&line);
		if (mf->lines == PER_CPU)
			buf_printf(&line, "CPU %lld", sqlite3_column_int64(st, 1));
		else if (mf->lines == PER_ITER)
			buf_printf(&line, "iteration %lld", it);
		else
			buf_printf(&line, "%s iteration %lld", col_text(st, 1), it);
		if (!key.len || strcmp(buf_str(&key), buf_str(&line))) {
			if (key.len) {
				plot_series_end(&f);
				lines++;
			}
			buf_printf(&f.plot, "%sDATA index %zu using 1:2 with linespoints lw 2 pt 7 "
				   "ps 0.5 lc rgb '%s' title ", lines ? ", \\\n     " : "", lines,
				   plot_color(lines));
			plot_quote(&f.plot, buf_str(&line));
			buf_puts(&f.plot, " noenhanced");
			buf_clear(&key);
			buf_puts(&key, buf_str(&line));
		}
		plot_num(&f.data, sqlite3_column_double(st, 2) / 1000.0);
		buf_puts(&f.data, " ");
		if (sqlite3_column_type(st, 3) == SQLITE_NULL ||
		    !isfinite(sqlite3_column_double(st, 3)))
			buf_puts(&f.data, "?");
		else
			plot_num(&f.data, sqlite3_column_double(st, 3));
		buf_puts(&f.data, "\n");
	}
	if (key.len) {
		plot_series_end(&f);
		lines++;
	}
	buf_free(&key);
	buf_free(&line);
	int rc = step == SQLITE_DONE ? 0 : db_err(db, mf->name, err, errsz);
	sqlite3_finalize(st);
	if (rc || !lines) {
		/* A database error, or the series was not sampled (monitor off,
		 * file missing): no figure and no note (the run's monitor notes
		 * said why). plot_fig_finish frees f. */
		struct plot_result *r = c->r;
		size_t n_notes = r->n_notes;
		f.n_series = 0;
		if (plot_fig_finish(c, &f, "no series", err, errsz))
			rc = -1;
		while (r->n_notes > n_notes)
			free(r->notes[--r->n_notes]);
		return rc;
	}
	buf_printf(&f.title, "%s: %s", title, mf->what);
	if (mf->lines == PER_CPU)
		buf_printf(&f.title, ", iteration %lld", first_it);
	buf_puts(&f.setup, "set xlabel 's since iteration start' noenhanced\nset ylabel ");
	plot_quote(&f.setup, mf->what);
	buf_puts(&f.setup, " noenhanced\n");
	if (strstr(mf->key, "_pct"))
		buf_puts(&f.setup, "set yrange [0:*]\n");
	return plot_fig_finish(c, &f, "no series", err, errsz);
}

int plot_monitors(struct sqlite3 *db, const int64_t *run_ids, size_t n_runs,
		  const struct plot_opts *o, struct plot_result *r, char *err, size_t errsz)
{
	struct plot_ctx c = {.o = o, .r = r};
	int rc = 0;

	for (size_t ri = 0; ri < n_runs && !rc; ri++) {
		sqlite3_stmt *st;
		/* The (variant, cell) pairs with series, and how many cells the
		 * variant has series for (the cell is named only when > 1). */
		if (sqlite3_prepare_v2(db,
				       "SELECT v.id, v.name, ce.id, ce.name, r.name,"
				       " (SELECT count(DISTINCT i2.cell_id) FROM iteration i2"
				       "  WHERE i2.variant_id = v.id AND EXISTS (SELECT 1 FROM series s2"
				       "  WHERE s2.iteration_id = i2.id))"
				       " FROM variant v JOIN run r ON r.id = v.run_id"
				       " JOIN cell ce ON ce.run_id = v.run_id"
				       " WHERE v.run_id = ?1 AND EXISTS (SELECT 1 FROM iteration i"
				       "  JOIN series s ON s.iteration_id = i.id"
				       "  WHERE i.variant_id = v.id AND i.cell_id = ce.id)"
				       " ORDER BY v.seq, ce.seq",
				       -1, &st, NULL) != SQLITE_OK)
			return db_err(db, "variants", err, errsz);
		sqlite3_bind_int64(st, 1, run_ids[ri]);
		int step;
		while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t variant_id = sqlite3_column_int64(st, 0), cell_id = sqlite3_column_int64(st, 2);
			const char *variant = col_text(st, 1), *cell = col_text(st, 3);
			const char *run = col_text(st, 4);
			bool name_cell = sqlite3_column_int64(st, 5) > 1;
			struct buf part = {0}, title = {0};
			if (n_runs > 1)
				buf_printf(&part, "%lld-", (long long)run_ids[ri]);
			buf_puts(&part, variant);
			buf_printf(&title, "run %lld %s, variant %s", (long long)run_ids[ri], run,
				   variant);
			if (name_cell) {
				buf_printf(&part, "-%s", *cell ? cell : "none");
				buf_printf(&title, ", cell %s", *cell ? cell : "(none)");
			}
			for (size_t k = 0; !rc && k < sizeof(mon_figs) / sizeof(mon_figs[0]); k++)
				rc = draw(&c, db, &mon_figs[k], variant_id, cell_id, buf_str(&part),
					  buf_str(&title), err, errsz);
			buf_free(&part);
			buf_free(&title);
		}
		if (!rc && step != SQLITE_DONE)
			rc = db_err(db, "variants", err, errsz);
		sqlite3_finalize(st);
	}
	for (size_t i = 0; i < c.n_used; i++)
		free(c.used[i]);
	free(c.used);
	return rc;
}
