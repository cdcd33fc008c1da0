/* The guardian: a child of the rig, started once by runner_init, that
 * outlives the rig. When the rig dies, even by SIGKILL, it SIGKILLs the
 * process groups of the loads still running and empties the loads'
 * cgroups (loadcg): PR_SET_PDEATHSIG only reaches the rig's direct
 * children, the guardian reaches what they started. The rig tells it
 * through a socket which process groups live. */
#ifndef SCHEDRIG_GUARDIAN_H
#define SCHEDRIG_GUARDIAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Start the guardian (a function child, spawn.h) with the rig's signal
 * mask: call it with SIGINT and the like blocked, so that a Ctrl-C to the
 * terminal's process group does not end it. Returns 0, or -1 with err
 * ("cannot start the guardian: ..."). */
int guardian_start(char *err, size_t errsz);

/* Tell the guardian that process group pgid started (started true) or is
 * gone. Nothing before guardian_start or once the guardian is gone (the
 * rig goes on without it). */
void guardian_note(bool started, pid_t pgid);

/* The guardian's pid, 0 before guardian_start: a child of the rig that
 * sweeps of its children must leave alone. */
pid_t guardian_pid(void);

#endif
