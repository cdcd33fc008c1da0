/* provenance.txt of a built kernel: every keyed input (kbuild_inputs.h)
 * as a reader wants it, with the names this config gives them, and what
 * the build did. One "name value" line each, in this order:
 *   kernel NAME
 *   key KEY
 *   base NAME key BASEKEY | base NAME (not built)    with a base: only
 *   source WRITTEN IDENTITY [(ORIGIN)] [(DESCRIBE)]  kbuild_source.h
 *   patch SHA256 FILE[#MESSAGE] SUBJECT [(fuzz N allowed)]  one per patch
 *   placed patch I of N, FILE: 'SUBJECT': PATH: Hunk #H succeeded at L
 *          (offset K lines) / with fuzz F ...        one per moved hunk
 *   config ITEM...                                   as written
 *   config_sha256 SHA256                             the final .config
 *   config_diff -LINE +LINE ... | none | (base not built)
 *                                                    against the base's own
 *                                                    entry's .config (at
 *                                                    most 40 options)
 *   make_args ARGS
 *   env NAME=VALUE ...                               make's keyed environment
 *   tool ROLE PATH (VERSION) [via ccache]            one per program
 *   build cold | build from the objects of BASEKEY
 *   build_s SECONDS                                  of the build that made it
 *   bzimage_sha256 SHA256 */
#ifndef SCHEDRIG_KBUILD_PROVENANCE_H
#define SCHEDRIG_KBUILD_PROVENANCE_H

#include "kbuild_kernel.h"

/* Set b->provenance from b and the entry's files at entry (config,
 * bzImage). */
void kbuild_provenance(struct kbuild *b, const char *entry);

/* b was found in the cache (b->entry): its build time and how it was
 * built read from the entry's provenance.txt, then kbuild_provenance. */
void kbuild_provenance_cached(struct kbuild *b);

/* The options whose lines differ between two .config texts, as " -LINE"
 * and " +LINE" (base's, then mine), at most 40, then " (and N more)",
 * appended to out. */
void kbuild_config_diff(const char *base, const char *mine, struct buf *out);

#endif
