/* What a qemu guest gets for a plan (guestpack.h): every load tool at
 * /opt/schedrig/bin, what each load declares (oltp's MariaDB and sysbench
 * programs and data, dbench's load file, the scratch disk), problems named
 * by load; the guest's bind list and how the agent applies it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "config.h"
#include "guest_binds.h"
#include "guestpack.h"
#include "plan.h"

static struct experiment *plan_of(const char *text, struct plan *p)
{
	char err[1024];
	struct experiment *e = config_parse("t.yaml", text, strlen(text), err, sizeof(err));
	if (!e)
		fail_msg("%s", err);
	if (plan_build(e, p, err, sizeof(err)))
		fail_msg("%s", err);
	return e;
}

static const struct guest_file *file_at(const struct guest_contents *gc, const char *guest)
{
	for (size_t i = 0; i < gc->n_files; i++)
		if (!strcmp(gc->files[i].guest, guest))
			return &gc->files[i];
	return NULL;
}

static void test_collect(void **state)
{
	(void)state;
	char loadfile[] = "/tmp/schedrig-loadfile.XXXXXX", host[4096];
	int fd = mkstemp(loadfile);
	assert_true(fd >= 0);
	close(fd);
	const char *names[] = {"dbench", NULL}, *server[] = {"mariadbd", NULL};
	if (!proc_find_program(names, host, sizeof(host)) ||
	    !proc_find_program(server, host, sizeof(host))) {
		unlink(loadfile);
		skip();
	}
	char *text = NULL;
	assert_true(asprintf(&text, "name: g\nloads:\n"
			     "  - {name: db, tool: dbench, params: {loadfile: %s}}\n"
			     "  - {name: ol, tool: oltp}\n"
			     "  - {name: rr, tool: tcp-rr, role: background}\n", loadfile) > 0);
	struct plan p;
	struct experiment *e = plan_of(text, &p);
	struct guest_contents gc;
	struct argv problems = {0};
	assert_int_equal(guestpack_collect(&p, false, &gc, &problems), 0);
	assert_int_equal(problems.n, 0);
	/* dbench's tool at the guest's tool directory, as a program. */
	assert_true(proc_find_program(names, host, sizeof(host)));
	const struct guest_file *f = file_at(&gc, "/opt/schedrig/bin/dbench");
	assert_non_null(f);
	assert_string_equal(f->host, host);
	assert_true(f->program);
	/* Its load file, as it is. */
	f = file_at(&gc, loadfile);
	assert_non_null(f);
	assert_false(f->program);
	/* oltp: the server where it is here, its data and the scratch disk. */
	assert_true(proc_find_program(server, host, sizeof(host)));
	f = file_at(&gc, host);
	assert_non_null(f);
	assert_true(f->program);
	assert_non_null(file_at(&gc, "/usr/share/mysql"));
	assert_non_null(file_at(&gc, "/usr/share/sysbench"));
	assert_true(gc.scratch);
	assert_false(gc.host_usr);
	assert_string_equal(guestpack_load_needing(&p, true), "ol");
	assert_null(guestpack_load_needing(&p, false));
	/* tcp-rr is this schedrig: nothing else. */
	assert_null(file_at(&gc, "/opt/schedrig/bin/schedrig"));
	guestpack_free(&gc);
	plan_free(&p);
	experiment_free(e);
	free(text);
	unlink(loadfile);
}

static void test_problems(void **state)
{
	(void)state;
	struct plan p;
	struct experiment *e = plan_of("name: g\nloads:\n"
				       "  - {name: sb, tool: sockperf, role: background}\n"
				       "  - {name: db, tool: dbench, params: {loadfile: /nonexistent/x.txt}}\n"
				       "  - {name: rel, tool: dbench, params: {loadfile: x.txt}}\n", &p);
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	setenv("PATH", "/nonexistent", 1);
	struct guest_contents gc;
	struct argv problems = {0};
	assert_int_equal(guestpack_collect(&p, false, &gc, &problems), -1);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	/* Pairs of load and problem, in plan order (tools first). */
	assert_int_equal(problems.n, 8);
	assert_string_equal(problems.v[0], "sb");
	assert_string_equal(problems.v[1], "tool 'sockperf' is not installed here, so it cannot go into"
			    " the guest");
	assert_string_equal(problems.v[2], "db");
	assert_string_equal(problems.v[3], "tool 'dbench' is not installed here, so it cannot go into"
			    " the guest");
	assert_string_equal(problems.v[4], "db");
	assert_string_equal(problems.v[5], "/nonexistent/x.txt is not here, so it cannot go into the guest");
	assert_string_equal(problems.v[6], "rel");
	assert_string_equal(problems.v[7], "dbench: loadfile x.txt must be an absolute path to go into a guest");
	argv_free(&problems);
	guestpack_free(&gc);
	plan_free(&p);
	experiment_free(e);
}

static void test_binds(void **state)
{
	(void)state;
	struct guest_tree trees[] = {
		{.host = "/h/a", .rel = "srv/a", .bind = "/srv/a"},
		{.host = "/h/b", .rel = "cache/b"},
		{.rel = "cache/link", .target = "/srv/a"},
	};
	struct guest_contents gc = {.trees = trees, .n_trees = 3};
	struct buf b = {0};
	guestpack_binds(&gc, &b);
	static const char want[] = "/scratch/srv/a\0/srv/a";
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.data, want, sizeof(want));
	buf_free(&b);
	char err[256];
	assert_int_equal(guest_binds_apply("/nonexistent/binds", err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_binds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
