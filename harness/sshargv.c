/* OpenSSH client command lines (sshargv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sshargv.h"

int sh_quote_word(struct buf *out, const char *word)
{
	if (strpbrk(word, "\n\r"))
		return -1;
	buf_append(out, "'", 1);
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			buf_puts(out, "'\\''");
		else
			buf_append(out, p, 1);
	}
	buf_append(out, "'", 1);
	return 0;
}

char *ssh_remote_command(char *const *words, size_t n, char *err, size_t errsz)
{
	struct buf b = {0};

	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_append(&b, " ", 1);
		if (sh_quote_word(&b, words[i])) {
			snprintf(err, errsz, "remote command word %zu ('%.100s...') holds a line break",
				 i, words[i]);
			buf_free(&b);
			return NULL;
		}
	}
	char *r = xstrdup(buf_str(&b));
	buf_free(&b);
	return r;
}

static int check_name(const char *what, const char *s, char *err, size_t errsz)
{
	if (!s[0] || s[0] == '-') {
		snprintf(err, errsz, "%s '%.200s' must not be empty or start with '-'", what, s);
		return -1;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == 0x7f) {
			snprintf(err, errsz, "%s '%.200s' holds whitespace or a control character",
				 what, s);
			return -1;
		}
	}
	return 0;
}

static int check_path(const char *what, const char *s, char *err, size_t errsz)
{
	if (s && strpbrk(s, "\n\r")) {
		snprintf(err, errsz, "%s holds a line break", what);
		return -1;
	}
	return 0;
}

int ssh_target_check(const struct ssh_target *t, char *err, size_t errsz)
{
	if (!t->host) {
		snprintf(err, errsz, "no host");
		return -1;
	}
	if (t->port < 1 || t->port > 65535) {
		snprintf(err, errsz, "port %d is not in 1..65535", t->port);
		return -1;
	}
	return check_name("host", t->host, err, errsz) ||
	       (t->user && check_name("user", t->user, err, errsz)) ||
	       check_path("identity", t->identity, err, errsz) ||
	       check_path("the control path", t->control_path, err, errsz) ||
	       check_path("the known_hosts file", t->known_hosts, err, errsz) ||
	       check_path("the ssh config file", t->config, err, errsz) ? -1 : 0;
}

static void add_opt(struct argv *a, const char *fmt, const char *value)
{
	argv_add(a, "-o");
	argv_addf(a, fmt, value);
}

static void add_options(struct argv *a, const struct ssh_target *t)
{
	argv_add(a, "ssh");
	if (t->config) {
		argv_add(a, "-F");
		argv_add(a, t->config);
	}
	argv_add(a, "-p");
	argv_addf(a, "%d", t->port);
	if (t->user) {
		argv_add(a, "-l");
		argv_add(a, t->user);
	}
	if (t->identity) {
		argv_add(a, "-i");
		argv_add(a, t->identity);
		add_opt(a, "%s", "IdentitiesOnly=yes");
	}
	add_opt(a, "%s", "BatchMode=yes");
	if (t->strict_host_key) {
		add_opt(a, "%s", "StrictHostKeyChecking=yes");
	} else {
		add_opt(a, "%s", "StrictHostKeyChecking=accept-new");
		if (t->known_hosts)
			add_opt(a, "UserKnownHostsFile=%s", t->known_hosts);
	}
	if (t->control_path) {
		add_opt(a, "%s", "ControlMaster=auto");
		add_opt(a, "ControlPath=%s", t->control_path);
		add_opt(a, "%s", "ControlPersist=60");
	}
	if (t->connect_timeout_s > 0) {
		argv_add(a, "-o");
		argv_addf(a, "ConnectTimeout=%d", t->connect_timeout_s);
	}
	add_opt(a, "%s", "ServerAliveInterval=10");
	add_opt(a, "%s", "ServerAliveCountMax=6");
	add_opt(a, "%s", "LogLevel=ERROR");
}

int ssh_argv(struct argv *a, const struct ssh_target *t, char *const *words, size_t n, char *err,
	     size_t errsz)
{
	char *cmd = NULL;

	if (n && !(cmd = ssh_remote_command(words, n, err, errsz)))
		return -1;
	add_options(a, t);
	argv_add(a, "--");
	argv_add(a, t->host);
	if (cmd)
		argv_add(a, cmd);
	free(cmd);
	return 0;
}

void ssh_control_argv(struct argv *a, const struct ssh_target *t, const char *op)
{
	add_options(a, t);
	argv_add(a, "-O");
	argv_add(a, op);
	argv_add(a, "--");
	argv_add(a, t->host);
}
