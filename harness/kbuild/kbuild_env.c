#include "kbuild_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Variables kbuild, kconfig or their scripts read from the environment
 * (Documentation/kbuild/kbuild.rst, the top Makefile's toolchain and flag
 * variables, scripts/setlocalversion's LOCALVERSION). */
static const char *const refused[] = {
	"ARCH", "SUBARCH", "SRCARCH", "CROSS_COMPILE", "LLVM", "LLVM_IAS", "CC", "CPP", "LD",
	"AR", "NM", "AS", "OBJCOPY", "OBJDUMP", "READELF", "STRIP", "HOSTCC", "HOSTCXX",
	"HOSTLD", "HOSTAR", "HOSTPKG_CONFIG", "PAHOLE", "RESOLVE_BTFIDS", "RUSTC", "BINDGEN",
	"RUSTDOC", "RUSTFMT", "CLIPPY", "PYTHON3", "PERL", "KCFLAGS", "KCPPFLAGS", "KAFLAGS",
	"KRUSTFLAGS", "CFLAGS_KERNEL", "CFLAGS_MODULE", "AFLAGS_KERNEL", "AFLAGS_MODULE",
	"RUSTFLAGS_KERNEL", "RUSTFLAGS_MODULE", "LDFLAGS_MODULE", "LDFLAGS_vmlinux",
	"HOSTCFLAGS", "HOSTCXXFLAGS", "HOSTLDFLAGS", "HOSTLDLIBS", "HOSTRUSTFLAGS",
	"USERCFLAGS", "USERLDFLAGS", "LOCALVERSION", "INSTALL_MOD_STRIP", "INSTALL_MOD_PATH",
	"INSTALL_PATH", "INSTALLKERNEL", "SOURCE_DATE_EPOCH", "CHECK", "CF", "O", "M", "W",
	"C", "srctree", "objtree", "KERNELRELEASE", "KERNELVERSION", NULL,
};

static const char *const refused_prefixes[] = {"KBUILD_", "KCONFIG_", NULL};

bool kbuild_env_refused(const char *name)
{
	for (const char *const *r = refused; *r; r++)
		if (!strcmp(*r, name))
			return true;
	for (const char *const *p = refused_prefixes; *p; p++)
		if (!strncmp(name, *p, strlen(*p)))
			return true;
	return false;
}

int kbuild_env_check(char *err, size_t errsz)
{
	for (char **e = environ; *e; e++) {
		char name[256];
		size_t len = strcspn(*e, "=");
		if (len >= sizeof(name) || !(*e)[len])
			continue;
		memcpy(name, *e, len);
		name[len] = '\0';
		if (!kbuild_env_refused(name))
			continue;
		if (!strncmp(name, "KBUILD_BUILD_", 13) || !strcmp(name, "SOURCE_DATE_EPOCH"))
			return err_printf(err, errsz, "environment variable %s is set: the rig sets it"
					  " itself from the build key, so that two builds of one key"
					  " give the same image; unset it", *e);
		return err_printf(err, errsz, "environment variable %s is set: a kernel build does not"
				  " take it from the environment (the build key would not see it);"
				  " write it in the kernels: entry as make_args: [\"%s\"], or unset"
				  " it", *e, *e);
	}
	return 0;
}

void kbuild_env_base(struct argv *keyed, struct argv *passed)
{
	static const char *const pass[] = {"HOME", "CCACHE_DIR", "CCACHE_DISABLE", NULL};
	argv_add(keyed, "PATH=" KBUILD_PATH);
	argv_add(keyed, "LC_ALL=C");
	argv_add(keyed, "TZ=UTC");
	for (const char *const *p = pass; *p; p++) {
		const char *v = getenv(*p);
		if (v)
			argv_addf(passed, "%s=%s", *p, v);
	}
}

void kbuild_env_repro(const char *key, struct argv *out)
{
	argv_add(out, "KBUILD_BUILD_TIMESTAMP=2025-01-01 00:00:00 UTC");
	argv_add(out, "SOURCE_DATE_EPOCH=1735689600");
	argv_add(out, "KBUILD_BUILD_USER=schedrig");
	argv_addf(out, "KBUILD_BUILD_HOST=k%.12s", key);
	argv_add(out, "KBUILD_BUILD_VERSION=1");
}
