/* libFuzzer target: every registered load driver's parse() on arbitrary
 * stdout/stderr. Input layout:
 *   NAME '\0' FLAGS SPLIT_LO SPLIT_HI BYTES...
 * NAME selects the driver (an exact tool name, else the sum of its bytes
 * modulo the number of drivers); FLAGS bit 0: signaled (by the signal in
 * bits 2-7; signal 0 is no signal, as for the runner), bit 1: stopped,
 * bits 2-7: exit code or signal number; BYTES[0..SPLIT) is stdout, the rest
 * stderr (SPLIT = SPLIT_LO + 256 * SPLIT_HI, clamped). Parameters are the
 * driver's defaults. The input goes through outcome_decide, as a run
 * stores it, with the runner's verdict FLAGS imply (signaled or exit code
 * != 0: failed with the runner's reason; stopped: stopped; else ok).
 * Properties checked besides the sanitizers: parse returns 0 with at least
 * one sample, or -1 with none and a reason; what would be stored is either
 * samples (state ok), every value finite, or no sample with a non-empty
 * reason (failed) or the stopped state.
 * Run with FUZZ_LIST_DRIVERS=1 to print the driver names (for seeding). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "load.h"
#include "outcome.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (getenv("FUZZ_LIST_DRIVERS")) {
		size_t n;
		const struct load_ops *const *all = load_all(&n);
		for (size_t i = 0; i < n; i++)
			printf("%s\n", all[i]->name);
		exit(0);
	}
	return 0;
}

/* A NUL-terminated copy of exactly len bytes plus the terminator. */
static char *copy(const uint8_t *p, size_t len)
{
	char *s = malloc(len + 1);
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	const struct load_ops *const *all = load_all(&n);
	const uint8_t *nul = memchr(data, '\0', size < 64 ? size : 64);
	if (!n || !nul || (size_t)(nul - data) + 4 > size)
		return 0;
	size_t name_len = (size_t)(nul - data);
	const struct load_ops *ops = NULL;
	unsigned sum = 0;
	for (size_t i = 0; i < name_len; i++)
		sum += data[i];
	for (size_t i = 0; i < n; i++)
		if (strlen(all[i]->name) == name_len && !memcmp(all[i]->name, data, name_len))
			ops = all[i];
	if (!ops)
		ops = all[sum % n];

	const uint8_t *h = nul + 1;
	uint8_t flags = h[0];
	size_t split = (size_t)h[1] | (size_t)h[2] << 8;
	const uint8_t *body = h + 3;
	size_t body_len = size - (size_t)(body - data);
	if (split > body_len)
		split = body_len;

	struct param_value *vals = calloc(ops->n_params ? ops->n_params : 1, sizeof(*vals));
	for (size_t i = 0; i < ops->n_params; i++)
		vals[i] = (struct param_value){ops->params[i].name, ops->params[i].default_value};
	struct params params = {ops->n_params, vals};

	char *out = copy(body, split), *err = copy(body + split, body_len - split);
	struct load_output o = {
		.out = out, .out_len = split, .err = err, .err_len = body_len - split,
		.signaled = (flags & 1) && (flags >> 2), .stopped = (flags & 2) != 0,
	};
	if (o.signaled)
		o.term_signal = flags >> 2;
	else
		o.exit_code = flags >> 2;

	struct sample_vec samples = {0};
	char why[256] = "";
	int rc = ops->parse(&o, &params, &samples, why, sizeof(why));
	if (rc == 0 && samples.n == 0) {
		fprintf(stderr, "%s: parse returned 0 without samples\n", ops->name);
		abort();
	}
	if (rc != 0 && !why[0]) {
		fprintf(stderr, "%s: parse failed without a reason\n", ops->name);
		abort();
	}
	sample_vec_free(&samples);

	enum inst_state state = o.signaled || o.exit_code ? INST_FAILED :
				o.stopped ? INST_STOPPED : INST_OK;
	char reason[256];
	outcome_runner_reason(state, !o.signaled, o.exit_code, o.term_signal, 10, reason,
			      sizeof(reason));
	state = outcome_decide(ops, &params, state, &o, &samples, reason, sizeof(reason));
	for (size_t i = 0; i < samples.n; i++) {
		if (!isfinite(samples.v[i].value)) {
			fprintf(stderr, "%s: stored value %zu is not finite\n", ops->name, i);
			abort();
		}
	}
	if (state == INST_OK ? samples.n == 0 : samples.n != 0) {
		fprintf(stderr, "%s: state %s with %zu samples\n", ops->name,
			inst_state_name(state), samples.n);
		abort();
	}
	if (state == INST_FAILED && !reason[0]) {
		fprintf(stderr, "%s: a failure without a reason\n", ops->name);
		abort();
	}
	if (state != INST_OK && state != INST_FAILED && state != INST_STOPPED) {
		fprintf(stderr, "%s: state %s from a finished instance\n", ops->name,
			inst_state_name(state));
		abort();
	}
	sample_vec_free(&samples);
	free(out);
	free(err);
	free(vals);
	return 0;
}
