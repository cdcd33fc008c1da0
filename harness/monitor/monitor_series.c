/* The monitor's series and points, grown as the files are sampled
 * (monitor_series.h). */
#include "monitor_series.h"

#include <errno.h>
#include <unistd.h>

void mon_grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	*p = xrealloc(*p, c * size);
	*cap = c;
}

const char *mon_read_fd(struct monitor *m, int fd)
{
	for (;;) {
		ssize_t n = pread(fd, m->rbuf, m->rcap - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return NULL;
		if ((size_t)n < m->rcap - 1) {
			m->rbuf[n] = '\0';
			return m->rbuf;
		}
		m->rcap *= 2;
		m->rbuf = xrealloc(m->rbuf, m->rcap);
	}
}

uint32_t mon_add_series(struct monitor *m, const char *monitor, const char *const *keys,
			size_t n, int cpu, int pid, int tgid)
{
	mon_grow((void **)&m->series, &m->cap_series, m->n_series + n, sizeof(*m->series));
	uint32_t first = (uint32_t)m->n_series;
	for (size_t i = 0; i < n; i++)
		m->series[m->n_series++] = (struct stored_series){
			.monitor = monitor, .key = keys[i], .cpu = cpu, .pid = pid, .tgid = tgid};
	return first;
}

void mon_add_point(struct monitor *m, uint32_t series, double t_ms, double value)
{
	if (m->n_points == m->cap_points)
		mon_grow((void **)&m->points, &m->cap_points, m->n_points + 1, sizeof(*m->points));
	m->points[m->n_points++] = (struct stored_point){series, t_ms, value};
}
