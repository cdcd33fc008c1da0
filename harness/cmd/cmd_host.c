/* schedrig host: this machine's fingerprint (hostfp.h), every field with
 * the file it was read from, and the settings that would make it quieter
 * for scheduler measurements (hostadvice.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdopts.h"
#include "commands.h"
#include "hostadvice.h"
#include "hostfp.h"

static const char usage_text[] =
	"usage: schedrig host [--root DIR] [--advice]\n"
	"\n"
	"Print this machine's host state as every run records it (schedrig show):\n"
	"the cpufreq governor and limits, boost, SMT, idle states and their exit\n"
	"latencies, the CPU latency limit in force, THP, NUMA balancing, autogroup\n"
	"and the other kernel.sched_* sysctls, the debugfs scheduler tunables and\n"
	"sched_features, isolcpus/nohz_full/rcu_nocbs, IRQ affinity, clocksource,\n"
	"microcode, topology, memory, the kernel config's hash, irqbalance and\n"
	"tuned: each field, its value (\"absent\" where this machine has no such\n"
	"file, \"unreadable: ERRNO\" where it cannot be read) and where it was read.\n"
	"Then the settings that would make the machine quieter (a config's host:\n"
	"section applies them for a run and puts them back).\n"
	"\n"
	"  --root DIR  read the tree under DIR (holding sys/, proc/, dev/, boot/)\n"
	"              instead of this machine's\n"
	"  --advice    the advice only\n"
	"\n"
	"Exit status: 0, 2 bad usage or a --root that is not a directory.\n";

int cmd_host(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* CMD_NO_STORE */
	static const struct option longopts[] = {
		{"root", required_argument, NULL, 'r'},
		{"advice", no_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct cmd_value_flag o = {.value = "/"}; /* --root DIR, --advice */
	const struct cmd_optspec spec = {
		.shortopts = "", .longopts = longopts, .usage = usage_text, .report_getopt = 1,
		.on = cmd_value_flag_option, .ctx = &o,
	};
	int rc = cmd_parse(argc, argv, &spec);
	if (rc >= 0)
		return rc;
	if (cmd_operands(argc, 0, 0, usage_text))
		return EXIT_USAGE;
	const char *root = o.value;
	bool advice_only = o.flag;
	/* A tree that is not there would read as a machine with nothing. */
	struct stat st;
	int e = stat(root, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (e) {
		fprintf(stderr, "schedrig host: --root %s: %s\n", root, strerror(e));
		return EXIT_USAGE;
	}
	struct host_fp fp;
	struct argv advice = {0};
	hostfp_read(root, &fp);
	if (!advice_only) {
		printf("host state%s%s:\n", strcmp(root, "/") ? " of " : "",
		       strcmp(root, "/") ? root : "");
		for (size_t i = 0; i < fp.n; i++)
			printf("  %-40s %s  [%s]%s\n", fp.v[i].field, fp.v[i].value, fp.v[i].source,
			       fp.v[i].stable ? "" : " (changes by itself)");
		printf("\n");
	}
	hostadvice(&fp, &advice);
	printf("advice:%s\n", advice.n ? "" : " none: nothing here is known to add noise");
	for (size_t i = 0; i < advice.n; i++)
		printf("  - %s\n", advice.v[i]);
	argv_free(&advice);
	hostfp_free(&fp);
	return 0;
}
