/* OpenSSH client command lines (sshargv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sshargv.h"

int sh_quote_word(struct buf *out, const char *word)
{
	if (strpbrk(word, "\n\r"))
		return -1;
	buf_sh_quote(out, word);
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

/* No control character in s; with quotes false also no '"', '\\' or '\''
 * (a value ssh reads as ssh_config text, which may need double quotes). */
static int check_path(const char *what, const char *s, bool quotes, char *err, size_t errsz)
{
	for (const unsigned char *p = (const unsigned char *)s; s && *p; p++) {
		if (*p < ' ' || *p == 0x7f) {
			snprintf(err, errsz, "%s holds a line break or control character", what);
			return -1;
		}
		if (!quotes && strchr("\"\\'", *p)) {
			snprintf(err, errsz, "%s '%.200s' holds %c, which ssh cannot be given"
				 " reliably in an option value: use a path without it", what, s, *p);
			return -1;
		}
	}
	return 0;
}

char *ssh_percent_escape(const char *s)
{
	struct buf b = {0};
	for (; *s; s++)
		buf_puts(&b, *s == '%' ? "%%" : (char[]){*s, '\0'});
	char *r = xstrdup(buf_str(&b));
	buf_free(&b);
	return r;
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
	       check_path("identity", t->identity, false, err, errsz) ||
	       check_path("the control path", t->control_path, false, err, errsz) ||
	       check_path("the known_hosts file", t->known_hosts, false, err, errsz) ||
	       check_path("the ssh config file", t->config, true, err, errsz) ? -1 : 0;
}

static void add_opt(struct argv *a, const char *fmt, const char *value)
{
	argv_add(a, "-o");
	argv_addf(a, fmt, value);
}

/* -o NAME=VALUE with VALUE as ssh_config(5) reads it: double-quoted when it
 * holds a blank or '#' (ssh_target_check refused quotes and backslashes),
 * '%' doubled first when escape (a literal path in a value with tokens). */
static void add_path_opt(struct argv *a, const char *name, const char *value, bool escape)
{
	char *v = escape ? ssh_percent_escape(value) : xstrdup(value);
	bool quote = strpbrk(v, " \t#") != NULL;
	argv_add(a, "-o");
	argv_addf(a, "%s=%s%s%s", name, quote ? "\"" : "", v, quote ? "\"" : "");
	free(v);
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
		char *id = ssh_percent_escape(t->identity); /* -i expands % tokens too */
		argv_add(a, "-i");
		argv_add(a, id);
		free(id);
		add_opt(a, "%s", "IdentitiesOnly=yes");
	}
	add_opt(a, "%s", "BatchMode=yes");
	if (t->strict_host_key) {
		add_opt(a, "%s", "StrictHostKeyChecking=yes");
	} else {
		add_opt(a, "%s", "StrictHostKeyChecking=accept-new");
		if (t->known_hosts)
			add_path_opt(a, "UserKnownHostsFile", t->known_hosts, true);
	}
	if (t->control_path) {
		add_opt(a, "%s", "ControlMaster=auto");
		add_path_opt(a, "ControlPath", t->control_path, false);
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
