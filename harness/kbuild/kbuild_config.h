/* The .config of a kernel the rig builds: a base config (make tinyconfig or
 * defconfig, Debian's packaged config, or a .config file), then fragments
 * merged the way the kernel's scripts/kconfig/merge_config.sh -m does (a
 * fragment's line for an option replaces the option's earlier line, in
 * order), then `make olddefconfig`. Every option a fragment sets is
 * requested: the final .config must have it with that value (for
 * "# CONFIG_X is not set" or CONFIG_X=n: not =y or =m), else the build is
 * refused naming it — merge_config.sh only warns ("Value requested for X
 * not in final .config"). */
#ifndef SCHEDRIG_KBUILD_CONFIG_H
#define SCHEDRIG_KBUILD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "kbuild_make.h"
#include "util.h"

/* One config option line: "CONFIG_X=value" gives name X and value as
 * written; "# CONFIG_X is not set" gives value "n". Returns false for any
 * other line (comments, blank lines). */
bool kconfig_line(const char *line, char *name, size_t namesz, char *value, size_t valuesz);

/* Options requested by fragments: the last value each one was given, and
 * the fragment that gave it (for messages). */
struct kconfig_want {
	char *name, *value, *from;
};
struct kconfig_wants {
	struct kconfig_want *w;
	size_t n;
};

/* Merge fragment (text, named from in messages) into config: every option
 * line of the fragment replaces the line of that option in config (wherever
 * it is) and is appended at the end, as merge_config.sh does; each is
 * recorded in wants. The result replaces config. */
void kconfig_merge(struct buf *config, const char *fragment, const char *from,
		   struct kconfig_wants *wants);

/* Does final (a .config's text) have every option of wants? Returns 0, or
 * -1 with every missing one in err: "CONFIG_X=y (from guest) is not in the
 * final .config (it has '# CONFIG_X is not set'; a dependency is off or the
 * option does not exist in this tree)", joined by "; ". */
int kconfig_check(const char *final, const struct kconfig_wants *wants, char *err, size_t errsz);

void kconfig_wants_free(struct kconfig_wants *w);

/* One fragment to merge, already read: text and the name messages use
 * ("guest", a file path, an inline CONFIG_X=y). */
struct kconfig_fragment {
	const char *text;
	const char *from;
};

/* Make OBJ/.config (m->obj, kbuild_make.h): base is "tinyconfig" or
 * "defconfig" (make BASE), or the text of a config (base_text not NULL: a
 * file or the package's config) written as it is; then each fragment
 * merged (kconfig_merge), `make olddefconfig`, and the check
 * (kconfig_check). Returns 0, or -1 with err ("make tinyconfig failed
 * (...)", the missing options), or KB_INTERRUPTED. */
int kconfig_make(const struct kmake *m, const char *base, const char *base_text,
		 const struct kconfig_fragment *frags, size_t n_frags, char *err, size_t errsz);

#endif
