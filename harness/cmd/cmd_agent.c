/* schedrig agent PLANFILE: the agent (agent_run.h), as schedrig-agent
 * runs it where a variant's kernel runs; here for a plan file at hand. */
#include "agent_run.h"
#include "cmdsetup.h"
#include "commands.h"

int cmd_agent(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no set-up: CMD_NO_STORE */
	return agent_command("schedrig agent", argc, argv);
}
