/* libFuzzer target: the config loader (yamlnode + config + plan) on arbitrary
 * bytes. Properties checked besides the sanitizers: a refused config yields
 * exactly one line "fuzz.yaml:LINE:COL: message" with LINE, COL >= 1; an
 * accepted one expands into a plan or is refused the same way.
 * Build and run: make fuzz-build; make fuzz (tests/fuzz/run-fuzz). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "plan.h"

/* Abort (a libFuzzer crash) unless err is "fuzz.yaml:L:C: text" on one line. */
static void check_message(const char *err)
{
	int line = 0, col = 0, used = 0;
	if (sscanf(err, "fuzz.yaml:%d:%d: %n", &line, &col, &used) != 2 || used == 0 ||
	    line < 1 || col < 1 || !err[used] || strchr(err, '\n')) {
		fprintf(stderr, "bad error message: '%s'\n", err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";
	/* An exact-size copy, not NUL-terminated: reads past len are caught. */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	struct experiment *e = config_parse("fuzz.yaml", text, size, err, sizeof(err));
	free(text);
	if (!e) {
		check_message(err);
		return 0;
	}
	struct plan p;
	if (plan_build(e, &p, err, sizeof(err)) == 0)
		plan_free(&p);
	else
		check_message(err);
	experiment_free(e);
	return 0;
}
