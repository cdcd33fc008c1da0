/* schedrig loads: the driver catalog. schedrig load NAME ...: run a built-in
 * load (the runner execs this for tools Debian does not ship). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "guestpack.h"
#include "load.h"
#include "plan.h"
#include "variant.h"

static const char *type_name(const struct param_def *d)
{
	switch (d->type) {
	case PARAM_INT:
		return "int";
	case PARAM_UINT:
		return "uint";
	case PARAM_BOOL:
		return "bool";
	case PARAM_ENUM:
		return d->choices;
	case PARAM_STRING:
		return "string";
	}
	return "?";
}

/* "variants", "needs" and "in qemu" lines: where the driver runs and what
 * it needs there (load_ops.needs): installed on a local or ssh machine,
 * packed from this one into a qemu guest, which also gets what the last
 * line says. */
static void print_needs(const struct load_ops *o)
{
	struct buf b = {0};
	const char *sep = "";
	if (!o->builtin_main) {
		buf_printf(&b, "its tool");
		sep = "; ";
	}
	for (const char *const *p = o->needs.programs; p && *p; p++) {
		buf_printf(&b, "%s%s", p == o->needs.programs ? sep : ", ", *p);
		sep = "; ";
	}
	for (const char *const *f = o->needs.files; f && *f; f++) {
		buf_printf(&b, "%s%s", f == o->needs.files ? sep : ", ", *f);
		sep = "; ";
	}
	if (o->needs.note)
		buf_printf(&b, "%s%s", sep, o->needs.note);
	printf("  variants local, ssh (installed there), qemu (packed from here)\n");
	printf("  needs    %s\n", b.len ? buf_str(&b) : "nothing but schedrig");
	if (o->needs.host_usr || o->needs.scratch)
		printf("  in qemu  %s%s%s\n", o->needs.host_usr ? "this machine's /usr (virtio-9p)" : "",
		       o->needs.host_usr && o->needs.scratch ? ", " : "",
		       o->needs.scratch ? "a scratch disk (ext4, /scratch)" : "");
	buf_free(&b);
}

/* The "here" lines: what the driver at its default parameters misses on
 * this machine, found as preflight finds it (variant_check_local_tools for
 * boot: local, guestpack_collect for what a qemu guest gets packed), or that
 * nothing is missing. A boot: ssh machine needs it installed there. */
static void print_here(const struct load_ops *o)
{
	struct cfg_variant var = {.name = "here", .boot = BOOT_LOCAL};
	struct cfg_load ld = {.name = (char *)o->name, .ops = o, .role = ROLE_BACKGROUND,
			      .timeout_s = 600};
	struct experiment e = {.path = "schedrig loads", .name = "loads", .iterations = 1,
			       .min_iterations = 1, .variants = &var, .n_variants = 1, .loads = &ld,
			       .n_loads = 1};
	struct plan p = {0};
	struct guest_contents gc;
	struct argv problems = {0};
	char err[2048];

	if (plan_build(&e, &p, err, sizeof(err))) {
		printf("  here     not checked: %s\n", err);
		return;
	}
	bool local_ok = variant_check_local_tools(&e, &p, err, sizeof(err)) == 0;
	bool guest_ok = guestpack_collect(&p, false, &gc, &problems) == 0;
	if (!local_ok)
		printf("  here     boot: local cannot run it: %s\n", err);
	for (size_t i = 0; i + 1 < problems.n; i += 2)
		printf("  here     a qemu guest cannot get it: %s\n", problems.v[i + 1]);
	if (local_ok && guest_ok)
		printf("  here     installed: boot: local runs it, a qemu guest gets it packed\n");
	guestpack_free(&gc);
	argv_free(&problems);
	plan_free(&p);
}

int cmd_loads(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no set-up: CMD_NO_STORE */
	size_t n;
	const struct load_ops *const *all = load_all(&n);

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: schedrig loads [TOOL]\n\nList load drivers with where they run and what they"
		     " need there,\nwhat of it is missing on this machine (for boot: local and for"
		     " what a qemu\nguest gets packed, found as preflight finds it), their"
		     " parameters and metrics.");
		return 0;
	}
	if (argc > 2 || (argc == 2 && !load_find(argv[1]))) {
		fprintf(stderr, "schedrig loads: %s\n",
			argc > 2 ? "usage: schedrig loads [TOOL]" : "no such load (schedrig loads lists them)");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		const struct load_ops *o = all[i];
		if (argc > 1 && strcmp(argv[1], o->name))
			continue;
		printf("%s%s — %s\n", o->name, o->builtin_main ? " (built in)" : "", o->description);
		print_needs(o);
		print_here(o);
		for (size_t k = 0; k < o->n_params; k++)
			printf("  param  %-22s %-16s default %-8s %s\n", o->params[k].name,
			       type_name(&o->params[k]),
			       o->params[k].default_value ? o->params[k].default_value : "-",
			       o->params[k].help ? o->params[k].help : "");
		for (size_t k = 0; k < o->n_metrics; k++)
			printf("  metric %-22s %-16s %s is better\n", o->metrics[k].name,
			       o->metrics[k].unit, better_name(o->metrics[k].better));
	}
	return 0;
}

int cmd_load(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no set-up: CMD_NO_STORE */
	return load_builtin_command("schedrig load", argc, argv);
}
