/* Every check before anything runs (preflight_check.h). */
#include "preflight_check.h"

#include "backends.h"
#include "config.h"
#include "variant.h"

/* The plan's own checks: background lifetimes. */
static void check_background(struct preflight *pf)
{
	const struct experiment *e = pf->e;
	for (size_t l = 0; l < e->n_loads; l++) {
		const struct cfg_load *ld = &e->loads[l];
		if (ld->role != ROLE_BACKGROUND)
			continue;
		if (ld->timeout_s <= e->warmup_s)
			preflight_refuse(pf, NULL, ld->name, "timeout_s %g ends before the measured loads"
					 " start (warmup_s %g): a background load's timeout_s guards its"
					 " start-up and its stop", ld->timeout_s, e->warmup_s);
		if (ld->ops->summarizes_on_stop)
			continue;
		if (ld->repeat)
			preflight_note(pf, NULL, ld->name, "%s cannot report a run the stop cuts short:"
				       " each repetition that ends while the measured loads run is a"
				       " sample, the one running at their end is not", ld->ops->name);
		else
			preflight_note(pf, NULL, ld->name, "%s cannot report a run the stop cuts short:"
				       " it yields samples only when it ends while the measured loads"
				       " run (with repeat: true, each run that fits is a sample)",
				       ld->ops->name);
	}
}

size_t preflight_check(struct preflight *pf)
{
	const struct plan *whole = pf->p;
	for (size_t v = 0; v < pf->e->n_variants; v++) {
		const struct variant_backend *b = variant_backend_for(pf->e->variants[v].boot);
		struct plan view; /* the cells the variant runs (its cells:) */
		plan_variant_view(whole, v, &view);
		pf->p = &view;
		if (b->preflight)
			b->preflight(pf, &pf->e->variants[v]);
		plan_free(&view);
	}
	pf->p = whole;
	check_background(pf);
	return pf->n_refusals;
}
