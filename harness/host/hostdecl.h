/* What a variant's config declares about the fingerprint fields
 * (hostfp.h) of the machine its kernel runs on: its knobs and host:
 * settings each set a field (autogroup: off sets
 * sysctl.kernel.sched_autogroup_enabled to 0), and what it boots decides
 * whole groups (another kernel: kernel.*, sched.features, debugfs.sched.*;
 * another machine or guest size: cpu.*, topology.*, mem.*, ...).
 *
 * Two uses: the rig checks a fingerprint against what it asked for (a
 * guest that says it applied thp: never and reads madvise is not
 * trusted: hostdecl_check), and compare tells a difference between two
 * fingerprints that the variants declare (variant A sets thp: never, B
 * does not) from one they do not (the same config, THP changed by hand
 * between the runs: hostdecl_values). */
#ifndef SCHEDRIG_HOSTDECL_H
#define SCHEDRIG_HOSTDECL_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "hostfp.h"
#include "util.h"

/* How a declared value is checked against a fingerprint. */
enum hostdecl_check {
	HOSTDECL_SAME,     /* the field reads value */
	HOSTDECL_AT_MOST,  /* a number no larger than value (a latency limit in force) */
	HOSTDECL_LISTS,    /* every word of value is among the field's words (sched_features) */
	HOSTDECL_CPUS,     /* the same CPUs as the list value ("0-1" == "0,1") */
	HOSTDECL_NONE,     /* declared, not checked (what a setting moves besides
			    * its field; kernel and machine identity) */
};

/* One declaration: field (exact, or a prefix ending in '*': "kernel.*"),
 * the declared value (a setting's value, or an identity: "kernel
 * linux-image-6.1.0-28-amd64-unsigned"), how to check it, and the config
 * key that declares it ("host: thp", "sysctl kernel.x"). */
struct hostdecl {
	char *field, *value, *by;
	enum hostdecl_check check;
};

struct hostdecls {
	struct hostdecl *v;
	size_t n;
};

/* The declarations of variant v (zeroed here; free with hostdecls_free). */
void hostdecl_of_variant(const struct cfg_variant *v, struct hostdecls *d);
void hostdecls_free(struct hostdecls *d);

/* What d declares about field, appended to out: "BY=VALUE;" for each
 * declaration that names it, in order (nothing when none does). Two
 * variants whose texts differ for a field declare a difference there. */
void hostdecl_values(const struct hostdecls *d, const char *field, struct buf *out);

/* Does fingerprint fp (read after v's knobs and settings were applied)
 * show what d asks for? 0, or -1 with err naming the first field that does
 * not: "thp.enabled reads madvise, host: thp asked for never". A declared
 * field fp lacks is not checked (a sysctl the fingerprint does not
 * record). */
int hostdecl_check(const struct hostdecls *d, const struct host_fp *fp, char *err, size_t errsz);

#endif
