/* ~/.netrc, the file libcurl and ftp read credentials from (curl
 * lib/netrc.c; netrc(5)): "machine HOST login USER password PW" entries,
 * "default" for any host, "macdef" bodies skipped. */
#ifndef SCHEDRIG_NETRC_H
#define SCHEDRIG_NETRC_H

#include <stddef.h>

/* $HOME/.netrc, else the passwd entry's home, as libcurl looks (caller
 * frees). */
char *netrc_path(void);

/* The first entry of the netrc file path for host (compared
 * case-insensitively; "default" matches any) whose login is user (NULL:
 * any login) and which has a password: 0 with the password in password
 * (size bytes; NULL: not wanted), -1 when there is none or the file cannot
 * be read. libcurl sends from the file itself (CURLOPT_NETRC) but has no
 * call that only looks an entry up: it reads the file while it connects,
 * and without a password it goes on without one. A check made before
 * anything is sent, or a token sent in a header (LAVA's REST API), needs
 * this one. */
int netrc_lookup(const char *path, const char *host, const char *user, char *password,
		 size_t size);

#endif
