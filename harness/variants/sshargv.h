/* OpenSSH client command lines for boot: ssh, built as argv (no local
 * shell). The remote side always runs the command through the login user's
 * shell, so every word of a remote command is quoted for a POSIX shell:
 * wrapped in single quotes, an embedded single quote written '\'' (POSIX
 * XCU 2.2.2: within single quotes every character is literal except the
 * closing quote). Words with a line break are refused (a NUL cannot occur
 * in a C string): a remote shell must never see a config value as syntax. */
#ifndef SCHEDRIG_SSHARGV_H
#define SCHEDRIG_SSHARGV_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Append word to out quoted for a POSIX shell (util.h buf_sh_quote).
 * Returns 0, or -1 when word holds '\n' or '\r' (out unchanged). */
int sh_quote_word(struct buf *out, const char *word);

/* The remote command line for ssh: the n words quoted with sh_quote_word,
 * separated by one space. Returns a new string, or NULL with err naming the
 * refused word. */
char *ssh_remote_command(char *const *words, size_t n, char *err, size_t errsz);

/* Where and how to connect. */
struct ssh_target {
	const char *host;          /* name or address; required */
	int port;                  /* 1..65535 */
	const char *user;          /* NULL: ssh's default (config, local user) */
	const char *identity;      /* private key file; NULL: ssh's defaults */
	const char *control_path;  /* ControlPath of the shared connection, with ssh's
				    * % tokens (%C): a literal '%' written "%%"
				    * (ssh_percent_escape); NULL: no connection sharing */
	bool strict_host_key;      /* true: StrictHostKeyChecking=yes */
	const char *known_hosts;   /* !strict_host_key: UserKnownHostsFile to accept
				    * new keys into (StrictHostKeyChecking=accept-new) */
	const char *config;        /* ssh -F FILE; NULL: the user's ~/.ssh/config */
	/* identity, known_hosts and config are file names as they are: add_options
	 * writes them as ssh_config(5) wants them. */
	int connect_timeout_s;     /* ConnectTimeout; 0: ssh's default */
};

/* s with every '%' doubled: a literal '%' in a value ssh expands % tokens
 * in (ControlPath, IdentityFile, UserKnownHostsFile; ssh_config(5) TOKENS).
 * Returns a new string. */
char *ssh_percent_escape(const char *s);

/* Check the target's strings: host and user non-empty, not starting with
 * '-' (ssh would take them for options), and no control characters or
 * whitespace; identity, control_path, known_hosts and config free of control
 * characters (line breaks included), and the first three also of '"', '\'
 * and '\'': ssh_config(5) values may be double-quoted (a blank or '#'
 * needs it) but ssh's quoting of those characters differs between OpenSSH
 * versions, so such a path is refused. Returns 0 or -1 with err naming
 * the path and the character. */
int ssh_target_check(const struct ssh_target *t, char *err, size_t errsz);

/* Append to a: "ssh", the options for t (-F, -p, -l, -i with
 * IdentitiesOnly=yes, BatchMode=yes, StrictHostKeyChecking, ControlMaster=auto
 * + ControlPath + ControlPersist=60, ConnectTimeout, ServerAliveInterval=10
 * ServerAliveCountMax=6, LogLevel=ERROR), "--", the host and, when n > 0,
 * the remote command of the n words (ssh_remote_command). Paths go as
 * ssh_config(5) reads them: '%' doubled where ssh expands tokens (-i,
 * UserKnownHostsFile), and an -o value with a blank or '#' in double
 * quotes. Returns 0, or -1 with err (a refused word; a is then incomplete:
 * free it). */
int ssh_argv(struct argv *a, const struct ssh_target *t, char *const *words, size_t n, char *err,
	     size_t errsz);

/* Append to a: "ssh", the options for t, "-O", op ("check", "exit") and
 * the host: a request to the shared connection's master process. */
void ssh_control_argv(struct argv *a, const struct ssh_target *t, const char *op);

#endif
