#include "iteration_result.h"

#include <stdlib.h>
#include <string.h>

const char *inst_state_name(enum inst_state s)
{
	switch (s) {
	case INST_OK:
		return "ok";
	case INST_FAILED:
		return "failed";
	case INST_TIMEOUT:
		return "timeout";
	case INST_STOPPED:
		return "stopped";
	case INST_INTERRUPTED:
		return "interrupted";
	case INST_WARMUP:
		return "warmup";
	}
	return "?";
}

void iteration_result_free(struct iteration_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		buf_free(&res->r[i].out);
		buf_free(&res->r[i].err);
	}
	free(res->r);
	memset(res, 0, sizeof(*res));
}
