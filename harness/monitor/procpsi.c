/* Parser of the pressure stall information files /proc/pressure/{cpu,io,memory}. */
#include "procfs.h"

#include "procscan.h"

/* " avg10=0.00 avg60=0.00 avg300=0.00 total=0" after "some"/"full". */
static bool read_psi_line(const char *p, struct psi_line *l)
{
	static const char *const names[] = {"avg10=", "avg60=", "avg300=", "total="};
	double *avg[] = {&l->avg10_pct, &l->avg60_pct, &l->avg300_pct};

	for (int i = 0; i < 4; i++) {
		p = scan_blank(p);
		size_t n = strlen(names[i]);
		if (strncmp(p, names[i], n))
			return false;
		p += n;
		if (i < 3 ? !scan_decimal(&p, avg[i]) : !scan_u64(&p, &l->total_us))
			return false;
	}
	l->present = true;
	return true;
}

int proc_psi_parse(const char *text, struct proc_psi *psi)
{
	*psi = (struct proc_psi){0};
	for (const char *line = text; *line; line = scan_next_line(line)) {
		if (scan_word(line, "some"))
			read_psi_line(line + 4, &psi->some);
		else if (scan_word(line, "full"))
			read_psi_line(line + 4, &psi->full);
	}
	return psi->some.present ? 0 : -1;
}
