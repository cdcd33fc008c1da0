/* Provenance of stored runs for reports and mail: the run row, its
 * variants (kernel release and command line as recorded when each kernel
 * came up; for a kernel the rig built, its source, patches, config,
 * compiler and build time) and the knobs applied, read through
 * store_runs.h, store_kbuild.h and the knob journal (store.h). */
#ifndef SCHEDRIG_RUNINFO_H
#define SCHEDRIG_RUNINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct store;

struct runinfo_variant {
	char *name, *boot, *kernel_release, *kernel_cmdline, *status;
	char *build; /* provenance of the kernel the rig built for it (table
		      * kernel_build, harness/kbuild/kbuild.h), NULL when none */
};

struct runinfo_knob {
	char *variant, *kind, *name, *requested_value, *applied_value;
};

/* One field of a fingerprint (store_host.h): variant NULL for the rig's
 * machine; digest the variant's store_host_digest ("" for the rig's). */
struct runinfo_host {
	char *variant, *field, *value, *source, *digest;
	bool stable;
};

/* Strings are NULL when the database holds none. status is as readers
 * should see it (provenance_run_status: "abandoned" for a run whose rig
 * died). */
struct runinfo {
	int64_t id;
	char *name, *status, *started_at, *ended_at, *host, *kernel_release, *kernel_cmdline,
	     *cpu_model, *schedrig_version, *config_path, *config_text;
	int cpu_count, iterations;        /* 0 when unknown */
	int complete_iterations;          /* stored complete iterations, all variants */
	struct runinfo_variant *variants; /* config order */
	size_t n_variants;
	struct runinfo_knob *knobs;       /* order of the changes */
	size_t n_knobs;
	struct runinfo_host *host_state;  /* the rig's machine's fields, then each
					   * variant's (config order), by name */
	size_t n_host;
};

/* Read the runs ids[0..n) from st (the database at db_path, named in
 * messages) into *out (malloc'd array of n, in the order given). 0, or -1
 * with a message in err. */
int runinfo_load(struct store *st, const char *db_path, const int64_t *ids, size_t n,
		 struct runinfo **out, char *err, size_t errsz);
void runinfo_free(struct runinfo *r, size_t n);

/* A run whose rig has not finished it (running, interrupted, abandoned):
 * its tables hold only what was stored so far. A failed run has ended; its
 * failures are in its notes. */
bool runinfo_partial(const struct runinfo *r);

/* A short plain-text provenance block (mail bodies), lines without trailing
 * blanks, kernel command lines cut to 200 characters:
 *   Provenance
 *     run 3 hackbench-cyclictest (complete), 2026-01-01T10:00:00Z .. ...Z
 *     host H, CPU MODEL x N, schedrig 0.1.0, 5 iteration(s)
 *     PARTIAL: this run is STATUS; its tables hold the N complete ... (when
 *       runinfo_partial)
 *     variant NAME: kernel R (boot local), cmdline ...
 *     knob VARIANT NAME = APPLIED (requested R)
 *     host state of the rig's machine: FIELD=VALUE, ... (wrapped)
 *     host state of variant V (digest D): as the rig's machine[, except
 *       FIELD=VALUE, ...] (its stable fields that read otherwise) */
void runinfo_text(struct buf *out, const struct runinfo *r, size_t n);

#endif
