/* The build key of a kernel the rig builds: the sha256 of one text that
 * names everything that changes the result (kbuild_key_text), so that two
 * builds with the same key give the same bzImage and a cached one is reused
 * without running the compiler. SHA-256 is OpenSSL's (libcrypto EVP). */
#ifndef SCHEDRIG_KBUILD_KEY_H
#define SCHEDRIG_KBUILD_KEY_H

#include <stddef.h>

#include "util.h"

/* sha256 of len bytes as 64 lowercase hex digits and a NUL into out. */
void kb_sha256_hex(const void *data, size_t len, char out[65]);
/* sha256 of the file at path into out. Returns 0, or -1 (errno set). */
int kb_sha256_file(const char *path, char out[65]);

/* What goes into the key; every string is part of it as written. */
struct kbuild_inputs {
	const char *source_identity; /* kbuild_source: package and version, tarball
					sha256, git commit and diff hash, tree digest */
	const char *const *patch_sha256; /* each patch's sha256, in order */
	size_t n_patches;
	const char *const *config;   /* config items: a base name (tinyconfig) or
					"sha256 of the file's bytes", fragments the same,
					inline options as written */
	size_t n_config;
	const char *const *make_args;
	size_t n_make_args;
	const char *compiler;        /* first line of `CC --version` */
	const char *target;          /* the make target, "bzImage" */
};

/* The text hashed for the key: one "name value" line per input, in a fixed
 * order, beginning with "schedrig-kbuild 1" (the format's version: a change
 * to how the rig builds bumps it). Appended to out. */
void kbuild_key_text(const struct kbuild_inputs *in, struct buf *out);
/* sha256 of kbuild_key_text(in) into key. */
void kbuild_key(const struct kbuild_inputs *in, char key[65]);

#endif
