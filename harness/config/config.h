/* harness/config/: from a YAML file to a plan. config (the experiment, every
 * error at file:line:col; config_read, config_load, config_variant and
 * config_kernels read its parts, config_impl.h is theirs), yamlnode (libyaml
 * with positions), plan (the matrix of cells and load instances), order (the
 * order of visits).
 */

/* A named experiment, read from YAML. Every error names file:line:col.
 *
 * Shape (keys in file order are kept; any list value under a load's params:
 * or sched: is a matrix axis):
 *   name: hackbench-cyclictest          (required, [A-Za-z0-9._-]+)
 *   description: text
 *   iterations: 5                       (1..10000, default 3), or adaptive:
 *   iterations: {min: 3, max: 30, ci_pct: 1.0, max_time_s: 600}
 *   warmup_s: 1                         (seconds before measured loads start)
 *   monitors: {interval_ms: 1000}       (or true; /proc sampling, harness/monitor/monitor.h)
 *   trace: sched                        (or {events: [sched_switch, ...], buffer_kb: 8192,
 *                                       iterations: [1]}: a scheduler trace over the
 *                                       measured window, harness/trace/trace_capture.h;
 *                                       also per load, where the events add up)
 *   order: interleaved                  (blocked|interleaved|random, harness/config/order.h;
 *                                       default interleaved: variants booting their
 *                                       own kernel stay blocked unless order: is given)
 *   seed: 42                            (order: random only; default drawn and stored)
 *   host: {thp: never, cpu_dma_latency_us: 0, housekeeping_cpus: "0"}
 *                                       (machine settings applied where each variant's
 *                                       kernel runs: struct cfg_host; a variant's
 *                                       host_settings: overrides them key by key)
 *   variants: [{name: running, boot: local}]   (default: one local variant "running")
 *   labs:                               (LAVA labs that boot: lava variants name)
 *     mylab: {url: https://lava.example.org, token_env: MYLAB_TOKEN,
 *             artifacts: {dir: /srv/www/schedrig, url: https://files.example.org/schedrig}}
 *   bisect: {points: [...]}             (schedrig bisect only, harness/bisect/bisect_list.h;
 *                                       run ignores it)
 *   loads:
 *     - name: hackbench                 (default: the tool name)
 *       tool: hackbench                 (a driver in loads/registry.c)
 *       role: background|measured       (default measured)
 *       params: {groups: [2, 4], loops: 1000}
 *       sched: {policy: other, nice: [0, 19], slice_us: 300, cpus: "0-1"}
 *                                       (an axis with a short name for table
 *                                       headers: latency_nice: {values: [0, -20],
 *                                       label: LN}; labels are names, each used once)
 *                                       (cpus: CPUs of this machine when a variant
 *                                       boots local, of cpus: when one boots qemu)
 *       timeout_s: 300                  (default 600)
 *       repeat: true                    (background only)
 *       primary_metric: max_latency     (adaptive iterations; default: the driver's)
 *       trace: sched                    (as at the top; this load's own)
 *   kernels:                            (kernels the rig builds, harness/kbuild/kbuild.h)
 *     base:    {source: linux-source-6.12, config: [tinyconfig, guest]}
 *     latnice: {base: base, patches: [configs/patches/latency-nice-6.12/]}
 *       source: a kernel tree directory, a tar archive, or linux-source-X.Y
 *       commit: a revision of a git source: that commit's tree is built (git
 *               archive), never the work tree; inherited with source: along base:
 *       config: [tinyconfig|defconfig|package|FILE, then fragments: guest, FILE,
 *                "CONFIG_X=y"...]
 *       base: another kernel: its source, config and make_args unless given
 *             here, its patches before these
 *       patches: [FILE|DIR|MBOX, ...]    make_args: ["LLVM=1", ...]
 *       patch_fuzz: N (0..3, default 0: this entry's patches apply exactly)
 *     a variant names one: kernel: {build: NAME} (boot: qemu) or
 *     kexec: {kernel: {build: NAME}} (boot: ssh)
 */
#ifndef SCHEDRIG_CONFIG_H
#define SCHEDRIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "load.h"
#include "order.h"

/* One scalar value as written, with its position. */
struct cfg_value {
	char *text;
	int line, col;
};

/* One key under params: or sched:. n > 1 or is_axis: a matrix axis. */
struct cfg_setting {
	char *key;
	bool is_axis;          /* written as a list */
	char *label;           /* {values: [...], label: LN}: the axis' short name
				* in table headers ("LN:-20"), or NULL */
	struct cfg_value *values;
	size_t n;
	int line, col;         /* position of the key, for axis ordering */
};

enum load_role { ROLE_MEASURED, ROLE_BACKGROUND };

/* trace: sched | {events: [NAME or GROUP:NAME, ...], buffer_kb: N,
 * iterations: [K, ...] | all}, at the top or on a load. sched is the events
 * sched_switch, sched_waking, sched_wakeup and sched_migrate_task, 8192 KiB
 * of ring buffer per CPU and every iteration. */
struct cfg_trace {
	bool enabled;
	char **events;         /* "group:name", e.g. "sched:sched_switch"; a name
				* written without a group is sched_*'s (sched:) */
	size_t n_events;
	int buffer_kb;         /* per CPU, 64..1048576 (default 8192) */
	int *iterations;       /* ascending, 1-based; NULL (n 0): every iteration */
	size_t n_iterations;
	int line, col;
};

struct cfg_load {
	char *name;
	const struct load_ops *ops;
	enum load_role role;
	struct cfg_setting *params;
	size_t n_params;
	struct cfg_setting *sched;
	size_t n_sched;
	double timeout_s;
	bool repeat;
	const char *primary_metric; /* the driver's metric name, or NULL */
	struct cfg_trace trace;     /* this load's trace: (enabled false: none) */
	int line, col;
};

enum boot_kind { BOOT_LOCAL, BOOT_QEMU, BOOT_SSH, BOOT_LAVA };

/* A knob setting as written: sysctl key (dotted or slashed, relative to
 * /proc/sys), debugfs tunable (relative to sched/), or a sched_features entry
 * (value NULL). */
struct cfg_knob {
	char *key;
	char *value;
	int line, col;
};

/* A LAVA lab (labs: NAME: {...}): where boot: lava variants are submitted.
 * The API token is never in the config: it is read from the environment
 * variable token_env, else from ~/.netrc for the url's host. */
struct cfg_lab {
	char *name;
	char *url;            /* http(s)://host[:port][/prefix], no trailing '/' */
	char *token_env;      /* [A-Za-z_][A-Za-z0-9_]*, or NULL: ~/.netrc */
	char *artifacts_dir;  /* absolute directory the rig writes the kernel and
			       * initramfs of each job into */
	char *artifacts_url;  /* the same directory as the lab's dispatchers
			       * fetch it: file://, http:// or https://, no
			       * trailing '/' */
	long long log_max_mb; /* a job log larger than this is refused (512) */
	double stall_s;       /* a download or API call that gets no byte for
			       * this long fails (60) */
	double api_grace_s;   /* how long the lab's API may fail before a job
			       * is given up to run --resume (120) */
	int line, col;
};

/* host: settings (harness/host/hostset.h applies them where the variant's
 * kernel runs, reads them back, holds and restores them). Written at the
 * top level they are every variant's; a variant's host_settings: (same
 * keys; its host: is a boot: ssh machine's name) overrides them key by
 * key, and its cfg_variant.host_set holds the merged result. Unset: as the
 * machine has it. */
#define CFG_HOST_N_KEYS 8 /* governor, boost, smt, cpu_dma_latency_us, thp,
			    * numa_balancing, irq_affinity, housekeeping_cpus */
struct cfg_host {
	char *governor;          /* cpufreq scaling governor ([a-z0-9_-]), NULL unset */
	int boost;               /* turbo/boost: 1 on, 0 off, -1 unset */
	int smt;                 /* SMT control: 1 on, 0 off, -1 unset */
	long long cpu_dma_latency_us; /* held on /dev/cpu_dma_latency for the whole
				  * variant: 0..2000000000, -1 unset */
	char *thp;               /* transparent_hugepage/enabled: always|madvise|never */
	int numa_balancing;      /* kernel.numa_balancing: 1 on, 0 off, -1 unset */
	char *irq_affinity;      /* a CPU list every IRQ that can move is moved to
				  * ("housekeeping": housekeeping_cpus), NULL unset */
	char *housekeeping_cpus; /* a CPU list: where the rig (or its agent) and its
				  * monitors run; loads without sched: cpus get the
				  * other CPUs. NULL unset */
	int line, col;           /* of the host: that set the first key; 0 none */
	/* Where each key was set (after the merge: in the variant's
	 * host_settings: or the top host:), in config_host.c's order of the
	 * keys; 0 unset. Read with cfg_host_key_at. */
	int key_line[CFG_HOST_N_KEYS], key_col[CFG_HOST_N_KEYS];
};

/* true when h sets anything. */
bool cfg_host_any(const struct cfg_host *h);

/* Where h's key (one of CFG_HOST_KEYS) was set: true with *line, *col;
 * false when h does not set it (or key is no host: key): the message of a
 * setting this machine cannot take is at its key. */
bool cfg_host_key_at(const struct cfg_host *h, const char *key, int *line, int *col);

/* A kernel variant. Knob keys apply to every boot kind; the qemu, ssh and
 * lava groups only to theirs (the config rejects them elsewhere). */
struct cfg_variant {
	char *name;
	enum boot_kind boot;
	int line, col;
	/* knobs */
	struct cfg_knob *sysctl;
	size_t n_sysctl;
	struct cfg_knob *sched_features;
	size_t n_sched_features;
	struct cfg_knob *debugfs;
	size_t n_debugfs;
	int autogroup;          /* -1 unset, 0 off, 1 on */
	struct cfg_host host_set; /* host: settings, the config's merged with the
				 * variant's host_settings: */
	/* boot: qemu and boot: lava */
	char *kernel;           /* bzImage path, linux-image .deb, or package name */
	char *initrd;           /* extra initramfs to append (optional) */
	char *append;           /* extra kernel command line (boot: lava: no '"',
				 * '\\', '{', '}' or control characters: LAVA
				 * splits its qemu command line itself) */
	/* boot: qemu */
	int cpus;               /* default 2 */
	int threads;            /* threads per core (-smp threads=), default 1 */
	int memory_mb;          /* default 2048 */
	char *accel;            /* auto|kvm|tcg, default auto */
	double boot_timeout_s;  /* default 600 */
	/* boot: ssh */
	char *host;
	int port;               /* default 22 */
	char *user;
	char *identity;
	char *workdir;          /* NULL: ~/.cache/schedrig of the login user there */
	bool strict_host_key;   /* default true */
	char *kexec_kernel, *kexec_initrd, *kexec_append;
	/* boot: lava */
	const struct cfg_lab *lab; /* one of the experiment's labs */
	char *device_type;      /* the lab's device type name */
	char *boot_method;      /* LAVA boot method (qemu, grub, ipxe, u-boot, ...);
				 * default qemu for device_type qemu, else required */
	char **tags;            /* device tags the job asks for */
	size_t n_tags;
	/* kernel: {build: NAME} (qemu) or kexec: {kernel: {build: NAME}} (ssh):
	 * the name of a kernels: entry, or NULL. The rig builds it and sets
	 * kernel (qemu) or kexec_kernel (ssh) to its bzImage before the run. */
	char *build;
	int build_line, build_col;
	/* cells: {AXIS: VALUE or [VALUES], ...}: the variant runs only the cells
	 * of the matrix where each AXIS ("LOAD.KEY", as in cell names) takes
	 * one of its VALUES (a vanilla baseline at one point of a grid its
	 * patched kernel runs whole); key = the axis, values its values. NULL
	 * with n_cells 0: every cell. Checked against the axes by plan_build. */
	struct cfg_setting *cells;
	size_t n_cells;
	int cells_line, cells_col;
};

/* One entry of kernels: as written (the chain of base: is resolved by
 * harness/kbuild/kbuild_kernel.c). Lists keep each item's position for messages. */
struct cfg_kernel {
	char *name;
	int line, col;
	struct cfg_value source;   /* text NULL: inherited from base */
	struct cfg_value base;     /* text NULL: none */
	struct cfg_value commit;   /* a revision of source:'s git repository;
				    * text NULL: none here (kbuild_kernel.c: the
				    * entry nearest along base: that sets
				    * source: or commit: decides) */
	struct cfg_value *config;  /* NULL with n_config 0: inherited */
	size_t n_config;
	struct cfg_value *patches;
	size_t n_patches;
	struct cfg_value *make_args; /* NULL: inherited */
	size_t n_make_args;
	bool make_args_given;
	int patch_fuzz;            /* patch_fuzz: the fuzz this entry's own patches
				    * may use (0..3; default 0: exact) */
};

/* monitors: true | false | {interval_ms: 1000, perf: false}; off when absent. */
struct cfg_monitors {
	bool enabled;
	int interval_ms;       /* 10..3600000, default 1000 */
	bool perf;             /* perf stat -a; only false is accepted for now */
	int line, col;
};

struct experiment {
	char *path;            /* as given on the command line */
	char *text;            /* the whole file, as read */
	char *name;
	char *description;
	int iterations;         /* the most iterations a cell runs (max) */
	int min_iterations;     /* == iterations unless adaptive */
	double ci_pct;          /* adaptive: stop at this CI half-width, % of the mean; 0 off */
	double max_time_s;      /* adaptive: time budget per cell; 0 none */
	double warmup_s;
	struct cfg_variant *variants;
	size_t n_variants;
	struct cfg_lab *labs;
	size_t n_labs;
	struct cfg_load *loads;
	size_t n_loads;
	struct cfg_kernel *kernels;
	size_t n_kernels;
	struct cfg_monitors monitors;
	struct cfg_trace trace; /* the config's top trace: (enabled false: none) */
	/* What is captured: the top trace: and every load's together, the
	 * union of their events (in the order first written), the largest
	 * buffer_kb and the union of their iterations (all when one says
	 * all); enabled false when nothing asks for a trace. */
	struct cfg_trace trace_all;
	enum run_order order;   /* ORDER_INTERLEAVED unless order: says */
	bool order_given;       /* order: written (booting variants follow it too) */
	uint64_t seed;          /* order: random; valid when seed_given */
	bool seed_given;
};

/* Read and validate the config at path (at most 1 MiB). Returns the
 * experiment, or NULL with "path:line:col: message" in err. */
struct experiment *config_load(const char *path, char *err, size_t errsz);
/* The same for text already in memory; name stands for the file in messages. */
struct experiment *config_parse(const char *name, const char *text, size_t len,
				char *err, size_t errsz);
void experiment_free(struct experiment *e);

/* Does trace t capture iteration it (1-based)? false when t is not enabled. */
bool config_trace_iteration(const struct cfg_trace *t, int it);

/* The kernels: entry named name, or NULL. */
const struct cfg_kernel *config_kernel(const struct experiment *e, const char *name);

/* "role" names as written in configs and stored in the database. */
const char *load_role_name(enum load_role r);

#endif
