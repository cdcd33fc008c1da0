/* What would make a machine quieter for scheduler measurements, read from
 * its fingerprint (hostfp.h), in the spirit of mmtests' --performance and
 * monitors and of rteval's and rt-tests' advice: each advice names what it
 * saw and the host: setting (or boot parameter) that fixes it. */
#ifndef SCHEDRIG_HOSTADVICE_H
#define SCHEDRIG_HOSTADVICE_H

#include "hostfp.h"
#include "util.h"

/* One line per advice into advice, in this order: the cpufreq governor
 * not performance; turbo/boost on; SMT on (for latency work); idle states
 * deeper than 10 us exit latency enabled with no CPU latency limit held;
 * irqbalance or tuned running; THP always; NUMA balancing on over more
 * than one node; no isolated CPUs on four or more; a clocksource other
 * than tsc; autogroup on; load averages above a quarter of the online
 * CPUs. Returns how many. */
size_t hostadvice(const struct host_fp *fp, struct argv *advice);

#endif
