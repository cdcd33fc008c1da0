/* The agent program beside this schedrig (agent_binary.h). */
#include "agent_binary.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_proto.h"
#include "spawn.h"
#include "util.h"

/* What `schedrig-agent version` printed: its version (at most 63 bytes)
 * and protocol. 0, or -1 with err. */
static int ask_version(const char *path, char version[64], int *proto, char *err, size_t errsz)
{
	char *argv[] = {(char *)path, "version", NULL};
	struct spawn s = {.argv = argv, .in.kind = SPAWN_NULL, .out.kind = SPAWN_PIPE,
			  .err.kind = SPAWN_STDOUT, .text_max = 4096, .timeout_s = 30};
	if (spawn_run(&s, err, errsz))
		return -1;
	const char *text = buf_str(&s.out_text);
	int n = 0, rc = 0;
	if (!WIFEXITED(s.status) || WEXITSTATUS(s.status) ||
	    sscanf(text, "schedrig-agent %63s (agent protocol %d)%n", version, proto, &n) != 2 ||
	    !n) {
		rc = err_printf(err, errsz, "%s version did not say its agent protocol: %.200s", path,
				text);
	}
	spawn_free(&s);
	return rc;
}

int agent_binary_find(const char *self_exe, char *path, size_t size, char *err, size_t errsz)
{
	char *dir = xstrdup(self_exe), version[64];
	int proto;
	snprintf(path, size, "%s/schedrig-agent", dirname(dir));
	free(dir);
	if (access(path, X_OK))
		return err_printf(err, errsz, "%s: %s (schedrig-agent is built and installed beside"
				  " schedrig: make, make install)", path, strerror(errno));
	if (ask_version(path, version, &proto, err, errsz))
		return -1;
	if (proto != AGENT_PROTO_VERSION)
		return err_printf(err, errsz, "%s speaks agent protocol %d (schedrig-agent %s), this"
				  " schedrig speaks %d (schedrig " SCHEDRIG_VERSION "): build or install"
				  " the two together", path, proto, version, AGENT_PROTO_VERSION);
	return 0;
}
