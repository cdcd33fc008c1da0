#include "variant.h"

#include <stdio.h>

extern const struct variant_backend local_backend;

/* Backends not built yet fail the variant with a clear message. */
static int unavailable_run(const struct variant_run *vr, char *err, size_t errsz)
{
	snprintf(err, errsz, "boot: %s is not available in this schedrig yet",
		 vr->v->boot == BOOT_QEMU ? "qemu" : "ssh");
	return -1;
}

static const struct variant_backend qemu_unavailable = {"qemu", unavailable_run};
static const struct variant_backend ssh_unavailable = {"ssh", unavailable_run};

const struct variant_backend *variant_backend_for(enum boot_kind boot)
{
	switch (boot) {
	case BOOT_LOCAL:
		return &local_backend;
	case BOOT_QEMU:
		return &qemu_unavailable;
	case BOOT_SSH:
		return &ssh_unavailable;
	}
	return &local_backend;
}
