/* ~/.netrc (netrc.h). */
#include "netrc.h"

#include <ctype.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util.h"

char *netrc_path(void)
{
	const char *home = getenv("HOME");
	struct passwd *pwd = home ? NULL : getpwuid(geteuid());
	return xasprintf("%s/.netrc", home ? home : pwd ? pwd->pw_dir : "");
}

/* The next white-space separated token of a netrc file into tok (a
 * "quoted" one without its quotes, a backslash escaping the next
 * character); false at the end of the file. */
static bool netrc_token(FILE *f, char *tok, size_t size)
{
	int ch;
	size_t n = 0;
	while ((ch = fgetc(f)) != EOF && isspace(ch))
		;
	if (ch == EOF)
		return false;
	if (ch == '"') {
		while ((ch = fgetc(f)) != EOF && ch != '"') {
			if (ch == '\\' && (ch = fgetc(f)) == EOF)
				break;
			if (n + 1 < size)
				tok[n++] = (char)ch;
		}
	} else {
		do {
			if (n + 1 < size)
				tok[n++] = (char)ch;
		} while ((ch = fgetc(f)) != EOF && !isspace(ch));
	}
	tok[n] = '\0';
	return true;
}

int netrc_lookup(const char *path, const char *host, const char *user, char *password,
		 size_t size)
{
	FILE *f = fopen(path, "r");
	char tok[1024], line[1024], pw[1024] = "";
	bool ours = false, login = !user, has_pw = false, found = false;

	if (!f)
		return -1;
	while (!found && netrc_token(f, tok, sizeof(tok))) {
		if (!strcmp(tok, "machine") || !strcmp(tok, "default")) {
			found = ours && login && has_pw;
			if (found)
				break;
			ours = !strcmp(tok, "default") ||
			       (netrc_token(f, tok, sizeof(tok)) && !strcasecmp(tok, host));
			login = !user;
			has_pw = false;
		} else if (!strcmp(tok, "login")) {
			login = netrc_token(f, tok, sizeof(tok)) && (!user || !strcmp(tok, user));
		} else if (!strcmp(tok, "password")) {
			has_pw = netrc_token(f, pw, sizeof(pw));
		} else if (!strcmp(tok, "macdef")) {
			if (fgets(line, sizeof(line), f))
				while (fgets(line, sizeof(line), f) && strcmp(line, "\n"))
					;
		}
	}
	found = found || (ours && login && has_pw);
	fclose(f);
	if (found && password)
		snprintf(password, size, "%s", pw);
	memset(pw, 0, sizeof(pw));
	return found ? 0 : -1;
}
