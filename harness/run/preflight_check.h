/* Every check before anything runs: each variant's backend checks its part
 * (variant_backend.preflight, variant.h), then the plan's own. */
#ifndef SCHEDRIG_PREFLIGHT_CHECK_H
#define SCHEDRIG_PREFLIGHT_CHECK_H

#include <stddef.h>

#include "preflight.h"

/* Run every check of e and its plan p (pf zeroed but for its inputs).
 * Returns the number of refusals. */
size_t preflight_check(struct preflight *pf);

#endif
