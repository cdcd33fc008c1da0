/* The agent program the backends put where a variant's kernel runs:
 * schedrig-agent (Makefile AGENT_SRC), packed into a guest's initramfs
 * (boot: qemu, boot: lava) or copied to an ssh machine. It is the one
 * beside this schedrig (build/, or the bindir make install filled), and it
 * must speak this schedrig's agent protocol: a stale one is refused before
 * anything boots, naming both versions. */
#ifndef SCHEDRIG_AGENT_BINARY_H
#define SCHEDRIG_AGENT_BINARY_H

#include <stddef.h>

/* schedrig-agent in the directory of self_exe into path (size bytes),
 * once `schedrig-agent version` said it speaks AGENT_PROTO_VERSION
 * ("schedrig-agent VERSION (agent protocol N)"). Returns 0, or -1 with err:
 * missing, not runnable, or "PATH speaks agent protocol N (schedrig-agent
 * V), this schedrig speaks M (schedrig W): ...". */
int agent_binary_find(const char *self_exe, char *path, size_t size, char *err, size_t errsz);

#endif
