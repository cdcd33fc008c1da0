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
 * A message starts at a line "From " at the start of the file or after an
 * empty line, which separates messages and belongs to neither (mboxo,
 * mboxrd; lines of a diff start with ' ', '+', '-' or '@', so a diff never
 * holds such a line). A message holding no diff (a cover letter, "[PATCH
 * 0/N]") is left out. A file with no "From " line is one plain diff. */
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
};

struct kseries {
	struct kpatch *p;
	size_t n;
};

/* Append the patches of one patches: item (file or directory) to s.
 * Returns 0, or -1 with "PATH: reason" in err (missing, unreadable, a
 * directory without patch files, a file holding no diff). */
int kseries_add(struct kseries *s, const char *path, char *err, size_t errsz);

/* Split mbox text into messages, appended to s as patches of file (message
 * numbers from 1; messages without a diff left out, numbers still
 * counted). Text without a "From " line at its start is one patch with
 * message 0. Returns the number of patches added. */
size_t kseries_split(struct kseries *s, const char *file, const char *text, size_t len);

/* The files patch p names in the tree, appended to out (each once, in the
 * order met): the paths of its "--- " and "+++ " lines with their first
 * component dropped (patch -p1; up to a tab: a timestamp is not part of
 * it) and git's "rename from/to", "copy from/to" paths as they are;
 * /dev/null, absolute paths and paths with a ".." component left out. */
void kseries_touched(const struct kpatch *p, struct argv *out);

/* Apply every patch of s in order to the tree at dir with `patch -p1
 * --forward --batch`. The tree may share its files with the cache by hard
 * links (ksource_copy): before each patch, every file it names
 * (kseries_touched) that has other links becomes a file of its own (same
 * bytes, mode and times), so patching never writes into a linked inode.
 * Each patch is written first to work/NNNN.patch, its output in
 * work/NNNN.log and rejects in work/NNNN.rej. Returns 0, or -1 with the
 * first failure in err: "patch 2 of 4, FILE (message M): 'SUBJECT' does
 * not apply: FILE_IN_TREE: Hunk #1 FAILED at 123.; first rejected hunk:\n
 * @@ ... (at most 12 lines)". */
int kseries_apply(const struct kseries *s, const char *dir, const char *work, char *err,
		  size_t errsz);

/* The first rejected hunk of a reject file's text (from its first "@@"
 * line), at most max_lines lines, into dst. */
void kseries_first_hunk(const char *rej, unsigned max_lines, char *dst, size_t size);

void kseries_free(struct kseries *s);

#endif
