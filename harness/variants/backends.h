/* The backend of each boot: kind (backends.c): the one file that names
 * every backend (local.c, qemu.c, ssh.c, lava.c), so a backend, which
 * includes variant.h, never includes what lists it. */
#ifndef SCHEDRIG_BACKENDS_H
#define SCHEDRIG_BACKENDS_H

#include "variant.h"

/* The backend for a boot kind. */
const struct variant_backend *variant_backend_for(enum boot_kind boot);

#endif
