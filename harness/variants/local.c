/* boot: local — the running kernel; the runner works in-process. */
#include <stdio.h>

#include "provenance.h"
#include "variant.h"

static int local_run(const struct variant_run *vr, char *err, size_t errsz)
{
	struct provenance pv;
	struct variant_kernel k;

	provenance_read(&pv);
	snprintf(k.release, sizeof(k.release), "%s", pv.kernel_release);
	snprintf(k.cmdline, sizeof(k.cmdline), "%s", pv.kernel_cmdline);
	if (vr->on_kernel(vr->ctx, &k))
		return -1;
	for (size_t c = 0; c < vr->p->n_cells && !runner_interrupt_signal(); c++) {
		for (int it = 1; it <= vr->iterations && !runner_interrupt_signal(); it++) {
			struct iteration_result res;
			if (vr->done && vr->done(vr->ctx, c, it))
				continue;
			if (runner_run_iteration(&vr->p->cells[c], vr->e->warmup_s, vr->self_exe, &res,
						 err, errsz))
				return -1;
			int rc = vr->on_iteration(vr->ctx, c, it, &res);
			iteration_result_free(&res);
			if (rc)
				return -1;
		}
	}
	return 0;
}

const struct variant_backend local_backend = {
	.name = "local",
	.run = local_run,
};
