/* What the two halves of the run engine share (session.c: the run and its
 * variants; session_iteration.c: each finished iteration and kernel, the
 * callbacks backends call). Private to harness/run/session*.c. */
#ifndef SCHEDRIG_SESSION_IMPL_H
#define SCHEDRIG_SESSION_IMPL_H

#include "session.h"
#include "variant.h"

/* The config asks for adaptive iterations (a minimum below the count, or a
 * time limit). */
bool session_adaptive(const struct run_session *rc);

/* variant_run callbacks, ctx a struct run_session: the kernel is up
 * (record the variant), an iteration finished (parse and store it), the
 * cell has enough iterations (adaptive), and the done filters of run
 * --resume (session_iteration_done) and of interleaved stints (session_stint_skip). */
int session_on_kernel(void *ctx, const struct variant_kernel *k);
int session_on_iteration(void *ctx, size_t c, int it, struct iteration_result *res);
bool session_cell_enough(void *ctx, size_t c, int iteration);
bool session_iteration_done(void *ctx, size_t c, int it);
bool session_stint_skip(void *ctx, size_t c, int it);

/* A qemu or ssh variant runs its whole plan: say so in the run's
 * "iterations" events. */
void session_note_whole_plan(struct run_session *rc, const struct cfg_variant *var);

/* run --resume with adaptive iterations: rebuild the variant's cells from
 * the stored run. 0, or -1 with err. */
int session_resume_adaptive(struct run_session *rc, const char *variant, char *err, size_t errsz);

#endif
