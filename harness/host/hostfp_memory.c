/* The memory fields of a fingerprint: its size and transparent hugepages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostfp_impl.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* A THP setting: the mode in brackets ("always [madvise] never"). */
static void thp_field(const struct hf_ctx *c, const char *field, const char *rel)
{
	char text[256], mode[64], why[64];
	int e = hf_read(c, rel, text, sizeof(text));
	hf_bracketed(text, mode, sizeof(mode));
	hostfp_add(c->fp, field, rel, true, "%s", e ? hf_why(e, why, sizeof(why)) : mode);
}

void hf_read_memory(const struct hf_ctx *c)
{
	char text[8192], why[64];
	int e = hf_read(c, "/proc/meminfo", text, sizeof(text));
	const char *total = e ? NULL : strstr(text, "MemTotal:");
	long long kb = total ? strtoll(total + 9, NULL, 10) : 0;
	if (total && kb > 0)
		hostfp_add(c->fp, "mem.total_kb", "/proc/meminfo", true, "%lld", kb);
	else
		hostfp_add(c->fp, "mem.total_kb", "/proc/meminfo", true, "%s",
			   e ? hf_why(e, why, sizeof(why)) : "unreadable: no MemTotal line");
	thp_field(c, "thp.enabled", THP_DIR "/enabled");
	thp_field(c, "thp.defrag", THP_DIR "/defrag");
}
