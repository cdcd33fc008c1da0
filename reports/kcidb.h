/* Runs as KernelCI's kcidb I/O JSON, schema version KCIDB_MAJOR.KCIDB_MINOR
 * (results-schema/kcidb/kcidb-io.schema.v5.3.json, from kernelci/kcidb-io),
 * so results can be submitted with KernelCI's own tools (kcidb-submit):
 *   checkouts  one per run and variant: the kernel's source as its
 *              revision names it (store_revision.h): git_commit_hash and
 *              git_commit_name (git describe) for a git tree, with the
 *              repository's directory in misc (kcidb wants an https://
 *              git_repository_url, which a local tree has not);
 *              patchset_hash for a build with patches (sha256 over the
 *              newline-terminated sha256 of each patch, in order, as kcidb
 *              defines it; "" for none); misc the package or label
 *              revision, the run, variant and config;
 *   builds     one per run and variant: a kernel the rig built (status PASS
 *              or FAIL, its duration, compiler, config items and build key
 *              from kernel_build's provenance), else the kernel it ran
 *              (status PASS, misc says which: a package, a bzImage, the
 *              running kernel) - kcidb hangs every test on a build;
 *   tests      one per sample of the complete iterations (what reports
 *              read, store_load_rows): path "schedrig.LOAD.METRIC[.OP]"
 *              (characters outside [A-Za-z0-9_-] of each part become '_'),
 *              status DONE, number {value, unit}, start_time the run's,
 *              environment the host and CPUs, misc variant, cell,
 *              iteration, repetition, op and the metric's direction. A NaN
 *              sample has no number to give and is left out.
 * Every id is "ORIGIN:<KEY>-run<ID>-<variant>[-build|-<k>]", unique per run
 * and variant (and sample k) across databases: KEY is 16 hex digits of
 * SHA-256 over the run's host, boot_id, started_at, rig_pid and
 * rig_start_ticks (run_key in kcidb.c), so run 1 of two databases differ,
 * and one run exported twice (or copied, or imported) has the same ids. Times are the database's (UTC, RFC 3339). */
#ifndef SCHEDRIG_KCIDB_H
#define SCHEDRIG_KCIDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "util.h"

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

/* The origin the ids start with unless told (kcidb: ^[a-z0-9_]+$). */
#define KCIDB_ORIGIN "schedrig"

/* Is origin a kcidb origin: one or more of [a-z0-9_]? */
bool kcidb_origin_ok(const char *origin);

/* The kcidb document of runs ids[0..n_ids) of st into out (one JSON
 * object, indented, a newline at the end). 0, or -1 with err (the
 * database). */
int kcidb_export(struct store *st, const int64_t *ids, size_t n_ids, const char *origin,
		 struct buf *out, char *err, size_t errsz);

#endif
