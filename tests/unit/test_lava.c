/* boot: lava pieces without a lab: the job definition (lava_job_yaml) read
 * back with the rig's YAML reader, its timeouts against hand-computed
 * values, a hostile append: kept one scalar; LAVA job logs (lava_log_read)
 * in lava-server's and lava-run's form, with ShellLogger's quote escaping
 * undone exactly; ~/.netrc lookups (netrc_lookup). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "lava_job.h"
#include "lava_log.h"
#include "netrc.h"
#include "plan.h"
#include "yamlnode.h"

static const char config_text[] =
	"name: lt\n"
	"iterations: 3\n"
	"warmup_s: 1\n"
	"labs:\n"
	"  l: {url: 'http://127.0.0.1:8000/', artifacts: {dir: /a, url: 'file:///a/'}}\n"
	"variants:\n"
	"  - {name: q, boot: lava, lab: l, device_type: qemu, kernel: /k, timeout_s: 200,\n"
	"     append: 'x=a: b #c', tags: [nps1, big]}\n"
	"  - {name: z, boot: lava, lab: l, device_type: x86-zen3, boot_method: ipxe,\n"
	"     kernel: /k, timeout_s: 200}\n"
	"loads:\n"
	"  - {name: hb, tool: hackbench, role: background, repeat: true, timeout_s: 100,\n"
	"     params: {groups: [1, 2]}}\n"
	"  - {name: ct, tool: cyclictest, timeout_s: 50, params: {duration_s: 1}}\n";

/* The value at a path of mapping keys and sequence indexes ("#N"). */
static const struct ynode *at(const struct ynode *n, const char *const *path)
{
	for (; n && *path; path++)
		n = **path == '#' ? (n->kind == YNODE_SEQUENCE && (size_t)atoi(*path + 1) < n->n ?
				     n->items[atoi(*path + 1)] : NULL) :
				    ynode_get(n, *path);
	return n;
}

static const char *text_at(const struct ynode *root, const char *const *path)
{
	const struct ynode *n = at(root, path);
	return n && n->kind == YNODE_SCALAR ? n->text : "(missing)";
}

/* The job of variant v read back. */
static struct ydoc *job_of(size_t v, struct experiment **ep, struct plan *p)
{
	char err[512];
	struct experiment *e = config_parse("lt.yaml", config_text, strlen(config_text), err,
					    sizeof(err));
	assert_non_null(e);
	assert_int_equal(plan_build(e, p, err, sizeof(err)), 0);
	struct variant_run vr = {.e = e, .v = &e->variants[v], .p = p, .iterations = 3};
	struct buf yaml = {0};
	assert_int_equal(lava_job_yaml(&vr, "file:///a/k", "file:///a/i.cpio", &yaml, err,
				       sizeof(err)), 0);
	struct ydoc *d = ydoc_parse("job", buf_str(&yaml), yaml.len, err, sizeof(err));
	if (!d)
		fail_msg("%s\n%s", err, buf_str(&yaml));
	buf_free(&yaml);
	*ep = e;
	return d;
}

static void test_job_qemu(void **state)
{
	struct experiment *e;
	struct plan p = {0};
	struct ydoc *d = job_of(0, &e, &p);
	const struct ynode *r = ydoc_root(d);
	(void)state;
	assert_string_equal(text_at(r, (const char *[]){"device_type", NULL}), "qemu");
	assert_string_equal(text_at(r, (const char *[]){"job_name", NULL}), "schedrig lt q");
	assert_string_equal(text_at(r, (const char *[]){"tags", "#1", NULL}), "big");
	assert_string_equal(text_at(r, (const char *[]){"context", "arch", NULL}), "amd64");
	/* 2 cells x 3 iterations, each at most hb's 100 s + warmup 1 + grace 5:
	 * test 200 + 6 * 106 = 836; job 600 + 200 + 836 + 300; connection the
	 * agent's silence limit 200 + 106. */
	assert_string_equal(text_at(r, (const char *[]){"timeouts", "job", "seconds", NULL}), "1936");
	assert_string_equal(text_at(r, (const char *[]){"timeouts", "action", "seconds", NULL}),
			    "836");
	assert_string_equal(text_at(r, (const char *[]){"timeouts", "connection", "seconds", NULL}),
			    "306");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#0", "deploy", "to", NULL}),
			    "tmpfs");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#0", "deploy", "images", "kernel",
							 "image_arg", NULL}),
			    "-kernel {kernel} -no-reboot -append \"console=ttyS0,115200 panic=-1 "
			    "loglevel=1 cryptomgr.notests x=a: b #c\"");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#0", "deploy", "images", "initrd",
							 "url", NULL}),
			    "file:///a/i.cpio");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#1", "boot", "method", NULL}),
			    "qemu");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#2", "test", "timeout", "seconds",
							 NULL}),
			    "836");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#2", "test", "monitors", "#0",
							 "end", NULL}),
			    "schedrig-init: agent exit status");
	ydoc_free(d);
	plan_free(&p);
	experiment_free(e);
}

static void test_job_tftp(void **state)
{
	struct experiment *e;
	struct plan p = {0};
	struct ydoc *d = job_of(1, &e, &p);
	const struct ynode *r = ydoc_root(d);
	(void)state;
	assert_string_equal(text_at(r, (const char *[]){"device_type", NULL}), "x86-zen3");
	assert_null(at(r, (const char *[]){"tags", NULL}));
	assert_string_equal(text_at(r, (const char *[]){"context", "extra_kernel_args", NULL}),
			    "panic=-1 loglevel=1");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#0", "deploy", "to", NULL}),
			    "tftp");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#0", "deploy", "images", "kernel",
							 "type", NULL}),
			    "bzimage");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#0", "deploy", "images", "ramdisk",
							 "url", NULL}),
			    "file:///a/i.cpio");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#1", "boot", "method", NULL}),
			    "ipxe");
	assert_string_equal(text_at(r, (const char *[]){"actions", "#1", "boot", "commands", NULL}),
			    "ramdisk");
	ydoc_free(d);
	plan_free(&p);
	experiment_free(e);
}

static void test_lab_urls_trimmed(void **state)
{
	char err[512];
	struct experiment *e = config_parse("lt.yaml", config_text, strlen(config_text), err,
					    sizeof(err));
	(void)state;
	assert_non_null(e);
	assert_string_equal(e->labs[0].url, "http://127.0.0.1:8000");
	assert_string_equal(e->labs[0].artifacts_url, "file:///a");
	assert_null(e->labs[0].token_env);
	assert_ptr_equal(e->variants[1].lab, &e->labs[0]);
	assert_string_equal(e->variants[0].boot_method, "qemu");
	experiment_free(e);
}

/* ShellLogger: '"' -> '\"', nothing else of that kind. */
static void test_unescape(void **state)
{
	static const char *const vec[][2] = {
		{"plain", "plain"},
		{"{\\\"type\\\":\\\"end\\\"}", "{\"type\":\"end\"}"},
		/* a backslash before a quote in the device's line: \" became \\" */
		{"a\\\\\"b", "a\\\"b"},
		{"back\\slash", "back\\slash"},
		{"\\\\\\\"", "\\\\\""},
		{"", ""},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		char out[64];
		lava_log_unescape(vec[i][0], strlen(vec[i][0]), out);
		assert_string_equal(out, vec[i][1]);
	}
}

struct lines {
	char text[8][128];
	size_t n;
};

static void collect(void *ctx, const char *line, size_t len)
{
	struct lines *l = ctx;
	assert_true(l->n < 8);
	assert_int_equal(strlen(line), len);
	snprintf(l->text[l->n++], sizeof(l->text[0]), "%s", line);
}

/* The same entries as lava-server stores them and as lava-run prints them. */
static const char server_log[] =
	"- {\"dt\": \"2026-12-02T01:27:14.16\", \"lvl\": \"info\", \"msg\": \"start: 0 validate\"}\n"
	"- {\"dt\": \"2026-12-02T01:27:28.24\", \"lvl\": \"target\", \"msg\": \"{\\\\\\\"type\\\\\\\":"
	"\\\\\\\"hello\\\\\\\"}\"}\n"
	"- {\"dt\": \"2026-12-02T01:27:28.25\", \"lvl\": \"target\", \"msg\": ! \"592\"}\n"
	"- {\"dt\": \"2026-12-02T01:27:29.00\", \"lvl\": \"target\", \"msg\": \"[    1.0] Kernel panic"
	" - not syncing: Attempted to kill init!\"}\n"
	"- {\"dt\": \"2026-12-02T01:27:30.00\", \"lvl\": \"results\", \"msg\": {\"case\": \"job\","
	" \"definition\": \"lava\", \"error_msg\": \"lava test monitoring reached end of file\","
	" \"error_type\": \"Infrastructure\", \"extra\": {\"a\": [1, 2]}, \"result\": \"fail\"}}\n";

/* lava_log_read of text, through a memory stream. */
static int read_text(const char *text, struct lines *l, struct lava_log_facts *f, char *err,
		     size_t errsz)
{
	FILE *m = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(m);
	int rc = lava_log_read(m, collect, l, f, err, errsz);
	fclose(m);
	return rc;
}

static void check_log(const char *text)
{
	struct lines l = {0};
	struct lava_log_facts f;
	char err[256];
	assert_int_equal(read_text(text, &l, &f, err, sizeof(err)), 0);
	assert_int_equal(f.entries, 5);
	assert_int_equal(l.n, 3);
	assert_int_equal(f.target_lines, 3);
	assert_string_equal(l.text[0], "{\"type\":\"hello\"}");
	assert_string_equal(l.text[1], "592");
	assert_string_equal(f.panic, "Kernel panic - not syncing: Attempted to kill init!");
	assert_string_equal(f.job_result, "fail");
	assert_string_equal(f.error_type, "Infrastructure");
	assert_string_equal(f.error_msg, "lava test monitoring reached end of file");
}

static void test_log_server(void **state)
{
	(void)state;
	check_log(server_log);
}

static void test_log_lava_run(void **state)
{
	struct buf b = {0};
	(void)state;
	for (const char *p = server_log; *p; p++)
		if (!(p[0] == '-' && p[1] == ' ' && (p == server_log || p[-1] == '\n')) &&
		    !(p[0] == ' ' && p > server_log && p[-1] == '-' &&
		      (p - 1 == server_log || p[-2] == '\n')))
			buf_append(&b, p, 1);
	assert_int_equal(buf_str(&b)[0], '{');
	check_log(buf_str(&b));
	buf_free(&b);
}

static void test_log_refused(void **state)
{
	struct lines l = {0};
	struct lava_log_facts f;
	char err[256];
	(void)state;
	assert_int_equal(read_text("a: b\n", &l, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "1:1: a LAVA job log is a list of entries");
	assert_int_equal(read_text("- [\n", &l, &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "2:1: "));
}

static void test_netrc(void **state)
{
	char path[] = "/tmp/schedrig-netrc.XXXXXX", pw[64];
	int fd = mkstemp(path);
	static const char text[] =
		"machine other login u password nope\n"
		"macdef init\nmachine lava.example.org password macro\n\n"
		"machine LAVA.example.org login schedrig password \"s3 cr\\\"et\"\n"
		"default login anon password anything\n";
	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(netrc_lookup(path, "lava.example.org", NULL, pw, sizeof(pw)), 0);
	assert_string_equal(pw, "s3 cr\"et");
	assert_int_equal(netrc_lookup(path, "lava.example.org", "schedrig", pw, sizeof(pw)), 0);
	assert_int_equal(netrc_lookup(path, "x.example.org", NULL, pw, sizeof(pw)), 0);
	assert_string_equal(pw, "anything");
	assert_int_equal(netrc_lookup(path, "x.example.org", "nobody", pw, sizeof(pw)), -1);
	unlink(path);
	assert_int_equal(netrc_lookup(path, "lava.example.org", NULL, pw, sizeof(pw)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_qemu),
		cmocka_unit_test(test_job_tftp),
		cmocka_unit_test(test_lab_urls_trimmed),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_log_server),
		cmocka_unit_test(test_log_lava_run),
		cmocka_unit_test(test_log_refused),
		cmocka_unit_test(test_netrc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
