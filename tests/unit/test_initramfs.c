/* Kernel modules into a guest's initramfs (initramfs_add_modules): a
 * compressed module (.ko.xz, as Debian's 6.12 packages ship them) goes in
 * decompressed under its .ko name, after the modules its .modinfo says it
 * depends on; and a host directory goes in with what is below it. The
 * modules are real ELF objects made here by gcc with a .modinfo section. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initramfs.h"

static char dir[] = "/tmp/schedrig-initramfs.XXXXXX";

/* An ELF object at path whose .modinfo holds "depends=DEPS". */
static void make_module(const char *path, const char *deps)
{
	char *c = NULL, *cmd = NULL;
	assert_true(asprintf(&c, "%s.c", path) > 0);
	FILE *f = fopen(c, "w");
	assert_non_null(f);
	fprintf(f, "__attribute__((section(\".modinfo\"), used)) static const char info[] ="
		   " \"license=GPL\\0depends=%s\";\n", deps);
	fclose(f);
	assert_true(asprintf(&cmd, "gcc -c -o %s -x c %s", path, c) > 0);
	assert_int_equal(system(cmd), 0);
	unlink(c);
	free(c);
	free(cmd);
}

static bool has_path(const struct initramfs *ir, const char *path)
{
	for (size_t i = 0; i < ir->n_paths; i++)
		if (!strcmp(ir->paths[i], path))
			return true;
	return false;
}

static void test_compressed_modules(void **state)
{
	(void)state;
	if (system("command -v gcc >/dev/null && command -v xz >/dev/null")) {
		skip();
		return;
	}
	assert_non_null(mkdtemp(dir));
	char *kdir = NULL, *a = NULL, *b = NULL, *cmd = NULL;
	assert_true(asprintf(&kdir, "%s/kernel/fs", dir) > 0);
	assert_true(asprintf(&a, "%s/a-mod.ko", kdir) > 0);
	assert_true(asprintf(&b, "%s/b_dep.ko", kdir) > 0);
	assert_true(asprintf(&cmd, "mkdir -p %s", kdir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	make_module(a, "b_dep");
	make_module(b, "");
	assert_true(asprintf(&cmd, "xz %s", a) > 0); /* a-mod.ko.xz, as Debian's */
	assert_int_equal(system(cmd), 0);
	free(cmd);

	struct initramfs ir = {0};
	struct argv order = {0};
	const char *names[] = {"a_mod", "missing_builtin"};
	char err[512];
	assert_int_equal(initramfs_add_modules(&ir, dir, "/lib/modules/g", names, 2, &order, err,
					       sizeof(err)), 0);
	/* Dependencies first; the compressed one under its .ko name. */
	assert_int_equal(order.n, 2);
	assert_string_equal(order.v[0], "/lib/modules/g/kernel/fs/b_dep.ko");
	assert_string_equal(order.v[1], "/lib/modules/g/kernel/fs/a-mod.ko");
	assert_true(has_path(&ir, "lib/modules/g/kernel/fs/a-mod.ko"));
	assert_false(has_path(&ir, "lib/modules/g/kernel/fs/a-mod.ko.xz"));
	/* Its bytes went in decompressed: the .modinfo text is in the archive. */
	assert_non_null(memmem(ir.data.data, ir.data.len, "depends=b_dep", 13));
	argv_free(&order);
	initramfs_free(&ir);

	/* A directory with what is below it, a link kept a link. */
	assert_true(asprintf(&cmd, "ln -s fs %s/kernel/alias", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(initramfs_add_host_tree(&ir, "/data", dir, err, sizeof(err)), 0);
	assert_true(has_path(&ir, "data/kernel/fs/b_dep.ko"));
	assert_true(has_path(&ir, "data/kernel/fs/a-mod.ko.xz"));
	assert_true(has_path(&ir, "data/kernel/alias"));
	initramfs_free(&ir);
	assert_int_equal(initramfs_add_host_tree(&ir, "/x", "/nonexistent/dir", err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/dir: No such file or directory");
	initramfs_free(&ir);

	assert_true(asprintf(&cmd, "rm -rf %s", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(kdir);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compressed_modules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
