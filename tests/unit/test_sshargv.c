/* Remote command quoting and ssh argv for boot: ssh (sshargv.h): quoted
 * words against hand-written expectations, a round trip of hostile words
 * through a real /bin/sh (what the remote login shell does with the
 * command), refusal of line breaks and option-like hosts, and the exact
 * argv ssh gets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sshargv.h"

static void test_quote_words(void **state)
{
	static const char *const vec[][2] = {
		{"plain", "'plain'"},
		{"", "''"},
		{"it's", "'it'\\''s'"},
		{"'", "''\\'''"},
		{"$(reboot) `id` $HOME; rm -rf / & | > <", "'$(reboot) `id` $HOME; rm -rf / & | > <'"},
		{"a\\b\"c", "'a\\b\"c'"},
		{"tab\there", "'tab\there'"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		struct buf b = {0};
		assert_int_equal(sh_quote_word(&b, vec[i][0]), 0);
		assert_string_equal(buf_str(&b), vec[i][1]);
		buf_free(&b);
	}
}

static void test_line_breaks_refused(void **state)
{
	struct buf b = {0};
	char err[256];
	char *words[] = {"echo", "two\nlines"};
	(void)state;
	assert_int_equal(sh_quote_word(&b, "a\nb"), -1);
	assert_int_equal(sh_quote_word(&b, "a\rb"), -1);
	assert_int_equal(b.len, 0);
	assert_null(ssh_remote_command(words, 2, err, sizeof(err)));
	assert_non_null(strstr(err, "word 1"));
	assert_non_null(strstr(err, "line break"));
}

/* Run "sh -c CMD" and return what it printed. */
static char *run_sh(const char *cmd)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	struct buf out = {0};
	char chunk[4096];
	ssize_t n;
	while ((n = read(p[0], chunk, sizeof(chunk))) > 0)
		buf_append(&out, chunk, (size_t)n);
	close(p[0]);
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char *r = xstrdup(buf_str(&out));
	buf_free(&out);
	return r;
}

static void test_round_trip_through_sh(void **state)
{
	char *words[] = {"printf", "<%s>", "it's", "$(touch /tmp/schedrig-pwned)", "`id`",
			 "$HOME", "a b  c", "*", "", "'\"'\"'", "\\", "; exit 3", "-n"};
	char err[256];
	(void)state;
	char *cmd = ssh_remote_command(words, sizeof(words) / sizeof(words[0]), err, sizeof(err));
	assert_non_null(cmd);
	char *out = run_sh(cmd);
	assert_string_equal(out, "<it's><$(touch /tmp/schedrig-pwned)><`id`><$HOME><a b  c><*><>"
			    "<'\"'\"'><\\><; exit 3><-n>");
	assert_int_equal(access("/tmp/schedrig-pwned", F_OK), -1);
	free(out);
	free(cmd);
}

static void test_ssh_argv_layout(void **state)
{
	struct ssh_target t = {
		.host = "box.example", .port = 2222, .user = "root", .identity = "/k/id x",
		.control_path = "/run/d/ssh-%C", .strict_host_key = true, .connect_timeout_s = 10,
	};
	char *words[] = {"uname", "-r"};
	struct argv a = {0};
	char err[256];
	(void)state;
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), 0);
	assert_int_equal(ssh_argv(&a, &t, words, 2, err, sizeof(err)), 0);
	char *r = argv_render(&a);
	assert_string_equal(r, "ssh -p 2222 -l root -i '/k/id x' -o IdentitiesOnly=yes"
			    " -o BatchMode=yes -o StrictHostKeyChecking=yes -o ControlMaster=auto"
			    " -o 'ControlPath=/run/d/ssh-%C' -o ControlPersist=60 -o ConnectTimeout=10"
			    " -o ServerAliveInterval=10 -o ServerAliveCountMax=6 -o LogLevel=ERROR"
			    " -- box.example ''\\''uname'\\'' '\\''-r'\\'''");
	/* The remote command is one argument. */
	assert_string_equal(a.v[a.n - 1], "'uname' '-r'");
	assert_string_equal(a.v[a.n - 2], "box.example");
	assert_string_equal(a.v[a.n - 3], "--");
	free(r);
	argv_free(&a);

	t.strict_host_key = false;
	t.known_hosts = "/run/d/v-known_hosts";
	t.control_path = NULL;
	t.identity = NULL;
	t.user = NULL;
	t.connect_timeout_s = 0;
	ssh_control_argv(&a, &t, "exit");
	r = argv_render(&a);
	assert_string_equal(r, "ssh -p 2222 -o BatchMode=yes -o StrictHostKeyChecking=accept-new"
			    " -o UserKnownHostsFile=/run/d/v-known_hosts -o ServerAliveInterval=10"
			    " -o ServerAliveCountMax=6 -o LogLevel=ERROR -O exit -- box.example");
	free(r);
	argv_free(&a);
}

/* Paths with a blank or '%' (a --db directory such as "my runs" or "100%"):
 * '%' doubled where ssh expands tokens, blanks inside double quotes
 * (ssh_config(5)); quotes and backslashes refused. ssh -G (OpenSSH's own
 * parser) reads the options back to the literal paths. */
static void test_paths_for_ssh(void **state)
{
	char *ctl_dir = ssh_percent_escape("/r d/100%x");
	char *ctl = xasprintf("%s/ssh-%%C", ctl_dir);
	struct ssh_target t = {
		.host = "127.0.0.1", .port = 22, .identity = "/k/%h id", .control_path = ctl,
		.strict_host_key = false, .known_hosts = "/r d/100%x/v-known_hosts",
	};
	struct argv a = {0};
	char err[256];
	(void)state;
	assert_string_equal(ctl_dir, "/r d/100%%x");
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), 0);
	ssh_control_argv(&a, &t, "check");
	char *r = argv_render(&a);
	assert_string_equal(r, "ssh -p 22 -i '/k/%%h id' -o IdentitiesOnly=yes -o BatchMode=yes"
			    " -o StrictHostKeyChecking=accept-new"
			    " -o 'UserKnownHostsFile=\"/r d/100%%x/v-known_hosts\"'"
			    " -o ControlMaster=auto -o 'ControlPath=\"/r d/100%%x/ssh-%C\"'"
			    " -o ControlPersist=60 -o ServerAliveInterval=10 -o ServerAliveCountMax=6"
			    " -o LogLevel=ERROR -O check -- 127.0.0.1");
	free(r);
	/* What ssh makes of them: ssh -G prints the configuration it parsed. */
	struct argv g = {0};
	for (size_t i = 0; i < a.n; i++) {
		if (!strcmp(a.v[i], "-O")) {
			argv_add(&g, "-G");
			i++;
			continue;
		}
		argv_add(&g, a.v[i]);
	}
	struct buf cmd = {0};
	for (size_t i = 0; i < g.n; i++) {
		sh_quote_word(&cmd, g.v[i]);
		buf_puts(&cmd, " ");
	}
	buf_puts(&cmd, "2>&1 </dev/null");
	FILE *f = popen(buf_str(&cmd), "r");
	assert_non_null(f);
	char line[1024];
	int seen = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "userknownhostsfile ", 19)) {
			assert_string_equal(line + 19, "/r d/100%x/v-known_hosts");
			seen++;
		}
		if (!strncmp(line, "controlpath ", 12)) {
			/* %C expanded to a hash, the literal directory kept */
			assert_int_equal(strncmp(line + 12, "/r d/100%x/ssh-", 15), 0);
			assert_int_equal(strlen(line + 12 + 15), 40);
			seen++;
		}
	}
	pclose(f);
	assert_int_equal(seen, 2);
	buf_free(&cmd);
	argv_free(&g);
	argv_free(&a);

	t.known_hosts = "/r\"d/kh";
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "holds \", which ssh cannot be given reliably"));
	free(ctl_dir);
	free(ctl);
}

static void test_target_check(void **state)
{
	char err[256];
	(void)state;
	struct ssh_target t = {.host = "-oProxyCommand=touch /tmp/x", .port = 22};
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "start with '-'"));
	t.host = "good";
	t.user = "a b";
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "whitespace"));
	t.user = "-l";
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), -1);
	t.user = "ok";
	t.identity = "/k\nProxyCommand x";
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "identity"));
	t.identity = NULL;
	t.port = 0;
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), -1);
	t.port = 65535;
	assert_int_equal(ssh_target_check(&t, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_words),
		cmocka_unit_test(test_line_breaks_refused),
		cmocka_unit_test(test_round_trip_through_sh),
		cmocka_unit_test(test_ssh_argv_layout),
		cmocka_unit_test(test_target_check),
		cmocka_unit_test(test_paths_for_ssh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
