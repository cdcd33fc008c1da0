/* schedrig track --follow: a branch of a kernel git tree watched, each
 * new commit built and run as an ordinary run of the config, the change
 * points of the history sought after each run, and a regression between
 * two revisions more than one commit apart bisected (schedrig bisect over
 * that git range) and mailed (schedrig mail): lkp's loop on one machine
 * or a LAVA lab. Its rows are store_track.h's (track_follow, track_step,
 * track_change); the runs, bisections and mails are child processes of
 * this very binary (bisect_step.h bisect_run_child: argv, no shell, a log
 * each, Ctrl-C passed on, SIGTERM when this process dies), so a step is
 * an ordinary run that compare, report and track read, and a killed
 * follow leaves nothing running.
 *
 * The config: one variant, whose kernel: {build: NAME} is built (through
 * NAME's base: chain) from the git repository --tree; a step's config is
 * the config with commit: HASH set on the entry of that chain that
 * decides the commit (track_follow_config.h). The commits: the branch's
 * first-parent line after the last one run (the first time: its tip, or
 * --since REV and every commit after it), every Nth of them (--every N)
 * and always the newest. A follow is begun in a directory and its steps
 * run there (relative paths of the config mean what they meant); one
 * schedrig follows it at a time, and --resume (or the same --follow again)
 * goes on: a step whose run did not end is resumed (run --resume), an
 * unfinished bisection too (bisect --resume), a change not yet mailed is
 * mailed, then the branch is followed on. */
#ifndef SCHEDRIG_TRACK_FOLLOW_H
#define SCHEDRIG_TRACK_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "track.h"
#include "util.h"

/* Bisections a change gets at most: one that stopped for a reason of the
 * machine (status failed: a run that did not start because another rig
 * held the knob lock, a variant that did not come up, an end without
 * samples; or a bisect that did not end) is bisected again by --resume
 * until this many attempts; a verdict (complete, refused) never is. */
#define TRACK_FOLLOW_BISECT_ATTEMPTS 3

/* What the command line asks for. */
struct track_follow_request {
	const char *config;          /* --follow CONFIG (NULL with resume) */
	const char *branch, *tree, *since;
	int every;                   /* 0: not given (1) */
	bool once, resume, poll_given;
	double poll_s;
	int64_t id;                  /* --resume ID; 0 the newest */
	const char *metric, *op, *cell; /* --metric LOAD:METRIC, --op, --cell */
	struct track_opts detector;
	bool detector_given;
	/* schedrig mail's options as given (--from A --to B ...; --subject and
	 * the way out are the follow's), and --mail-dir DIR (write each mail
	 * there) */
	struct argv mail;
	bool mail_to, mail_from, mail_smtp;
	const char *mail_dir;
	const char *db;              /* --db (the file the store has open) */
};

/* Defaults: every 0, poll_s 600, the detector's defaults. */
void track_follow_request_init(struct track_follow_request *r);

/* The request's options together, before anything is opened: a new
 * follow has CONFIG, --branch and --tree; --resume none of the follow's
 * own settings (--branch, --tree, --since, --every, --metric, --op,
 * --cell, the detector, the mail); --metric is LOAD:METRIC; mail needs
 * --from and --to and one of --smtp-url and --mail-dir (--smtp-user and
 * --insecure only with --smtp-url). 0, or -1 with err. */
int track_follow_check(const struct track_follow_request *r, char *err, size_t errsz);

/* Follow as r asks on st (opened for writing): set up (a new follow, the
 * stopped one of the same config, tree and branch, or --resume ID), then
 * the loop until --once's pass is done or a signal stops it. Progress on
 * stdout, problems on stderr. Returns the exit status: 0 stopped after
 * --once, 1 a failure (the follow recorded failed with why), 2 the
 * config cannot be followed (nothing recorded), 128+N interrupted by
 * signal N (recorded interrupted: --resume goes on). */
int track_follow_run(struct store *st, const struct track_follow_request *r);

#endif
