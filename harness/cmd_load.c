/* schedrig loads: the driver catalog. schedrig load NAME ...: run a built-in
 * load (the runner execs this for tools Debian does not ship). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "load.h"

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

int cmd_loads(int argc, char **argv)
{
	size_t n;
	const struct load_ops *const *all = load_all(&n);

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: schedrig loads [TOOL]\n\nList load drivers with where they run and what they"
		     " need there,\ntheir parameters and metrics.");
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

int cmd_load(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fputs("usage: schedrig load NAME [--PARAM VALUE]...\n\nRun a built-in load:", stdout);
		size_t n;
		const struct load_ops *const *all = load_all(&n);
		for (size_t i = 0; i < n; i++)
			if (all[i]->builtin_main)
				printf(" %s", all[i]->name);
		puts("");
		return argc < 2 ? EXIT_USAGE : 0;
	}
	const struct load_ops *o = load_find(argv[1]);
	if (!o || !o->builtin_main) {
		fprintf(stderr, "schedrig load: '%s' is not a built-in load\n", argv[1]);
		return EXIT_USAGE;
	}
	return o->builtin_main(argc - 1, argv + 1);
}
