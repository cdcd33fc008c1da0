/* Package and label revisions of a run's variants (revisions.h). */
#include "revisions.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "guest_image.h"
#include "store_revision.h"
#include "util.h"

int revision_label_ok(const char *text)
{
	size_t n = strlen(text);
	if (n == 0 || n > REVISION_LABEL_MAX)
		return 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return utf8_valid(text, n); /* JSON and kcidb carry it as a string */
}

static bool has_revision(const struct stored_revision *rows, size_t n, const char *variant)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].variant, variant))
			return true;
	return false;
}

/* var's revision when its kernel: is a package (0, r's strings malloc'd),
 * 1 when it is not, -1 when its .deb cannot be read (the variant's boot
 * fails on it and says why). */
static int package_revision(const struct cfg_variant *var, struct stored_revision *r)
{
	char why[512];
	if (!var->kernel || var->build || (var->boot != BOOT_QEMU && var->boot != BOOT_LAVA))
		return 1;
	int rc = guest_kernel_package(var->kernel, &r->source, &r->revision, why, sizeof(why));
	if (rc == 0)
		r->kind = REVISION_PACKAGE;
	return rc;
}

int revisions_record(struct store *st, int64_t run_id, const struct experiment *e,
		     const char *only, const char *label, char *err, size_t errsz)
{
	struct stored_revision *have;
	size_t n_have;
	if (store_revision_list(st, run_id, &have, &n_have, err, errsz))
		return -1;
	int rc = 0;
	for (size_t v = 0; v < e->n_variants && !rc; v++) {
		const struct cfg_variant *var = &e->variants[v];
		if ((only && strcmp(only, var->name)) || has_revision(have, n_have, var->name))
			continue;
		struct stored_revision r = {.variant = var->name};
		int pkg = package_revision(var, &r);
		if (pkg == 0 || (pkg == 1 && label)) {
			if (pkg) {
				r.kind = REVISION_LABEL;
				r.revision = xstrdup(label);
			}
			rc = store_revision_record(st, run_id, &r, err, errsz);
		}
		free(r.revision);
		free(r.source);
	}
	store_revision_rows_free(have, n_have);
	return rc;
}
