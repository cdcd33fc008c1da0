/* harness/track/: schedrig track's subsystem. It owns the performance
 * history of a config and the change points in it: the histories read
 * from the results database (track_history.c: one per config, variant,
 * cell, load, metric and op; its runs in revision order, track_order.c;
 * split where the host fingerprint changes, track_host.c), the detection
 * (track_detect.c, over harness/stats/changepoint.h), the tables, JSON
 * and figures (track_report.c, track_plot.c), and track --follow
 * (track_follow.h: a branch watched, each new commit built and run,
 * a regression bisected and mailed). It does not own its rows
 * (store_track.h), the command line (cmd_track.c), the statistics
 * (changepoint.h) or what a run or a bisection is.
 *
 * A history's points are runs: point i is one run of the config's
 * variant, its value the Amean of that run's samples of the metric and op
 * in the cell (complete iterations only, as every report reads them:
 * store_load_rows; NaN samples left out; a run without a sample of it is
 * no point). The points are in revision order: the kernels' revisions
 * (store_revision.h) in git order (kgit_topo_order) when every point is a
 * git revision of one repository the rig can read, else in the order of
 * each revision's first run; the runs of one revision are consecutive (by
 * run id), and a change may only begin at a revision's first run. A run
 * without a revision is a revision of its own ("run ID"). */
#ifndef SCHEDRIG_TRACK_H
#define SCHEDRIG_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "changepoint.h"
#include "samples.h"
#include "store.h"
#include "store_revision.h"
#include "util.h"

/* Which histories: NULL fields select all. metric is "LOAD:METRIC" or
 * "METRIC" (of any load). */
struct track_filter {
	const char *config, *variant, *metric, *op, *cell;
};

/* One point: a run of the history's variant. */
struct track_point {
	int64_t run_id, variant_id;
	char *revision;         /* as printed: git describe, package version,
				 * label, or "run ID" */
	bool has_revision;
	enum revision_kind kind;
	char *commit, *source;  /* git: full hash and repository; else NULL */
	char *started_at;
	char *host;             /* its host fingerprint (track_host.h), NULL none */
	double value;           /* Amean of the run's samples */
	size_t n;               /* those samples */
};

struct track_history {
	char *config, *variant, *cell, *load, *metric, *unit, *op;
	enum better better;
	/* The host fingerprint of its runs (track_host.h; NULL: none known)
	 * and, when the config's history was split because the fingerprint
	 * changed, which part this is (part 1..n_parts; n_parts 1: whole). */
	char *host;
	size_t part, n_parts;
	/* Part 1 of a split history: the stable host-state fields whose values
	 * differ between its parts' first runs (track_host_differing); else NULL. */
	char *split_fields;
	struct track_point *p;
	size_t n;
	bool *first;            /* first[i]: point i is its revision's first run */
	size_t n_revisions;
	char *order;            /* "git order of DIR", or "run order" with why */
};

struct track_set {
	struct track_history *h;
	size_t n;
};

/* The histories f selects in st, in the order of their first run (then
 * variant, cell, load, metric, op as first seen), each split by host
 * fingerprint and ordered. 0 (set->n may be 0), or -1 with err. Free with
 * track_set_free. */
int track_histories_load(struct store *st, const struct track_filter *f, struct track_set *set,
			 char *err, size_t errsz);
void track_set_free(struct track_set *set);

/* Split every history of set whose points have different host
 * fingerprints into one history per fingerprint (points without one are
 * a part of their own): parts in the order of their first point, each
 * with host, part and n_parts set; a history of one fingerprint keeps
 * n_parts 1 and gets host set. Points keep their order. */
void track_split_by_host(struct track_set *set);

/* A history of the numbers in text (one per line, blank lines and lines
 * starting with '#' skipped), config name: each line a revision "lineN":
 * schedrig track --values. 0, or -1 with "name:line: why" in err (a line
 * that is not a finite number, none at all). */
int track_history_values(const char *name, const char *text, struct track_set *set, char *err,
			 size_t errsz);

/* Put h's points in revision order (above) and set first, n_revisions and
 * order. */
void track_order(struct track_history *h);

/* The detector's settings and their defaults. */
#define TRACK_ALPHA 0.01
#define TRACK_PERMUTATIONS 199
#define TRACK_SEED 1
#define TRACK_MIN_CHANGE_PCT 0.5
#define TRACK_MIN_SEGMENT 2

struct track_opts {
	double alpha;
	int permutations;
	uint64_t seed;
	double min_change_pct;
};

/* Defaults above. */
void track_opts_init(struct track_opts *o);

/* One change point of a history: between points index − 1 and index
 * (revisions before and after); the levels (Amean of the points from the
 * previous change point, and to the next), the change in percent, its
 * permutation p and Q, and whether it is a regression: the metric got
 * worse by its better (higher for a lower-is-better metric). */
struct track_change {
	size_t index;
	double mean_before, mean_after, change_pct, p, q;
	bool regression;
};

struct track_result {
	struct track_change *c;
	size_t n;
	/* The candidate that stopped the search (index 0: none could be
	 * tested) and how many change points the minimum change dropped. */
	struct changepoint rejected;
	size_t pruned;
};

/* The change points of h by E-divisive means (changepoint.h: o's alpha,
 * permutations and seed, TRACK_MIN_SEGMENT points on either side, a
 * change only at a revision's first run), those changing by less than
 * o->min_change_pct dropped (changepoint_prune). Free with
 * track_result_free. */
void track_detect(const struct track_history *h, const struct track_opts *o,
		  struct track_result *r);
void track_result_free(struct track_result *r);

/* One line naming h: "CONFIG variant V, cell C, LOAD METRIC (UNIT, lower
 * is better), op OP" (no cell or op when empty), with ", host
 * FINGERPRINT12 (part K of N)" when split. */
void track_history_title(struct buf *b, const struct track_history *h);

/* The text report of the histories and their results (r[i] of
 * set->h[i]): per history its title, its runs, revisions and order, and
 * a table of its change points (revision before, revision after, mean
 * before, mean after, change %, p, regression) or why there is none; the
 * split by host fingerprint said; the rule once at the end. */
void track_report_text(struct buf *out, const struct track_set *set,
		       const struct track_result *r, const struct track_opts *o);

/* The same as one JSON document (jansson): {"detector": {...},
 * "histories": [{config, variant, cell, load, metric, unit, better, op,
 * host, part, parts, order, points: [{run, revision, kind, commit,
 * value, n}], change_points: [{index, before, after, mean_before,
 * mean_after, change_pct, p, q, regression}]}]}. NaN never occurs
 * (points have samples). */
void track_report_json(struct buf *out, const struct track_set *set,
		       const struct track_result *r, const struct track_opts *o);

/* Figures (gnuplot, reports/plot.h) of every history into dir: its
 * points against the revision (x tics the revisions), the level of each
 * segment between change points as a line, each change point a vertical
 * line labelled with its change. Files BASE.gp, .dat, .png/.svg with
 * BASE "CONFIG-VARIANT[-CELL]-LOAD-METRIC[-OP][-partK]-history"
 * (sanitised). formats PLOT_PNG | PLOT_SVG. The figures drawn are listed
 * on out, one "wrote DIR/BASE.png" line each. 0, or -1 with err. */
int track_plot(const struct track_set *set, const struct track_result *r, const char *dir,
	       unsigned formats, struct buf *out, char *err, size_t errsz);

#endif
