/* harness/agent/: running a plan where a variant's kernel runs (a qemu
 * guest, an ssh machine): the protocol (agent_proto). The host side that
 * reads what the agent reports is harness/variants/agent_host.h, the agent
 * itself cmd_agent.
 */

/* The agent protocol: how a controlling host has a plan run where a
 * variant's kernel runs (a qemu guest, an ssh machine) and gets back what
 * the runner saw. One protocol for every backend.
 *
 * Version AGENT_PROTO_VERSION = 3 (2 added the "series" line, 3 the plan's
 * "run_id", the inst line's "window", the "trace", "trace_end" and "host"
 * lines and the end line's agent_cpu; every other line of version 1 is
 * unchanged). Both directions are JSON (jansson).
 *
 * Host -> agent: the plan file, one JSON object:
 *   {"schedrig_agent": 2,               protocol version (must match)
 *    "config_name": "configs/x.yaml",   the config's name in messages
 *    "config": "name: x\n...",          the config text, re-parsed with
 *                                       config_parse; plan_build on it gives
 *                                       the host's plan (deterministic)
 *    "variant": "v61",                  the variant whose knobs are applied
 *    "iterations": 3,
 *    "cells": ["default", ...],         cell names, checked against the plan
 *    "modules": ["/lib/modules/...ko"], kernel modules to load first, in order
 *    "run": [[0, 1], [0, 2], ...],      (cell 0-based, iteration 1-based), in order
 *    "run_id": 7}                       the run's id (its trace instance is
 *                                       schedrig-7); optional, default 0
 *
 * Agent -> host: a stream of lines, each one JSON object with "type":
 *   {"type":"hello","proto":2,"release":"6.1.0-x","cmdline":"console=...",
 *    "autogroup":1}
 *       first line: uname -r, /proc/cmdline and
 *       /proc/sys/kernel/sched_autogroup_enabled (-1: absent) where the
 *       agent runs; an agent without "autogroup" is read as -1.
 *   {"type":"host","fields":[{"field":"thp.enabled","value":"never",
 *     "source":"/sys/kernel/mm/transparent_hugepage/enabled","stable":true},...],
 *    "notes":["irq_affinity: /proc/irq/36/smp_affinity_list: ..."]}
 *       once, after the variant's knobs and host: settings are applied and
 *       before the first inst line: the fingerprint where the agent runs
 *       (hostfp.h: at most HOSTFP_FIELDS_MAX fields, names hostfp_valid_name
 *       and each once, values and sources plain text within HOSTFP_VALUE_MAX
 *       and HOSTFP_SOURCE_MAX bytes) and what applying the settings skipped
 *       (at most 64 notes of plain text below 512 bytes).
 *   {"type":"knob","event":"record"|"applied"|"restored","seq":0,
 *    "kind":"sysctl","name":"kernel.x","path":"/proc/sys/kernel/x",
 *    "old":"1","requested":"0","applied":"0"|null}
 *       one per knob journal callback (knobs.h).
 *   {"type":"inst","cell":0,"iteration":1,"load":1,"repetition":0,"pid":123,
 *    "applied":"other nice=0","state":"ok","reason":"","exited":true,
 *    "exit_code":0,"term_signal":0,"start_ns":N,"end_ns":N,
 *    "user_us":N,"system_us":N,"stdout":"<base64>","stderr":"<base64>"}
 *       one per load instance result of an iteration, in the runner's order;
 *       load = index of the instance in the cell (plan order); start_ns and
 *       end_ns are the agent's CLOCK_MONOTONIC; user_us/system_us from the
 *       instance's rusage; stdout/stderr base64 (RFC 4648, with padding)
 *       because tools may print anything. Optional "window":
 *       {"run_ns":N,"wait_ns":N,"timeslices":N,"voluntary":N,
 *        "involuntary":N,"migrations":N,"tasks":N,"ns":N,"cgroup_cpu_us":N|-1,
 *        "progress":N|-1} the instance's sums over the measured window
 *       (runner.h inst_result.window, window_progress), on the result that
 *       holds them.
 *   {"type":"trace","cell":0,"iteration":1,"data":"<base64>"}
 *       when the iteration was traced (config trace:): the trace's text
 *       (trace_capture.h) in pieces of at most AGENT_TRACE_CHUNK bytes, in
 *       order, after the inst lines and before the series and iteration
 *       lines; then
 *   {"type":"trace_end","cell":0,"iteration":1,"bytes":N,"lines":N,
 *    "lost":N,"window_start_ns":N,"window_end_ns":N,"warning":"..."}
 *       the trace's size (the sum of its pieces) and what the capture
 *       counted (trace_capture.h struct trace_result).
 *   {"type":"series","cell":0,"iteration":1,"monitor":"stat","key":"user_pct",
 *    "cpu":-1,"pid":0,"tgid":0,"t_ms":[200.1,400.2],"value":[12.5,null]}
 *       when the config has monitors: one per monitor series of the
 *       iteration (store.h struct stored_series, monitor.h), sampled where
 *       the agent runs, after its inst lines and before its iteration line;
 *       t_ms (ms since the iteration began, the agent's clock) and value are
 *       arrays of the same length, null for a NaN value.
 *   {"type":"iteration","cell":0,"iteration":1,"n":2,"interrupted":false,
 *    "started_at":"...","ended_at":"..."}
 *       after the inst lines of one iteration; n = how many came before it.
 *   {"type":"end","status":"ok"|"failed","message":"...",
 *    "agent_cpu":{"user_us":N,"system_us":N,"wall_us":N}}
 *       last line; "failed" when the agent itself failed (bad plan, knob
 *       refused, runner error): message says why. agent_cpu: the agent's
 *       own CPU time (getrusage RUSAGE_SELF: itself and its in-process
 *       monitors, not its loads) and the wall time, over the plan's steps;
 *       absent when it ran none, or from an older agent.
 * A reader ignores unknown keys; an unknown "type" is an error. */
#ifndef SCHEDRIG_AGENT_PROTO_H
#define SCHEDRIG_AGENT_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "hostfp.h"
#include "runner.h"
#include "store.h"
#include "util.h"

#define AGENT_PROTO_VERSION 3
/* Bytes of trace text per "trace" line (before base64). */
#define AGENT_TRACE_CHUNK 49152

/* A (cell, iteration) pair of the plan file: cell 0-based, iteration 1-based. */
struct agent_step {
	size_t cell;
	int iteration;
};

/* The plan file, decoded. Strings owned (agent_plan_free). */
struct agent_plan {
	int proto;
	char *config_name;
	char *config;
	char *variant;
	int iterations;
	char **cells;
	size_t n_cells;
	char **modules;
	size_t n_modules;
	struct agent_step *run;
	size_t n_run;
	long long run_id;
};

/* Encode plan as JSON text (NUL-terminated, caller frees). Never fails. */
char *agent_plan_encode(const struct agent_plan *plan);
/* Decode plan file text. Returns 0, or -1 with err (not JSON, wrong
 * protocol version, a key missing or of the wrong type). */
int agent_plan_decode(const char *text, size_t len, struct agent_plan *plan, char *err,
		      size_t errsz);
void agent_plan_free(struct agent_plan *plan);

enum agent_msg_type {
	AGENT_MSG_HELLO,
	AGENT_MSG_KNOB,
	AGENT_MSG_INST,
	AGENT_MSG_ITERATION,
	AGENT_MSG_END,
	AGENT_MSG_SERIES,
	AGENT_MSG_TRACE,
	AGENT_MSG_TRACE_END,
	AGENT_MSG_HOST,
};

/* One decoded agent line. Only the fields of its type are set. */
struct agent_msg {
	enum agent_msg_type type;
	/* hello */
	int proto;
	char release[256];
	char cmdline[4096];
	int autogroup;
	/* inst, iteration */
	size_t cell;
	int iteration;
	size_t load;                 /* inst */
	/* series: one series and its points (t_ms, value: n_points each,
	 * owned, agent_msg_free); cpu -1 / pid 0 / tgid 0 when not per CPU or
	 * task */
	char monitor[32], key[64];
	int cpu, pid, tgid;
	double *t_ms, *value;
	size_t n_points;
	struct inst_result inst;     /* inst: pi NULL; out/err owned (agent_msg_free) */
	size_t n;                    /* iteration */
	bool interrupted;            /* iteration */
	char started_at[32], ended_at[32];
	/* knob */
	char event[16], kind[32], name[256], path[512];
	char old_value[256], requested[256], applied[256];
	bool has_applied;
	int seq;
	/* host: the fingerprint and notes (owned, agent_msg_free) */
	struct host_fp fp;
	struct argv notes;
	/* end */
	bool ok;
	char message[1024];
	/* trace: the piece (owned); trace_end: the totals (path empty,
	 * captured true) */
	struct buf trace_data;
	struct trace_result trace;
	bool has_cpu;                /* agent_cpu given */
	long long cpu_user_us, cpu_system_us, cpu_wall_us;
};

/* Append one line ("...}\n") to out. autogroup: kernel.sched_autogroup_enabled
 * where the agent runs (0, 1; -1 unknown). */
void agent_encode_hello(struct buf *out, const char *release, const char *cmdline, int autogroup);
/* event: "record", "applied" or "restored"; applied may be NULL. */
void agent_encode_knob(struct buf *out, const char *event, int seq, const char *kind,
		       const char *name, const char *path, const char *old_value,
		       const char *requested, const char *applied);
/* load: index of r->pi in its cell (the caller knows the cell). */
void agent_encode_inst(struct buf *out, size_t cell, int iteration, size_t load,
		       const struct inst_result *r);
void agent_encode_iteration(struct buf *out, size_t cell, int iteration,
			    const struct iteration_result *res);
/* The end line; cpu (may be NULL: no agent_cpu) the agent's user, system
 * and wall microseconds. */
struct agent_cpu {
	long long user_us, system_us, wall_us;
};
void agent_encode_end(struct buf *out, bool ok, const char *message, const struct agent_cpu *cpu);
/* The host line: fp's fields and notes (NULL: none). */
void agent_encode_host(struct buf *out, const struct host_fp *fp, const struct argv *notes);
/* One "series" line per series of set (with or without points), each with
 * its points in the set's order; nothing when set is NULL. */
void agent_encode_series(struct buf *out, size_t cell, int iteration,
			 const struct stored_series_set *set);

/* The trace of an iteration: its text file at path as "trace" lines of at
 * most AGENT_TRACE_CHUNK bytes each, then the "trace_end" line of t (the
 * capture's result; its bytes are those sent). Returns 0, or -1 with err
 * when the file cannot be read (nothing but what was sent is in out). */
int agent_encode_trace(struct buf *out, size_t cell, int iteration, const struct trace_result *t,
		       void (*flush)(void *ctx, struct buf *out), void *ctx, char *err,
		       size_t errsz);

/* Decode one line (without or with its '\n'). Returns 0, or -1 with err
 * (not a JSON object, unknown type, bad base64, a field missing or out of
 * range, inst state unknown). */
int agent_decode_line(const char *line, size_t len, struct agent_msg *m, char *err,
		      size_t errsz);
/* Free what a decoded message owns (inst.out, inst.err, t_ms, value,
 * trace_data, fp, notes). */
void agent_msg_free(struct agent_msg *m);

#endif
