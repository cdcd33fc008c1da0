/* One instance's samples or failure: see outcome.h. */
#include "outcome.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scan.h"
#include "schedattr.h"
#include "window_metrics.h"

/* Is sample x a rate over the run (outcome.h): better higher, a unit
 * ending in "/s", and not of a series metric of ops? */
static bool run_rate(const struct load_ops *ops, const struct sample *x)
{
	size_t u = strlen(x->unit);
	if (x->better != BETTER_HIGHER || u < 3 || strcmp(x->unit + u - 2, "/s"))
		return false;
	for (size_t i = 0; i < ops->n_metrics; i++)
		if (!strcmp(ops->metrics[i].name, x->metric))
			return !ops->metrics[i].series;
	return true;
}

/* Is sample x of one of the driver's durations (load_ops.durations)? */
static bool duration(const struct load_ops *ops, const struct sample *x)
{
	for (size_t i = 0; ops->durations && ops->durations[i]; i++)
		if (!strcmp(ops->durations[i], x->metric))
			return true;
	return false;
}

/* The rig's rules on parsed samples (outcome.h); 0, or -1 with why. */
static int check_samples(const struct load_ops *ops, const struct sample_vec *s, char *why,
			 size_t whysz)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct sample *x = &s->v[i];
		if (!isfinite(x->value)) {
			snprintf(why, whysz, "%s %s: the parser found no finite number", x->metric,
				 x->op);
			return -1;
		}
		if (!(x->value > 0) && duration(ops, x)) {
			snprintf(why, whysz, "%s%s%s is %g %s: a duration of no time, a failed run",
				 x->metric, x->op[0] ? " " : "", x->op, x->value, x->unit);
			return -1;
		}
		if (x->value == 0 && run_rate(ops, x)) {
			snprintf(why, whysz, "%s%s%s is 0 %s: the tool measured nothing, a failed run",
				 x->metric, x->op[0] ? " " : "", x->op, x->unit);
			return -1;
		}
	}
	return 0;
}

void outcome_runner_reason(enum inst_state state, bool exited, int exit_code, int term_signal,
			   double timeout_s, char *reason, size_t size)
{
	if (state == INST_TIMEOUT)
		snprintf(reason, size, "killed after timeout_s=%g", timeout_s);
	else if (state == INST_FAILED && exited)
		snprintf(reason, size, "exit status %d", exit_code);
	else if (state == INST_FAILED && term_signal)
		snprintf(reason, size, "killed by signal %d (%s)", term_signal, strsignal(term_signal));
	else
		snprintf(reason, size, "%s", "");
}

enum inst_state outcome_decide(const struct load_ops *ops, const struct params *params,
			       enum inst_state state, const struct load_output *o,
			       struct sample_vec *samples, char *reason, size_t reasonsz)
{
	char why[256] = "";

	bool parses = state == INST_OK || state == INST_WARMUP ||
		      (state == INST_STOPPED && ops->summarizes_on_stop);
	if (parses && sched_applied_check(o->sched_requested, o->sched_applied, why, sizeof(why))) {
		state = INST_FAILED;
		snprintf(reason, reasonsz, "scheduling attributes not applied: %s", why);
	} else if (parses) {
		if (ops->parse(o, params, samples, why, sizeof(why)) ||
		    check_samples(ops, samples, why, sizeof(why))) {
			sample_vec_free(samples);
			state = INST_FAILED;
			snprintf(reason, reasonsz, "%s", why[0] ? why : "no result");
		} else if (state == INST_WARMUP) {
			sample_vec_free(samples);
			snprintf(reason, reasonsz, "ended in the warm-up, before the measured loads"
				 " started: not a sample");
		} else {
			state = INST_OK;
		}
	}
	char line[160];
	if ((state == INST_FAILED || state == INST_TIMEOUT) &&
	    (text_find_line(o->err, o->err_len, ops->failure_lines, line, sizeof(line)) ||
	     text_find_line(o->out, o->out_len, ops->failure_lines, line, sizeof(line)))) {
		char was[256];
		snprintf(was, sizeof(was), "%s", reason);
		snprintf(reason, reasonsz, "%s (%s)", line, was[0] ? was : "failed");
	}
	return state;
}

size_t outcome_iteration(struct iteration_result *res, struct stored_instance *st,
			 struct sample_vec *samples, struct sample_vec *window, char **argv_text)
{
	size_t failures = 0;
	for (size_t i = 0; i < res->n; i++) {
		struct inst_result *r = &res->r[i];
		const struct plan_instance *pi = r->pi;
		const struct load_ops *ops = pi->load->ops;
		struct load_output o = {
			.out = buf_str(&r->out), .out_len = r->out.len,
			.err = buf_str(&r->err), .err_len = r->err.len,
			.exit_code = r->exit_code, .term_signal = r->term_signal,
			.signaled = r->term_signal != 0, .stopped = r->state == INST_STOPPED,
			.sched_requested = pi->sched_text, .sched_applied = r->applied,
		};
		enum inst_state state = outcome_decide(ops, &pi->params, r->state, &o, &samples[i],
						       r->reason, sizeof(r->reason));
		if (state == INST_FAILED || state == INST_TIMEOUT)
			failures++;
		r->state = state;
		window_metrics(r, ops, &window[i]);
		argv_text[i] = argv_render(&pi->argv);
		st[i] = (struct stored_instance){
			.repetition = r->repetition,
			.name = pi->load->name,
			.tool = ops->name,
			.role = load_role_name(pi->load->role),
			.argv = argv_text[i],
			.pid = r->pid,
			.sched_requested = pi->sched_text,
			.sched_applied = r->applied,
			.state = inst_state_name(state),
			.exited = r->exited,
			.exit_code = r->exit_code,
			.term_signal = r->term_signal,
			.reason = r->reason[0] ? r->reason : NULL,
			.started_ns = r->start_ns,
			.ended_ns = r->end_ns,
			.elapsed_s = (double)(r->end_ns - r->start_ns) / 1e9,
			.user_s = (double)r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6,
			.system_s = (double)r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6,
			.out = r->out.data,
			.out_len = r->out.len,
			.err = r->err.data,
			.err_len = r->err.len,
			.samples = samples[i].n ? &samples[i] : NULL,
			.window = window[i].n ? &window[i] : NULL,
		};
	}
	return failures;
}
