/* The patch series of a kernel the rig builds (kernels: NAME: patches:):
 * the list as written expanded into single patches in the order they are
 * applied, each with its bytes, subject line and sha256; and applying them
 * with patch(1) to a private copy of the tree.
 *
 * An item of patches: is
 *   - a directory: its files whose names end in .patch, .diff, .mbox or
 *     .mbx, in name order (strcmp, as `ls` in the C locale; a README and
 *     other files are not part of the series);
 *   - a file: one patch, or an mbox of several as `git format-patch
 *     --stdout` or `b4 am` writes it, split into its messages.
 * A message starts at a separator line, the one `git format-patch` writes
 * ("From <40 hex digits> Mon Sep 17 00:00:00 2001", 64 digits in a SHA-256
 * repository) or b4's ("From git@z
 * Thu Jan  1 00:00:00 1970"), at the start of the file or of a line; a
 * line beginning "From " in a commit message is part of it. An empty line
 * just before a separator belongs to neither message (mboxo). A message
 * holding no diff (a cover letter, "[PATCH 0/N]") is left out. A file that
 * does not start with a separator is one plain diff.
 *
 * Patches apply exactly: `patch --fuzz=0` (every context line must match;
 * a hunk may still move, an offset, which is recorded) unless the
 * kernels: entry says patch_fuzz: N, and then every hunk placed with fuzz
 * is recorded too (kseries_apply's applied lines go into the provenance). */
#ifndef SCHEDRIG_KBUILD_SERIES_H
#define SCHEDRIG_KBUILD_SERIES_H

#include <stddef.h>

#include "util.h"

/* One patch of a series. */
struct kpatch {
	char *file;        /* the file it came from, as written or found in a directory */
	int message;       /* 1-based message of an mbox; 0: the whole file */
	char *subject;     /* Subject: without "[PATCH ...]" tags; else the file's name */
	char *data;        /* the patch's bytes (NUL-terminated) */
	size_t len;
	char sha256[65];   /* of data, lowercase hex */
	int fuzz;          /* the fuzz patch may use (patch_fuzz:, 0 by default) */
};

struct kseries {
	struct kpatch *p;
	size_t n;
};

/* Append the patches of one patches: item (file or directory) to s, each
 * allowed fuzz. Returns 0, or -1 with "PATH: reason" in err (missing,
 * unreadable, a directory without patch files, a file holding no diff). */
int kseries_add(struct kseries *s, const char *path, int fuzz, char *err, size_t errsz);

/* Split mbox text into messages at the separators above, appended to s as
 * patches of file allowed fuzz (message numbers from 1; messages without a
 * diff left out, numbers still counted). Text that does not start with a
 * separator is one patch with message 0. Returns the number of patches
 * added. */
size_t kseries_split(struct kseries *s, const char *file, const char *text, size_t len,
		     int fuzz);

/* The files patch p names in the tree, appended to out (each once, in the
 * order met): the paths of its "--- " and "+++ " lines with their first
 * component dropped (patch -p1; up to a tab: a timestamp is not part of
 * it) and git's "rename from/to", "copy from/to" paths as they are;
 * /dev/null, absolute paths and paths with a ".." component left out. */
void kseries_touched(const struct kpatch *p, struct argv *out);

/* Apply every patch of s in order to the tree at dir with `patch -p1
 * --forward --batch --fuzz=F` (F: the patch's fuzz). The tree may share
 * its files with the cache by hard links (ksource_copy): before each
 * patch, every file it names (kseries_touched) that has other links
 * becomes a file of its own (same bytes, mode and times), so patching
 * never writes into a linked inode; a file reached through a symbolic
 * link (a component of its path, or the file) is refused. Each patch is
 * written first to work/NNNN.patch, its output in work/NNNN.log and
 * rejects in work/NNNN.rej. Each hunk placed with an offset or fuzz is
 * appended to applied (NULL: not kept) as "patch 2 of 4, FILE: 'SUBJECT':
 * kernel/sched/fair.c: Hunk #1 succeeded at 13848 (offset -3 lines).".
 * Returns 0, KB_INTERRUPTED, or -1 with the first failure in err: "patch
 * 2 of 4, FILE (message M): 'SUBJECT' does not apply: FILE_IN_TREE: Hunk
 * #1 FAILED at 123. (it applies with fuzz 1, ...: patch_fuzz: 1 ...);
 * first rejected hunk:\n@@ ... (at most 12 lines)". */
int kseries_apply(const struct kseries *s, const char *dir, const char *work,
		  struct argv *applied, char *err, size_t errsz);

/* The first rejected hunk of a reject file's text (from its first "@@"
 * line), at most max_lines lines, into dst. */
void kseries_first_hunk(const char *rej, unsigned max_lines, char *dst, size_t size);

void kseries_free(struct kseries *s);

#endif
