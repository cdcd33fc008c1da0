/* What a qemu guest gets for a plan (guestpack.h). */
#include "guestpack.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "spawn.h"
#include "variant.h"

/* Append load and its problem (fmt with one %s, what) to problems. */
static void missing(struct argv *problems, const char *load, const char *fmt, const char *what)
{
	argv_add(problems, load);
	argv_addf(problems, fmt, what);
}

static void add_file(struct guest_contents *gc, const char *host, const char *guest, bool program)
{
	for (size_t i = 0; i < gc->n_files; i++)
		if (!strcmp(gc->files[i].guest, guest))
			return;
	gc->files = xrealloc(gc->files, (gc->n_files + 1) * sizeof(*gc->files));
	gc->files[gc->n_files++] = (struct guest_file){xstrdup(host), xstrdup(guest), program};
}

/* A directory (host set) or a link (target set) at dest: relative on the
 * disk, or absolute (on the disk without its leading '/', bind-mounted
 * there). Directories are kept before links. */
static void add_tree(struct guest_contents *gc, const char *host, const char *dest,
		     const char *target)
{
	const char *rel = dest;
	while (*rel == '/')
		rel++;
	for (size_t i = 0; i < gc->n_trees; i++)
		if (!strcmp(gc->trees[i].rel, rel))
			return;
	gc->trees = xrealloc(gc->trees, (gc->n_trees + 1) * sizeof(*gc->trees));
	size_t at = gc->n_trees++;
	if (host)
		while (at > 0 && gc->trees[at - 1].target) {
			gc->trees[at] = gc->trees[at - 1];
			at--;
		}
	gc->trees[at] = (struct guest_tree){
		.host = host ? xstrdup(host) : NULL, .rel = xstrdup(rel),
		.bind = host && dest[0] == '/' ? xstrdup(dest) : NULL,
		.target = target ? xstrdup(target) : NULL,
	};
	gc->scratch = true;
}

/* The argv[0] tools of the plan, at GUEST_TOOLS/TOOL (or their own
 * path when the config names one). */
static void collect_tools(const struct plan *p, struct guest_contents *gc, struct argv *msgs)
{
	struct argv tools = {0}, loads = {0};
	char host[PATH_MAX];

	variant_plan_tools(p, &tools, &loads);
	for (size_t i = 0; i < tools.n; i++) {
		const char *tool = tools.v[i];
		if (spawn_which(tool, NULL, host, sizeof(host))) {
			missing(msgs, loads.v[i], "tool '%s' is not installed here, so it cannot go"
				" into the guest", tool);
			continue;
		}
		char *guest = strchr(tool, '/') ? xstrdup(tool) : xasprintf("%s/%s", GUEST_TOOLS, tool);
		add_file(gc, host, guest, true);
		free(guest);
	}
	argv_free(&tools);
	argv_free(&loads);
}

/* The fixed needs of one driver (load_ops.needs). */
static void collect_needs(const struct load_ops *ops, const char *load, struct guest_contents *gc,
			  struct argv *msgs)
{
	char host[PATH_MAX];
	struct stat st;

	for (const char *const *prog = ops->needs.programs; prog && *prog; prog++) {
		const char *names[] = {*prog, NULL};
		if (!proc_find_program(names, host, sizeof(host)))
			missing(msgs, load, "program '%s' is not installed here, so it cannot go into"
				" the guest", *prog);
		else
			add_file(gc, host, host, true);
	}
	for (const char *const *f = ops->needs.files; f && *f; f++) {
		if (stat(*f, &st))
			missing(msgs, load, "%s is not here, so it cannot go into the guest", *f);
		else
			add_file(gc, *f, *f, false);
	}
	gc->scratch |= ops->needs.scratch;
	gc->host_usr |= ops->needs.host_usr;
}

/* What one instance adds for its parameters (guest_needs). */
static void collect_extra(const struct plan_instance *pi, bool prepare, struct guest_contents *gc,
			  struct argv *msgs)
{
	struct guest_extra g = {0};
	char why[1024];
	struct stat st;

	if (pi->load->ops->guest_needs(&pi->params, prepare, &g, why, sizeof(why))) {
		missing(msgs, pi->load->name, "%s", why);
	} else {
		for (size_t i = 0; i < g.files.n; i++) {
			if (stat(g.files.v[i], &st))
				missing(msgs, pi->load->name, "%s is not here, so it cannot go into"
					" the guest", g.files.v[i]);
			else
				add_file(gc, g.files.v[i], g.files.v[i], false);
		}
		for (size_t i = 0; i + 1 < g.trees.n; i += 2)
			add_tree(gc, g.trees.v[i], g.trees.v[i + 1], NULL);
		for (size_t i = 0; i + 1 < g.links.n; i += 2)
			add_tree(gc, NULL, g.links.v[i], g.links.v[i + 1]);
	}
	argv_free(&g.files);
	argv_free(&g.trees);
	argv_free(&g.links);
}

int guestpack_collect(const struct plan *p, bool prepare, struct guest_contents *gc,
		      struct argv *msgs)
{
	size_t before = msgs->n;
	const struct load_ops **seen = NULL;
	size_t n_seen = 0;

	memset(gc, 0, sizeof(*gc));
	collect_tools(p, gc, msgs);
	for (size_t c = 0; c < p->n_cells; c++) {
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			const struct plan_instance *pi = &p->cells[c].inst[i];
			const struct load_ops *ops = pi->load->ops;
			bool known = false;
			for (size_t k = 0; k < n_seen && !known; k++)
				known = seen[k] == ops;
			if (!known) {
				seen = xrealloc(seen, (n_seen + 1) * sizeof(*seen));
				seen[n_seen++] = ops;
				collect_needs(ops, pi->load->name, gc, msgs);
			}
			if (ops->guest_needs)
				collect_extra(pi, prepare, gc, msgs);
		}
	}
	free(seen);
	return msgs->n > before ? -1 : 0;
}

const char *guestpack_load_needing(const struct plan *p, bool scratch)
{
	for (size_t c = 0; c < p->n_cells; c++)
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			const struct load_ops *ops = p->cells[c].inst[i].load->ops;
			if (scratch ? ops->needs.scratch : ops->needs.host_usr)
				return p->cells[c].inst[i].load->name;
		}
	return NULL;
}

/* The interpreter of a #! script ("" when host_path is none), into interp. */
static void script_interpreter(const char *host_path, char *interp, size_t size)
{
	char line[PATH_MAX + 8] = "";
	FILE *f = fopen(host_path, "r");
	interp[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && line[0] == '#' && line[1] == '!') {
		char *p = line + 2;
		p += strspn(p, " \t");
		p[strcspn(p, " \t\r\n")] = '\0';
		snprintf(interp, size, "%s", p);
	}
	fclose(f);
}

bool guestpack_needs_shell(const struct guest_contents *gc)
{
	char interp[PATH_MAX], why[256];
	if (gc->scratch || gc->host_usr)
		return true;
	for (size_t i = 0; i < gc->n_files; i++) {
		const struct guest_file *f = &gc->files[i];
		if (f->program && elf_interpreter(f->host, interp, sizeof(interp), why, sizeof(why))) {
			script_interpreter(f->host, interp, sizeof(interp));
			if (interp[0])
				return true;
		}
	}
	return false;
}

/* A program: an ELF file with its libraries, or a script with its
 * interpreter (busybox is the guest's /bin/sh). */
static int add_program(struct initramfs *ir, const struct guest_file *f, char *err, size_t errsz)
{
	char interp[PATH_MAX], why[256];
	if (elf_interpreter(f->host, interp, sizeof(interp), why, sizeof(why)) == 0)
		return initramfs_add_program(ir, f->guest, f->host, err, errsz);
	script_interpreter(f->host, interp, sizeof(interp));
	if (!interp[0]) {
		snprintf(err, errsz, "%s is neither an ELF program nor a #! script", f->host);
		return -1;
	}
	if (initramfs_add_host_file(ir, f->guest, f->host, err, errsz))
		return -1;
	if (!strcmp(interp, "/bin/sh"))
		return 0;
	if (elf_interpreter(interp, why, sizeof(why), err, errsz)) {
		snprintf(err, errsz, "%s: its interpreter %s is not an ELF program here", f->host,
			 interp);
		return -1;
	}
	return initramfs_add_program(ir, interp, interp, err, errsz);
}

int guestpack_add(const struct guest_contents *gc, struct initramfs *ir, char *err, size_t errsz)
{
	for (size_t i = 0; i < gc->n_files; i++) {
		const struct guest_file *f = &gc->files[i];
		int rc = f->program ? add_program(ir, f, err, errsz) :
				      initramfs_add_host_tree(ir, f->guest, f->host, err, errsz);
		if (rc)
			return -1;
	}
	return 0;
}

void guestpack_binds(const struct guest_contents *gc, struct buf *out)
{
	for (size_t i = 0; i < gc->n_trees; i++) {
		if (!gc->trees[i].bind)
			continue;
		buf_printf(out, "%s/%s", GUEST_SCRATCH, gc->trees[i].rel);
		buf_append(out, "", 1);
		buf_puts(out, gc->trees[i].bind);
		buf_append(out, "", 1);
	}
}

void guestpack_free(struct guest_contents *gc)
{
	for (size_t i = 0; i < gc->n_files; i++) {
		free(gc->files[i].host);
		free(gc->files[i].guest);
	}
	for (size_t i = 0; i < gc->n_trees; i++) {
		free(gc->trees[i].host);
		free(gc->trees[i].rel);
		free(gc->trees[i].bind);
		free(gc->trees[i].target);
	}
	free(gc->files);
	free(gc->trees);
	memset(gc, 0, sizeof(*gc));
}
