/* The rows the store reads, as data (store_rows.c reads them): for each
 * query whose rows are a struct of store.h or a store_*.h header, its
 * SELECT, its error text and its columns, one a field. For store files only;
 * each store_*.c reads its own (named in the comments). */
#include "store_shapes.h"

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_bisect.h"
#include "store_host.h"
#include "store_kbuild.h"
#include "store_list.h"
#include "store_monitor.h"
#include "store_reparse.h"
#include "store_revision.h"
#include "store_runs.h"
#include "store_trace.h"
#include "store_track.h"

/* The rows store_bisect.c reads. */

/* A bisection row (store_bisect_get). */
const struct store_row_shape bisection_shape = {
	"SELECT id, config_path, config_text, good, bad, kind, load, metric, op, cell, alpha, status,"
	" result, cwd, host, rig_pid, rig_start_ticks, boot_id, rule, min_effect_pct FROM bisection"
	" WHERE id = ?1 OR (?1 = 0 AND id = (SELECT max(id) FROM bisection))",
	"cannot read the bisection", sizeof(struct stored_bisection), NULL, {
	{STORE_INT64, offsetof(struct stored_bisection, id)},
	{STORE_TEXT, offsetof(struct stored_bisection, config_path)},
	{STORE_TEXT, offsetof(struct stored_bisection, config_text)},
	{STORE_TEXT, offsetof(struct stored_bisection, good)},
	{STORE_TEXT, offsetof(struct stored_bisection, bad)},
	{STORE_TEXT, offsetof(struct stored_bisection, kind)},
	{STORE_TEXT, offsetof(struct stored_bisection, load)},
	{STORE_TEXT, offsetof(struct stored_bisection, metric)},
	{STORE_TEXT, offsetof(struct stored_bisection, op)},
	{STORE_TEXT, offsetof(struct stored_bisection, cell)},
	{STORE_REAL, offsetof(struct stored_bisection, alpha)},
	{STORE_TEXT, offsetof(struct stored_bisection, status)},
	{STORE_TEXT, offsetof(struct stored_bisection, result)},
	{STORE_TEXT, offsetof(struct stored_bisection, cwd)},
	{STORE_TEXT, offsetof(struct stored_bisection, host)},
	{STORE_INT64, offsetof(struct stored_bisection, rig_pid)},
	{STORE_INT64, offsetof(struct stored_bisection, rig_start_ticks)},
	{STORE_TEXT, offsetof(struct stored_bisection, boot_id)},
	{STORE_TEXT, offsetof(struct stored_bisection, rule)},
	{STORE_REAL, offsetof(struct stored_bisection, min_effect_pct)},
}};

const struct store_row_shape bisect_point_shape = {
	"SELECT k, verdict, reason, ifnull(decided_seq, 0), ifnull(n, 0),"
	" mean, ci95_half, p_good, p_bad, t_good, t_bad, ifnull(look, 0), alpha"
	" FROM bisect_point"
	" WHERE bisection_id = ?1 ORDER BY k",
	"cannot read the bisect points", sizeof(struct stored_bisect_point), NULL, {
	{STORE_INT, offsetof(struct stored_bisect_point, k)},
	{STORE_TEXT, offsetof(struct stored_bisect_point, verdict)},
	{STORE_TEXT, offsetof(struct stored_bisect_point, reason)},
	{STORE_INT, offsetof(struct stored_bisect_point, decided_seq)},
	{STORE_INT, offsetof(struct stored_bisect_point, n)},
	{STORE_REAL, offsetof(struct stored_bisect_point, mean)},
	{STORE_REAL, offsetof(struct stored_bisect_point, ci95_half)},
	{STORE_REAL, offsetof(struct stored_bisect_point, p_good)},
	{STORE_REAL, offsetof(struct stored_bisect_point, p_bad)},
	{STORE_REAL, offsetof(struct stored_bisect_point, t_good)},
	{STORE_REAL, offsetof(struct stored_bisect_point, t_bad)},
	{STORE_INT, offsetof(struct stored_bisect_point, look)},
	{STORE_REAL, offsetof(struct stored_bisect_point, alpha)},
}};

const struct store_row_shape bisect_run_shape = {
	"SELECT k, attempt, config_path, ifnull(run_id, 0), ifnull(phase,"
	" 'walk') FROM bisect_run"
	" WHERE bisection_id = ?1 ORDER BY k, attempt",
	"cannot read the bisect runs", sizeof(struct stored_bisect_run), NULL, {
	{STORE_INT, offsetof(struct stored_bisect_run, k)},
	{STORE_INT, offsetof(struct stored_bisect_run, attempt)},
	{STORE_TEXT, offsetof(struct stored_bisect_run, config_path)},
	{STORE_INT64, offsetof(struct stored_bisect_run, run_id)},
	{STORE_TEXT, offsetof(struct stored_bisect_run, phase)},
}};

const struct store_row_shape bisect_check_shape = {
	"SELECT seq, what, k_a, k_b, n_a, n_b, mean_a, mean_b, effect_pct, p,"
	" statistic, alpha, rounds, outcome FROM bisect_check WHERE"
	" bisection_id = ?1 ORDER BY seq",
	"cannot read the bisection's checks", sizeof(struct stored_bisect_check), NULL, {
	{STORE_INT, offsetof(struct stored_bisect_check, seq)},
	{STORE_TEXT, offsetof(struct stored_bisect_check, what)},
	{STORE_INT, offsetof(struct stored_bisect_check, k_a)},
	{STORE_INT, offsetof(struct stored_bisect_check, k_b)},
	{STORE_INT, offsetof(struct stored_bisect_check, n_a)},
	{STORE_INT, offsetof(struct stored_bisect_check, n_b)},
	{STORE_REAL, offsetof(struct stored_bisect_check, mean_a)},
	{STORE_REAL, offsetof(struct stored_bisect_check, mean_b)},
	{STORE_REAL, offsetof(struct stored_bisect_check, effect_pct)},
	{STORE_REAL, offsetof(struct stored_bisect_check, p)},
	{STORE_REAL, offsetof(struct stored_bisect_check, statistic)},
	{STORE_REAL, offsetof(struct stored_bisect_check, alpha)},
	{STORE_INT, offsetof(struct stored_bisect_check, rounds)},
	{STORE_TEXT, offsetof(struct stored_bisect_check, outcome)},
}};

const struct store_row_shape bisect_step_shape = {
	"SELECT b.bisection_id, b.k, p.name, p.label, b.attempt, ifnull(b.phase,"
	" 'walk') FROM bisect_run b"
	" JOIN bisect_point p ON p.bisection_id = b.bisection_id AND p.k = b.k"
	" WHERE b.run_id = ?1 ORDER BY b.bisection_id, b.attempt",
	"cannot read the run's bisection steps", sizeof(struct stored_bisect_step), NULL, {
	{STORE_INT64, offsetof(struct stored_bisect_step, bisection_id)},
	{STORE_INT, offsetof(struct stored_bisect_step, k)},
	{STORE_TEXT, offsetof(struct stored_bisect_step, name)},
	{STORE_TEXT, offsetof(struct stored_bisect_step, label)},
	{STORE_INT, offsetof(struct stored_bisect_step, attempt)},
	{STORE_TEXT, offsetof(struct stored_bisect_step, phase)},
}};

/* The rows store_host.c reads. */

const struct store_row_shape host_state_shape = {
	"SELECT ifnull(h.variant_id, 0), v.name, h.field, h.value, h.source,"
	" h.stable FROM host_state h LEFT JOIN variant v ON v.id = h.variant_id"
	" WHERE h.run_id = ?1 ORDER BY h.variant_id IS NOT NULL, v.seq, v.id,"
	" h.field",
	"cannot read the host state", sizeof(struct stored_host_row), NULL, {
	{STORE_INT64, offsetof(struct stored_host_row, variant_id)},
	{STORE_TEXT, offsetof(struct stored_host_row, variant)},
	{STORE_TEXT, offsetof(struct stored_host_row, field)},
	{STORE_TEXT, offsetof(struct stored_host_row, value)},
	{STORE_TEXT, offsetof(struct stored_host_row, source)},
	{STORE_BOOL, offsetof(struct stored_host_row, stable)},
}};

/* A row that is one int64_t: a variant's id. */
const struct store_row_shape measured_variant_shape = {
	"SELECT v.id FROM variant v WHERE v.run_id = ?1 AND EXISTS (SELECT 1"
	" FROM iteration i WHERE i.variant_id = v.id AND i.status = 'complete')"
	" ORDER BY v.seq, v.id",
	"cannot read the run's variants", sizeof(int64_t), NULL, {
	{STORE_INT64, 0},
}};

/* The rows store_kbuild.c reads. */

const struct store_row_shape kernel_build_shape = {
	"SELECT variant, kernel, build_key, status, provenance, message, log_path"
	" FROM kernel_build WHERE run_id = ?1 ORDER BY id",
	"cannot read kernel builds", sizeof(struct stored_kernel_build), NULL, {
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, variant)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, kernel)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, build_key)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, status)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, provenance)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, message)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, log_path)},
}};

/* The rows store_knobs.c reads. */

/* A knob row; the SELECT without its WHERE (knob_rows adds it). */
const struct store_row_shape knob_shape = {
	"SELECT id, run_id, variant, seq, kind, name, path, old_value, requested_value, applied_value,"
	" host, boot_id, changed_at, restored_at FROM knob",
	"cannot read the knob journal", sizeof(struct stored_knob), NULL, {
	{STORE_INT64, offsetof(struct stored_knob, id)},
	{STORE_INT64, offsetof(struct stored_knob, run_id)},
	{STORE_TEXT, offsetof(struct stored_knob, variant)},
	{STORE_INT, offsetof(struct stored_knob, seq)},
	{STORE_TEXT, offsetof(struct stored_knob, kind)},
	{STORE_TEXT, offsetof(struct stored_knob, name)},
	{STORE_TEXT, offsetof(struct stored_knob, path)},
	{STORE_TEXT, offsetof(struct stored_knob, old_value)},
	{STORE_TEXT, offsetof(struct stored_knob, requested_value)},
	{STORE_TEXT, offsetof(struct stored_knob, applied_value)},
	{STORE_TEXT, offsetof(struct stored_knob, host)},
	{STORE_TEXT, offsetof(struct stored_knob, boot_id)},
	{STORE_TEXT, offsetof(struct stored_knob, changed_at)},
	{STORE_TEXT, offsetof(struct stored_knob, restored_at)},
}};

/* The rows store_list.c reads. */

const struct store_row_shape run_list_shape = {
	"SELECT r.id, r.name, r.started_at, ifnull((SELECT group_concat(k, ',')"
	" FROM (SELECT DISTINCT v.kernel_release AS k FROM variant v"
	" WHERE v.run_id = r.id AND v.kernel_release IS NOT NULL ORDER BY v.seq)),"
	" r.kernel_release),"
	" (SELECT count(*) FROM cell c WHERE c.run_id = r.id),"
	" r.iterations, r.status, r.host, r.boot_id, r.rig_pid, r.rig_start_ticks"
	" FROM run r ORDER BY r.id",
	"cannot list the runs", sizeof(struct stored_run_row), NULL, {
	{STORE_INT64, offsetof(struct stored_run_row, id)},
	{STORE_TEXT, offsetof(struct stored_run_row, name)},
	{STORE_TEXT, offsetof(struct stored_run_row, started_at)},
	{STORE_TEXT, offsetof(struct stored_run_row, kernel_release)},
	{STORE_INT64, offsetof(struct stored_run_row, n_cells)},
	{STORE_INT64_OR, offsetof(struct stored_run_row, iterations)},
	{STORE_TEXT, offsetof(struct stored_run_row, status)},
	{STORE_TEXT, offsetof(struct stored_run_row, host)},
	{STORE_TEXT, offsetof(struct stored_run_row, boot_id)},
	{STORE_INT64, offsetof(struct stored_run_row, rig_pid)},
	{STORE_INT64, offsetof(struct stored_run_row, rig_start_ticks)},
}};

/* The rows store_monitor.c reads. */

const struct store_row_shape load_monitor_shape = {
	"WITH inst AS (SELECT li.* FROM load_instance li"
	"  JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1),"
	" migr AS (SELECT s.iteration_id, s.tgid, max(s.value) - min(s.value) AS d"
	"  FROM series s JOIN iteration i ON i.id = s.iteration_id"
	"  WHERE i.variant_id = ?1 AND s.monitor = 'sched' AND s.key = 'nr_migrations'"
	"  GROUP BY s.iteration_id, s.pid),"
	" nivcsw AS (SELECT s.iteration_id, s.tgid, s.value AS v FROM series s"
	"  JOIN iteration i ON i.id = s.iteration_id"
	"  WHERE i.variant_id = ?1 AND s.monitor = 'rusage' AND s.key = 'nivcsw')"
	" SELECT inst.name,"
	"  (SELECT sum(m.d) FROM migr m JOIN inst x ON x.iteration_id = m.iteration_id"
	"    AND x.pid = m.tgid WHERE x.name = inst.name),"
	"  (SELECT sum(n.v) FROM nivcsw n JOIN inst x ON x.iteration_id = n.iteration_id"
	"    AND x.pid = n.tgid WHERE x.name = inst.name),"
	"  (SELECT sum(x.user_s + x.system_s) FROM nivcsw n JOIN inst x"
	"    ON x.iteration_id = n.iteration_id AND x.pid = n.tgid"
	"    WHERE x.name = inst.name),"
	"  sum(inst.elapsed_s), sum(inst.user_s), sum(inst.system_s)"
	" FROM inst GROUP BY inst.name ORDER BY min(inst.seq)",
	"cannot read monitor series", sizeof(struct stored_load_monitor), NULL, {
	{STORE_TEXT, offsetof(struct stored_load_monitor, name)},
	{STORE_REAL, offsetof(struct stored_load_monitor, migrations)},
	{STORE_REAL, offsetof(struct stored_load_monitor, nivcsw)},
	{STORE_REAL, offsetof(struct stored_load_monitor, nivcsw_cpu_s)},
	{STORE_REAL, offsetof(struct stored_load_monitor, elapsed_s)},
	{STORE_REAL, offsetof(struct stored_load_monitor, user_s)},
	{STORE_REAL, offsetof(struct stored_load_monitor, system_s)},
}};

const struct store_row_shape series_cell_shape = {
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
	"cannot read monitor series", sizeof(struct stored_series_cell), NULL, {
	{STORE_INT64, offsetof(struct stored_series_cell, variant_id)},
	{STORE_TEXT, offsetof(struct stored_series_cell, variant)},
	{STORE_INT64, offsetof(struct stored_series_cell, cell_id)},
	{STORE_TEXT, offsetof(struct stored_series_cell, cell)},
	{STORE_TEXT, offsetof(struct stored_series_cell, run)},
	{STORE_INT64, offsetof(struct stored_series_cell, n_cells)},
}};

/* The rows store_notes.c reads. */

/* The rows of store_silent_loads and store_flag_notes: one message each,
 * made by the SELECT's printf (SQLite's, in the C locale like the rest of
 * the rig). */
const struct store_row_shape silent_load_shape = {
	"SELECT printf('load %s (%s): none of its %d run(s) in complete iterations"
	" finished (%d stopped when the measured load ended%s)', li.name, li.role,"
	" count(*), sum(li.state = 'stopped'), CASE WHEN sum(li.state = 'warmup')"
	" THEN printf(', %d ended in the warm-up', sum(li.state = 'warmup'))"
	" ELSE '' END)"
	" FROM load_instance li JOIN iteration i ON i.id = li.iteration_id"
	" JOIN variant v ON v.id = i.variant_id"
	" WHERE v.run_id = ?1 AND i.status = 'complete'"
	" GROUP BY li.name HAVING NOT EXISTS (SELECT 1 FROM sample s"
	" JOIN load_instance l2 ON l2.id = s.load_instance_id"
	" JOIN iteration i2 ON i2.id = l2.iteration_id"
	" JOIN variant v2 ON v2.id = i2.variant_id"
	" WHERE v2.run_id = ?1 AND l2.name = li.name)"
	" ORDER BY min(li.seq)",
	"cannot read load instances", sizeof(char *), NULL, {
	{STORE_TEXT, 0},
}};

const struct store_row_shape flag_note_shape = {
	"SELECT printf('variant %s cell %s load %s: %d of %d sample(s): %s', v.name,"
	" c.name, li.name, count(*),"
	" (SELECT count(*) FROM sample_value x JOIN load_instance y"
	" ON y.id = x.load_instance_id JOIN iteration z ON z.id = y.iteration_id"
	" WHERE z.variant_id = v.id AND z.cell_id = c.id AND y.name = li.name"
	" AND z.status = 'complete' AND x.key_id = k.key_id), f.flag)"
	" FROM sample_flag f JOIN sample_value k"
	" ON k.load_instance_id = f.load_instance_id AND k.seq = f.seq"
	" JOIN load_instance li ON li.id = f.load_instance_id"
	" JOIN iteration i ON i.id = li.iteration_id AND i.status = 'complete'"
	" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
	" WHERE v.run_id = ?1 GROUP BY v.id, c.id, li.name, f.flag"
	" ORDER BY v.seq, c.seq, min(li.seq)",
	"cannot read sample flags", sizeof(char *), NULL, {
	{STORE_TEXT, 0},
}};

/* The rows store_reparse.c reads. */

const struct store_row_shape reparse_inst_shape = {
	"SELECT li.id, i.id, v.name, c.name, li.name, li.tool, li.role, li.state, li.reason,"
	" i.status, i.iteration, li.seq, li.pid IS NOT NULL, li.exit_code IS NOT NULL,"
	" ifnull(li.exit_code, 0), ifnull(li.term_signal, 0),"
	" li.state = 'stopped' OR (li.state <> 'ok' AND li.role = 'background' AND"
	" li.ended_ns >= (SELECT max(m.ended_ns) FROM load_instance m"
	" WHERE m.iteration_id = i.id AND m.role = 'measured')),"
	" li.role = 'background' AND li.ended_ns < (SELECT min(m.started_ns) FROM"
	" load_instance m WHERE m.iteration_id = i.id AND m.role = 'measured'),"
	" li.sched_requested, li.sched_applied"
	" FROM load_instance li JOIN iteration i ON i.id = li.iteration_id"
	" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
	" WHERE v.run_id = ?1 ORDER BY v.seq, c.seq, i.iteration, li.seq, li.repetition",
	"cannot read the run's instances", sizeof(struct stored_reparse_inst), NULL, {
	{STORE_INT64, offsetof(struct stored_reparse_inst, id)},
	{STORE_INT64, offsetof(struct stored_reparse_inst, iteration_id)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, variant)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, cell)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, load)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, tool)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, role)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, state)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, reason)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, it_status)},
	{STORE_INT, offsetof(struct stored_reparse_inst, iteration)},
	{STORE_INT, offsetof(struct stored_reparse_inst, seq)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, started)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, exited)},
	{STORE_INT, offsetof(struct stored_reparse_inst, exit_code)},
	{STORE_INT, offsetof(struct stored_reparse_inst, term_signal)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, stopped)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, warmup)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, sched_requested)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, sched_applied)},
}};

/* The rows store_revision.c reads. */

/* The revision's kind, from column 4 (the SELECT keeps to the three). */
static void revision_kind(sqlite3_stmt *st, void *row)
{
	int kind = revision_kind_parse(store_col_text(st, 4));
	((struct stored_revision *)row)->kind = kind < 0 ? REVISION_LABEL : (enum revision_kind)kind;
}

const struct store_row_shape revision_shape = {
	"SELECT variant, revision, commit_hash, source, kind FROM kernel_revision"
	" WHERE run_id = ?1 AND kind IN ('git', 'package', 'label') ORDER BY variant",
	"cannot read kernel revisions", sizeof(struct stored_revision), revision_kind, {
	{STORE_TEXT, offsetof(struct stored_revision, variant)},
	{STORE_TEXT, offsetof(struct stored_revision, revision)},
	{STORE_TEXT, offsetof(struct stored_revision, commit_hash)},
	{STORE_TEXT, offsetof(struct stored_revision, source)},
}};

/* The rows store_runs.c reads. */

/* A run row (store_run_read; its id is not a column). */
const struct store_row_shape run_shape = {
	"SELECT name, status, started_at, ended_at, host, kernel_release, kernel_cmdline, cpu_model,"
	" schedrig_version, config_path, config_text, boot_id, cpu_count, iterations, rig_pid,"
	" rig_start_ticks, (SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id"
	" WHERE v.run_id = run.id AND i.status = 'complete') FROM run WHERE id = ?1",
	"cannot read the run", sizeof(struct stored_run), NULL, {
	{STORE_TEXT, offsetof(struct stored_run, name)},
	{STORE_TEXT, offsetof(struct stored_run, status)},
	{STORE_TEXT, offsetof(struct stored_run, started_at)},
	{STORE_TEXT, offsetof(struct stored_run, ended_at)},
	{STORE_TEXT, offsetof(struct stored_run, host)},
	{STORE_TEXT, offsetof(struct stored_run, kernel_release)},
	{STORE_TEXT, offsetof(struct stored_run, kernel_cmdline)},
	{STORE_TEXT, offsetof(struct stored_run, cpu_model)},
	{STORE_TEXT, offsetof(struct stored_run, schedrig_version)},
	{STORE_TEXT, offsetof(struct stored_run, config_path)},
	{STORE_TEXT, offsetof(struct stored_run, config_text)},
	{STORE_TEXT, offsetof(struct stored_run, boot_id)},
	{STORE_INT64_OR, offsetof(struct stored_run, cpu_count)},
	{STORE_INT64_OR, offsetof(struct stored_run, iterations)},
	{STORE_INT64, offsetof(struct stored_run, rig_pid)},
	{STORE_INT64, offsetof(struct stored_run, rig_start_ticks)},
	{STORE_INT64, offsetof(struct stored_run, complete_iterations)},
}};

const struct store_row_shape variant_shape = {
	"SELECT id, name, boot, kernel_release, kernel_cmdline, status"
	" FROM variant WHERE run_id = ?1 ORDER BY seq, id",
	"cannot read the run's variants", sizeof(struct stored_variant), NULL, {
	{STORE_INT64, offsetof(struct stored_variant, id)},
	{STORE_TEXT, offsetof(struct stored_variant, name)},
	{STORE_TEXT, offsetof(struct stored_variant, boot)},
	{STORE_TEXT, offsetof(struct stored_variant, kernel_release)},
	{STORE_TEXT, offsetof(struct stored_variant, kernel_cmdline)},
	{STORE_TEXT, offsetof(struct stored_variant, status)},
}};

const struct store_row_shape event_shape = {
	"SELECT at, kind, message FROM event WHERE run_id = ?1 ORDER BY id",
	"cannot read the run's events", sizeof(struct stored_event), NULL, {
	{STORE_TEXT, offsetof(struct stored_event, at)},
	{STORE_TEXT, offsetof(struct stored_event, kind)},
	{STORE_TEXT, offsetof(struct stored_event, message)},
}};

/* The rows store_trace.c reads. */

const struct store_row_shape trace_shape = {
	"SELECT t.id, v.name, c.name, i.iteration, i.status, t.path, t.events,"
	" t.buffer_kb, t.window_start_ns, t.window_end_ns, t.bytes, t.lines,"
	" t.lost_events, t.warning FROM trace t"
	" JOIN iteration i ON i.id = t.iteration_id"
	" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
	" WHERE v.run_id = ?1 ORDER BY v.seq, c.seq, i.iteration",
	"cannot read the traces", sizeof(struct stored_trace), NULL, {
	{STORE_INT64, offsetof(struct stored_trace, id)},
	{STORE_TEXT, offsetof(struct stored_trace, variant)},
	{STORE_TEXT, offsetof(struct stored_trace, cell)},
	{STORE_INT, offsetof(struct stored_trace, iteration)},
	{STORE_TEXT, offsetof(struct stored_trace, status)},
	{STORE_TEXT, offsetof(struct stored_trace, path)},
	{STORE_TEXT, offsetof(struct stored_trace, events)},
	{STORE_INT, offsetof(struct stored_trace, buffer_kb)},
	{STORE_INT64, offsetof(struct stored_trace, window_start_ns)},
	{STORE_INT64, offsetof(struct stored_trace, window_end_ns)},
	{STORE_INT64, offsetof(struct stored_trace, bytes)},
	{STORE_INT64, offsetof(struct stored_trace, lines)},
	{STORE_INT64, offsetof(struct stored_trace, lost)},
	{STORE_TEXT, offsetof(struct stored_trace, warning)},
}};

/* The rows store_track.c reads. */

/* The kind of a track run's kernel revision, from column 9 (NULL: the
 * run recorded none, or one of no kind the rig writes: the JOIN left it). */
static void track_run_kind(sqlite3_stmt *st, void *row)
{
	struct stored_track_run *r = row;
	int kind = sqlite3_column_type(st, 9) == SQLITE_NULL ? -1
			: revision_kind_parse(store_col_text(st, 9));
	r->has_revision = kind >= 0;
	r->kind = kind >= 0 ? (enum revision_kind)kind : 0;
}

const struct store_row_shape track_run_shape = {
	"SELECT r.id, r.name, r.started_at, r.status, v.id, v.name, k.revision, k.commit_hash,"
	" k.source, k.kind FROM run r JOIN variant v ON v.run_id = r.id"
	" LEFT JOIN kernel_revision k ON k.run_id = r.id AND k.variant = v.name"
	" AND k.kind IN ('git', 'package', 'label')"
	" WHERE ?1 IS NULL OR r.name = ?1 ORDER BY r.id, v.seq, v.id",
	"cannot read the runs of a history", sizeof(struct stored_track_run), track_run_kind, {
	{STORE_INT64, offsetof(struct stored_track_run, run_id)},
	{STORE_TEXT, offsetof(struct stored_track_run, config)},
	{STORE_TEXT, offsetof(struct stored_track_run, started_at)},
	{STORE_TEXT, offsetof(struct stored_track_run, status)},
	{STORE_INT64, offsetof(struct stored_track_run, variant_id)},
	{STORE_TEXT, offsetof(struct stored_track_run, variant)},
	{STORE_TEXT, offsetof(struct stored_track_run, revision)},
	{STORE_TEXT, offsetof(struct stored_track_run, commit_hash)},
	{STORE_TEXT, offsetof(struct stored_track_run, source)},
}};

/* A follow row (store_follow_get). */
const struct store_row_shape follow_shape = {
	"SELECT id, config_path, config_text, tree, branch, build, since, load, metric, op, cell, mail,"
	" status, result, cwd, host, boot_id, every, alpha, permutations, seed, min_change_pct,"
	" rig_pid, rig_start_ticks FROM track_follow WHERE id = ?1 OR ?1 = 0 ORDER BY id DESC LIMIT 1",
	"cannot read the follow", sizeof(struct stored_follow), NULL, {
	{STORE_INT64, offsetof(struct stored_follow, id)},
	{STORE_TEXT, offsetof(struct stored_follow, config_path)},
	{STORE_TEXT, offsetof(struct stored_follow, config_text)},
	{STORE_TEXT, offsetof(struct stored_follow, tree)},
	{STORE_TEXT, offsetof(struct stored_follow, branch)},
	{STORE_TEXT, offsetof(struct stored_follow, build)},
	{STORE_TEXT, offsetof(struct stored_follow, since)},
	{STORE_TEXT, offsetof(struct stored_follow, load)},
	{STORE_TEXT, offsetof(struct stored_follow, metric)},
	{STORE_TEXT, offsetof(struct stored_follow, op)},
	{STORE_TEXT, offsetof(struct stored_follow, cell)},
	{STORE_TEXT, offsetof(struct stored_follow, mail)},
	{STORE_TEXT, offsetof(struct stored_follow, status)},
	{STORE_TEXT, offsetof(struct stored_follow, result)},
	{STORE_TEXT, offsetof(struct stored_follow, cwd)},
	{STORE_TEXT, offsetof(struct stored_follow, host)},
	{STORE_TEXT, offsetof(struct stored_follow, boot_id)},
	{STORE_INT, offsetof(struct stored_follow, every)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow, alpha)},
	{STORE_INT, offsetof(struct stored_follow, permutations)},
	{STORE_INT64, offsetof(struct stored_follow, seed)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow, min_change_pct)},
	{STORE_INT64, offsetof(struct stored_follow, rig_pid)},
	{STORE_INT64, offsetof(struct stored_follow, rig_start_ticks)},
}};

const struct store_row_shape follow_step_shape = {
	"SELECT seq, commit_hash, subject, config_path, coalesce(run_id, 0)"
	" FROM track_step WHERE follow_id = ?1 ORDER BY seq",
	"cannot read the follow's steps", sizeof(struct stored_follow_step), NULL, {
	{STORE_INT, offsetof(struct stored_follow_step, seq)},
	{STORE_TEXT, offsetof(struct stored_follow_step, commit_hash)},
	{STORE_TEXT, offsetof(struct stored_follow_step, subject)},
	{STORE_TEXT, offsetof(struct stored_follow_step, config_path)},
	{STORE_INT64, offsetof(struct stored_follow_step, run_id)},
}};

const struct store_row_shape follow_change_shape = {
	"SELECT before_commit, after_commit, commits, mean_before, mean_after,"
	" change_pct, p, coalesce(bisection_id, 0), result, mailed_at"
	" FROM track_change WHERE follow_id = ?1 ORDER BY rowid",
	"cannot read the follow's changes", sizeof(struct stored_follow_change), NULL, {
	{STORE_TEXT, offsetof(struct stored_follow_change, before_commit)},
	{STORE_TEXT, offsetof(struct stored_follow_change, after_commit)},
	{STORE_INT, offsetof(struct stored_follow_change, commits)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, mean_before)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, mean_after)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, change_pct)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, p)},
	{STORE_INT64, offsetof(struct stored_follow_change, bisection_id)},
	{STORE_TEXT, offsetof(struct stored_follow_change, result)},
	{STORE_TEXT, offsetof(struct stored_follow_change, mailed_at)},
}};
