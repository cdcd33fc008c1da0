/* What hackbench and perf bench sched messaging share: see messaging.h. */
#include "messaging.h"

#include <stdio.h>
#include <string.h>

static bool param_is(const struct params *p, const char *name, const char *value)
{
	const char *v = params_get(p, name);
	return v && !strcmp(v, value);
}

void messaging_argv(const struct params *p, struct argv *argv, const char *process_flag,
		    const char *thread_flag)
{
	const char *mode_flag = param_is(p, "mode", "thread") ? thread_flag : process_flag;
	if (mode_flag)
		argv_add(argv, mode_flag);
	if (param_is(p, "ipc", "pipe"))
		argv_add(argv, "-p");
	params_argv_int(p, argv, "-g", "groups");
	params_argv_int(p, argv, "-l", "loops");
}

int messaging_parse(const struct load_ops *ops, messaging_time_fn time_of,
		    const struct load_output *o, const struct params *p, struct sample_vec *samples,
		    char *why, size_t whysz)
{
	struct text_lines t;
	double time_s = 0;

	if (output_status(o, ops, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	int rc = time_of(o, &t, &time_s, why, whysz);
	text_lines_free(&t);
	if (rc)
		return -1;
	char op[SAMPLE_OP_MAX];
	snprintf(op, sizeof(op), "%lld", params_int(p, "groups", 4));
	sample_vec_add(samples, "time", "s", BETTER_LOWER, op, time_s);
	return 0;
}
