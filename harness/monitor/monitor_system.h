/* The monitor's system-wide /proc files (monitor_system.c): stat,
 * schedstat, loadavg, pressure. Private to harness/monitor/. */
#ifndef SCHEDRIG_MONITOR_SYSTEM_H
#define SCHEDRIG_MONITOR_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor_series.h"

/* Make room for CPU numbers below need in every per-CPU array. */
void mon_grow_cpus(struct monitor *m, size_t need);

/* Open the system files under proc_root (stat is required: -1 with err
 * when it cannot be read; loadavg, pressure/ and schedstat get a note in
 * m->notes when absent or unreadable). Returns 0 or -1. */
int mon_system_open(struct monitor *m, const char *proc_root, char *err, size_t errsz);

/* /proc/stat into m->st_cur, /proc/schedstat into m->ss_cur (the per-CPU
 * arrays grow to fit). Returns 0 or -1. */
int mon_read_stat(struct monitor *m);
int mon_read_schedstat(struct monitor *m);

/* Forget the system series and previous reads (an iteration begins). */
void mon_system_reset(struct monitor *m);

/* Sample the system files at now (mono_ns); emit false only for the
 * baseline at the iteration's start (no points: rates need two reads). */
void mon_sample_system(struct monitor *m, int64_t now, bool emit);

#endif
