/* Preflight: before anything runs (check-config, run --dry-run, run and
 * run --resume), each (variant, load) pair of a config is checked against
 * what that variant will have, so that a run which would throw work away
 * does not start:
 *   - every backend checks its variants (variant_backend.preflight): the
 *     running kernel's latency_nice support, debugfs and sysctl knobs and
 *     the privileges of this process (boot: local); the tools and files a
 *     guest gets packed, and the kernel package's config and BTF for
 *     latency_nice, scheduler features and the modules the guest needs
 *     (boot: qemu, and boot: lava, which also refuses a load that needs a
 *     scratch disk or this machine's /usr); what can only be known there
 *     (boot: ssh);
 *   - the plan: a background load whose timeout_s ends before the
 *     measured loads start, and background loads that yield no samples
 *     when the stop cuts them.
 * A refusal means the config cannot work on that variant (exit 2, nothing
 * run); a warning, that something cannot be known before the variant runs;
 * a note, how a load will behave. Messages read "variant V, load L: ..."
 * (or "variant V: ..." for the variant's own knobs and kernel). */
#ifndef SCHEDRIG_PREFLIGHT_H
#define SCHEDRIG_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "plan.h"
#include "util.h"

struct preflight {
	const struct experiment *e;
	const struct plan *p;
	/* run: a backend may fetch what it checks (a kernel package, into
	 * cache_dir); check-config and --dry-run: never, and what is not
	 * fetched yet is a warning. */
	bool fetch;
	const char *cache_dir;  /* the results cache (results/cache) */
	struct buf refusals, warnings, notes; /* one message a line */
	size_t n_refusals;
};

/* A refusal, warning or note about variant (NULL: the plan as a whole)
 * and load (NULL: the variant itself); printf-style message. */
void preflight_refuse(struct preflight *pf, const char *variant, const char *load,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void preflight_warn(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void preflight_note(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Run every check of e and its plan p (pf zeroed but for its inputs).
 * Returns the number of refusals. */
size_t preflight_check(struct preflight *pf);

/* Print refusals as "CONFIG: MESSAGE", then warnings as "CONFIG: warning:
 * MESSAGE", to problems; notes as "CONFIG: note: MESSAGE" to notes (NULL:
 * not printed). */
void preflight_print(const struct preflight *pf, FILE *problems, FILE *notes);

void preflight_free(struct preflight *pf);

/* Helpers for the backends' checks. */

/* Refuse, for a variant whose loads run as this process's children
 * (boot: local), each load requesting what needs CAP_SYS_NICE when the
 * process lacks it and its RLIMIT_NICE / RLIMIT_RTPRIO do not allow it
 * either, and knobs when it is not root. */
void preflight_privileges(struct preflight *pf, const struct cfg_variant *v);

#endif
