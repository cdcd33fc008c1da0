/* The row shapes of store_shapes.c: each a query and the struct its rows
 * fill (store_impl.h, struct store_row_shape), read with store_rows,
 * store_rows_stmt or store_row_get. For store files only. Below, each
 * shape's row and the function that reads it (and what ?1 is). */
#ifndef SCHEDRIG_STORE_SHAPES_H
#define SCHEDRIG_STORE_SHAPES_H

#include "store_impl.h"

/* struct stored_bisection: store_bisect_get (id, or 0 for the newest). */
extern const struct store_row_shape bisection_shape;
/* struct stored_bisect_point: store_bisect_points (a bisection id). */
extern const struct store_row_shape bisect_point_shape;
/* struct stored_bisect_run: store_bisect_runs (a bisection id). */
extern const struct store_row_shape bisect_run_shape;
/* struct stored_bisect_check: store_bisect_checks (a bisection id). */
extern const struct store_row_shape bisect_check_shape;
/* struct stored_bisect_step: store_bisect_steps_of_run (a run id). */
extern const struct store_row_shape bisect_step_shape;
/* struct stored_host_row: store_host_rows (a run id). */
extern const struct store_row_shape host_state_shape;
/* int64_t, a variant id: store_host_measured_variants (a run id). */
extern const struct store_row_shape measured_variant_shape;
/* struct stored_kernel_build: store_kernel_builds (a run id). */
extern const struct store_row_shape kernel_build_shape;
/* struct stored_knob: store_knob_list, store_knob_unrestored (SQL without its WHERE). */
extern const struct store_row_shape knob_shape;
/* struct stored_run_row: store_run_list (no parameter). */
extern const struct store_row_shape run_list_shape;
/* struct stored_load_monitor: store_load_monitors (a variant id). */
extern const struct store_row_shape load_monitor_shape;
/* struct stored_series_cell: store_series_cells (a run id). */
extern const struct store_row_shape series_cell_shape;
/* char *, a message: store_silent_loads (a run id). */
extern const struct store_row_shape silent_load_shape;
/* char *, a message: store_flag_notes (a run id). */
extern const struct store_row_shape flag_note_shape;
/* struct stored_reparse_inst: store_reparse_instances (a run id). */
extern const struct store_row_shape reparse_inst_shape;
/* struct stored_revision: store_revision_list (a run id). */
extern const struct store_row_shape revision_shape;
/* struct stored_run: store_run_read (a run id). */
extern const struct store_row_shape run_shape;
/* struct stored_variant: store_variant_list (a run id). */
extern const struct store_row_shape variant_shape;
/* struct stored_event: store_event_list (a run id). */
extern const struct store_row_shape event_shape;
/* struct stored_trace: store_trace_list (a run id). */
extern const struct store_row_shape trace_shape;
/* struct stored_track_run: store_track_runs (?1: a config name, or NULL). */
extern const struct store_row_shape track_run_shape;
/* struct stored_follow: store_follow_get (id, or 0 for the newest). */
extern const struct store_row_shape follow_shape;
/* struct stored_follow_step: store_follow_steps (a follow id). */
extern const struct store_row_shape follow_step_shape;
/* struct stored_follow_change: store_follow_changes (a follow id). */
extern const struct store_row_shape follow_change_shape;

#endif
