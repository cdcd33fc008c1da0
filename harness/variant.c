#include "variant.h"

#include <stdio.h>

extern const struct variant_backend local_backend;
extern const struct variant_backend qemu_backend;

/* Backends not built yet fail the variant with a clear message. */
static int unavailable_run(const struct variant_run *vr, char *err, size_t errsz)
{
	(void)vr;
	snprintf(err, errsz, "boot: ssh is not available in this schedrig yet");
	return -1;
}

static const struct variant_backend ssh_unavailable = {"ssh", unavailable_run};

const struct variant_backend *variant_backend_for(enum boot_kind boot)
{
	switch (boot) {
	case BOOT_LOCAL:
		return &local_backend;
	case BOOT_QEMU:
		return &qemu_backend;
	case BOOT_SSH:
		return &ssh_unavailable;
	}
	return &local_backend;
}
