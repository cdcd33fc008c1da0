#include "backends.h"

extern const struct variant_backend local_backend;
extern const struct variant_backend qemu_backend;
extern const struct variant_backend ssh_backend;
extern const struct variant_backend lava_backend;

const struct variant_backend *variant_backend_for(enum boot_kind boot)
{
	switch (boot) {
	case BOOT_LOCAL:
		return &local_backend;
	case BOOT_QEMU:
		return &qemu_backend;
	case BOOT_SSH:
		return &ssh_backend;
	case BOOT_LAVA:
		return &lava_backend;
	}
	return &local_backend;
}
