/* A variant's traces, where its plan runs (boot: local in the rig, qemu
 * and ssh in the agent): the config's trace: (config.h trace_all) turned
 * into one trace_capture for the backend's run, journalled as a knob
 * (trace_knob.h), and armed for each iteration the trace names, into
 * DIR/trace-VARIANT-cCELL-itITERATION.txt (cell 1-based, as the rig's other
 * files of a run). The runner does the rest (runner_set_trace). */
#ifndef SCHEDRIG_TRACE_VARIANT_H
#define SCHEDRIG_TRACE_VARIANT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "knobs.h"
#include "trace_capture.h"
#include "trace_knob.h"

struct trace_variant {
	const struct cfg_trace *spec;  /* NULL: the config traces nothing */
	struct trace_capture *tc;
	struct trace_knob kt;
	char dir[PATH_MAX];
	const char *variant;
};

/* Open e's trace for variant (its name, kept by pointer) of run run_id in
 * dir (where the iterations' trace files go): nothing when e traces
 * nothing; else the instance "schedrig-RUN-PID" journalled through journal
 * (may be NULL) as row seq, the knob lock taken unless hold_lock is false
 * (the variant's knobs hold it), the capture opened. 0, or -1 with err
 * (tracefs, an event this kernel lacks, the buffer, the journal). */
int trace_variant_open(struct trace_variant *tv, const struct experiment *e, const char *variant,
		       int64_t run_id, const char *dir, const struct knob_journal_ops *journal,
		       int seq, bool hold_lock, char *err, size_t errsz);

/* Before iteration it (1-based) of cell c (0-based): arm the capture when
 * the trace names the iteration. 0, or -1 with err (the file). */
int trace_variant_arm(struct trace_variant *tv, size_t c, int it, char *err, size_t errsz);

/* The capture for runner_set_trace (NULL when nothing is traced). */
struct trace_capture *trace_variant_capture(const struct trace_variant *tv);

/* Take the instance down and free what tv holds. 0, or -1 with err (the
 * instance stays journalled for schedrig restore). */
int trace_variant_close(struct trace_variant *tv, char *err, size_t errsz);

#endif
