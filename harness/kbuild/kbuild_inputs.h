/* Every input of a kernel build that the build key holds, in one struct,
 * filled in one place (kbuild_inputs_fill, from what kbuild_kernel.c
 * resolved), written as one text (kbuild_inputs_text: key.txt, hashed for
 * the key, printed by the provenance and compared by `schedrig cache
 * diff`). Anything that changes a build's output and is not in here is a
 * bug: two builds with equal texts must give byte-identical images
 * (tests/integration/kbuild_invariant.sh changes each input in turn).
 *
 * key.txt, one "NAME VALUE" line each, in this order:
 *   schedrig-kbuild 2               the format; a change to how the rig
 *                                   builds bumps it
 *   source IDENTITY                 the tree's content (kbuild_source.h)
 *   patch N, patch[i] SHA256 fuzz F each patch's bytes, in the order
 *                                   applied, and the fuzz it may use
 *   config N, config[i] ITEM        the config items: tinyconfig,
 *                                   defconfig, "text SHA256" (a .config
 *                                   file's or the package's bytes),
 *                                   "fragment SHA256" (guest, a file, an
 *                                   inline option: the merged text)
 *   make_arg N, make_arg[i] ARG     make_args: as written
 *   env N, env[i] NAME=VALUE        make's environment (kbuild_env.h)
 *   tool ROLE SHA256 PATH (VERSION) the toolchain (kbuild_tools.h)
 *   target bzImage
 *   inputs SHA256                   the sha256 of the lines above: what is
 *                                   known before the tree is configured
 *                                   (the per-key lock, the base's lookup)
 *   config_final SHA256             the .config after olddefconfig
 * The key is the sha256 of the whole text. */
#ifndef SCHEDRIG_KBUILD_INPUTS_H
#define SCHEDRIG_KBUILD_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "kbuild_config.h"
#include "kbuild_series.h"
#include "kbuild_source.h"
#include "kbuild_tools.h"
#include "util.h"

#define KBUILD_FORMAT "schedrig-kbuild 2"

struct kbuild_inputs {
	char *source;            /* the source's content identity */
	struct argv patches;     /* "SHA256 fuzz F" per patch, in order */
	struct argv config;      /* the config items as keyed (above) */
	struct argv make_args;   /* as written */
	struct argv env;         /* NAME=VALUE of make's keyed environment */
	struct ktools tools;
	char *target;            /* "bzImage" */
	char inputs[65];         /* sha256 of the text up to target */
	char config_final[65];   /* sha256 of the final .config; "" until the
				  * tree is configured */
};

/* Fill in from the resolved parts of a kernel: its source, series, base
 * config (base_config "tinyconfig"/"defconfig", else base_text), the
 * fragments, make_args; the environment from kbuild_env_base, the
 * toolchain probed (kbuild_tools.h; log: a scratch path for its output)
 * with tool_args (make_args and what the rig adds, kmake_tool_args). Sets
 * in->inputs. */
void kbuild_inputs_fill(struct kbuild_inputs *in, const struct ksource *src,
			const struct kseries *series, const char *base_config,
			const char *base_text, const struct kconfig_fragment *frags,
			size_t n_frags, const struct argv *make_args,
			const struct argv *tool_args, const char *log);

/* The text (above) appended to out; without config_final when it is not
 * set yet. */
void kbuild_inputs_text(const struct kbuild_inputs *in, struct buf *out);

/* The key: sha256 of kbuild_inputs_text (config_final must be set). */
void kbuild_inputs_key(const struct kbuild_inputs *in, char key[65]);

/* Print the lines of two key texts that differ, by name ("NAME" first
 * word, "patch[1]"), as "  NAME: A-VALUE\n  %*s  B-VALUE" pairs; a
 * line only one text has shows "(none)" on the other side. Returns how
 * many names differ. */
size_t kbuild_inputs_diff(const char *a, const char *b, struct buf *out);

/* Do the key texts mine and base differ only in patches, config items,
 * the inputs line and the final .config, so that base's objects can start
 * mine's build (make rebuilds what the patches and the config change)? */
bool kbuild_inputs_objects_fit(const char *mine, const char *base);

void kbuild_inputs_free(struct kbuild_inputs *in);

#endif
