/* hostfp_read (hostfp.h): the groups of fields (hostfp_*.c) in their
 * order, debugfs mounted around them on the running system. Apart from
 * hostfp.c, whose helpers the groups call, so no file circle. */
#include "hostfp.h"
#include "hostfp_impl.h"

#include <stdbool.h>
#include <string.h>

#include "knob_paths.h"

void hostfp_read(const char *root, struct host_fp *fp)
{
	struct hf_ctx c = {.root = root, .live = !strcmp(root, "/") || !*root, .fp = fp};
	bool mounted = false;
	char err[256];

	memset(fp, 0, sizeof(*fp));
	if (c.live)
		c.root = "";
	/* The scheduler's debugfs files, where the knobs' code finds them. */
	if (c.live && knobs_debugfs_mount(&mounted, err, sizeof(err)))
		mounted = false;
	hf_read_kernel(&c);
	hf_read_cpu(&c);
	hf_read_power(&c);
	hf_read_memory(&c);
	hf_read_sched(&c);
	hf_read_irq(&c);
	if (mounted)
		knobs_debugfs_unmount();
}
