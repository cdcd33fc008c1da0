/* sysbench's oltp_read_write report as the oltp built-in reads it: see
 * oltp_report.h. */
#include "oltp_report.h"

#include <string.h>

#include "scan.h"
#include "util.h"

/* "N (X per sec.)" after a label: a count and a rate, nothing else. */
static bool per_sec(const char *rest, unsigned long long *n, double *rate)
{
	struct fields fs;
	long long count;
	fields_split(&fs, rest);
	bool ok = fs.n == 4 && fs.f[1][0] == '(' && !strcmp(fs.f[2], "per") &&
		  !strcmp(fs.f[3], "sec.)") && parse_ll(fs.f[0], &count) && count >= 0 &&
		  parse_double(fs.f[1] + 1, rate) && *rate >= 0;
	fields_free(&fs);
	if (ok)
		*n = (unsigned long long)count;
	return ok;
}

int oltp_report_scan(FILE *f, const char *where, struct oltp_report *r, char *why, size_t whysz)
{
	static const char *const labels[] = {"transactions:", "queries:", "ignored errors:",
					     "reconnects:"};
	unsigned long long *counts[] = {&r->transactions, &r->queries, &r->errors, &r->reconnects};
	double other_rate, *rates[] = {&r->tps, &r->qps, &other_rate, &other_rate};
	bool have[5] = {false};
	bool in_latency = false;
	char line[1024];

	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "FATAL"))
			return parse_fail(why, whysz, "sysbench: %.300s", line);
		const char *rest;
		for (size_t i = 0; i < 4; i++)
			if ((rest = after_prefix(line, labels[i])))
				have[i] = per_sec(rest, counts[i], rates[i]);
		if (after_prefix(line, "Latency (ms):"))
			in_latency = true;
		else if (blank(line))
			in_latency = false;
		else if (in_latency && (rest = after_prefix(line, "95th percentile:")))
			have[4] = scan_value(rest, NULL, &r->p95);
	}
	const char *missing = !have[0] ? "transactions:" : !have[1] ? "queries:" :
			      !have[4] ? "95th percentile:" : NULL;
	if (missing)
		return parse_fail(why, whysz, "sysbench report without a valid %s line (%.400s)",
				  missing, where);
	return 0;
}
