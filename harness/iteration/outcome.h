/* What one finished load instance yields: its samples, or a failure with a
 * reason in the tool's own words. The one place where the runner's verdict,
 * the driver's parser and the rig's rules about tool output meet: `run`
 * applies it to every instance it stores and `reparse` to every stored raw
 * output, so a parser fix reaches old runs exactly as new ones. */
#ifndef SCHEDRIG_OUTCOME_H
#define SCHEDRIG_OUTCOME_H

#include <stddef.h>

#include "iteration_result.h"
#include "load.h"
#include "plan.h"
#include "store.h"

/* Decide the instance's final state and samples.
 *
 * state is the runner's verdict and reason its reason ("" when none); o
 * the instance's output and exit. An instance the kernel did not give
 * the scheduling attributes it asked for (o->sched_requested against
 * o->sched_applied, sched_applied_check: e.g. slice_us on a kernel
 * before 6.12) is INST_FAILED with "scheduling attributes not applied:
 * slice_us: requested 200, applied 0 (...)", never a sample. The output is parsed (ops->parse) when
 * state is INST_OK, INST_WARMUP, or INST_STOPPED of a driver that
 * summarizes_on_stop; a parse failure makes it INST_FAILED with the
 * parser's reason, a parsed stop INST_OK, and a parsed warm-up run stays
 * INST_WARMUP without samples (reason: "ended in the warm-up, ...": it met
 * no measured load; output that does not parse is still a failure). Then the rig's rules on what the parser found, each a
 * failure when broken:
 *   - no sample is NaN or infinite (tool output numbers are finite
 *     decimals: parse_double);
 *   - no sample of a duration (load_ops.durations: hackbench's time,
 *     perf's Total time and usecs/op, kernbench's elapsed) is 0, -0 or
 *     below: "time 4 is -0 s: a duration of no time, a failed run";
 *   - no sample of a rate (better higher, a unit ending in "/s":
 *     transactions/s, requests/s, ops/s, MB/s ...), headline metric or not,
 *     whatever its op (schbench's rps avg, p50 or min), is 0: a run that
 *     did nothing, not a value (it would make the cell's Hmean NaN). An
 *     interval series (metric_def.series: one value per second of the run,
 *     tcp-rr interval_transactions) is exempt: a second in which a starved
 *     load did nothing is a measurement of that second.
 * A failed or timed-out instance of a driver with failure_lines gets the
 * first line of stderr (then stdout) holding one of them in front of its
 * reason: "LINE (REASON)", e.g. "gcc: fatal error: Killed signal terminated
 * program cc1 (exit status 1)".
 *
 * On return samples holds what is stored (nothing unless the state is
 * INST_OK), reason (reasonsz bytes) the reason, and the final state is
 * returned. */
enum inst_state outcome_decide(const struct load_ops *ops, const struct params *params,
			       enum inst_state state, const struct load_output *o,
			       struct sample_vec *samples, char *reason, size_t reasonsz);

/* The runner's own reason for a failed or timed-out instance, from its
 * exit: "killed after timeout_s=T" (state INST_TIMEOUT), "exit status N"
 * (exited), "killed by signal N (NAME)"; "" otherwise. runner.c gives
 * these, and reparse rebuilds them from what is stored. */
void outcome_runner_reason(enum inst_state state, bool exited, int exit_code, int term_signal,
			   double timeout_s, char *reason, size_t size);

/* Every instance of one finished iteration res decided (outcome_decide)
 * and laid out for the store: st[i], samples[i], window[i] (its window
 * samples, window_metrics.h, whatever its state) and argv_text[i] (the
 * instance's argv as text, malloc'd) for res->r[i]; res->r[i].state and
 * reason become the decided ones. The caller frees samples[i], window[i]
 * and argv_text[i]; st[i] points into res, samples, window and argv_text.
 * Returns the number of failed or timed-out instances. */
size_t outcome_iteration(struct iteration_result *res, struct stored_instance *st,
			 struct sample_vec *samples, struct sample_vec *window, char **argv_text);

#endif
