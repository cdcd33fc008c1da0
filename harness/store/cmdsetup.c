/* The set-up main's command table asks for (cmdsetup.h): the results
 * database, opened once per command in the mode its entry names. */
#include <stdio.h>
#include <stdlib.h>

#include "cmdsetup.h"
#include "store.h"

struct store *cmd_store(struct cmd_ctx *ctx, const char *db)
{
	char err[1024];

	if (ctx->st || ctx->setup == CMD_NO_STORE)
		return ctx->st;
	if (store_open(db, ctx->setup == CMD_STORE_READ, &ctx->st, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", ctx->name, err);
		ctx->st = NULL;
	}
	return ctx->st;
}

int cmd_select_runs(struct cmd_ctx *ctx, const char *db, char *const *sel, size_t n,
		    int64_t **ids, size_t *n_ids)
{
	char err[1024];
	struct store *st = cmd_store(ctx, db);

	*ids = NULL;
	*n_ids = 0;
	if (!st)
		return 1;
	if (store_select_runs(st, sel, n, ids, n_ids, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", ctx->name, err);
		return 1;
	}
	return 0;
}
