/* What the files of track --follow share (track_follow.c: the request,
 * set-up and loop; track_follow_steps.c: the commits and their runs;
 * track_follow_act.c: the change points and what is done about them;
 * track_follow_child.c, below them all: their children and the stop).
 * Private to harness/track/track_follow*.c. */
#ifndef SCHEDRIG_TRACK_FOLLOW_IMPL_H
#define SCHEDRIG_TRACK_FOLLOW_IMPL_H

#include <limits.h>

#include "bisect_step.h"
#include "store_track.h"
#include "track_follow.h"
#include "track_follow_child.h"
#include "track_follow_config.h"

/* A follow being followed. */
struct follow {
	struct store *st;
	struct stored_follow f;  /* its row (settings, metric once decided) */
	struct track_target t;   /* what its steps build */
	char *config_name;       /* the config's name: (its runs' name) */
	char *dir;               /* DB's directory/track/ID: configs, logs */
	char self[PATH_MAX];     /* this binary */
	char db[PATH_MAX];       /* the database, absolute */
};

/* fw's target and config name from the config text (path for messages),
 * checked: the build is of tree, the config parses and plans, and branch
 * is a commit of tree. 0, or -1 with err. */
int track_follow_prepare(struct follow *fw, const char *path, const char *text,
			 const char *tree, const char *branch, char *err, size_t errsz);

/* What an earlier schedrig left of fw: a step whose run did not end is
 * run (resumed), a change not yet bisected or mailed is. 0, or -1 with err. */
int track_follow_unfinished(struct follow *fw, char *err, size_t errsz);

/* One look at the branch: the commits it has that fw has not run
 * (track_follow.h), each run in turn, the change points sought after
 * each (track_follow_detect). Stops early on a signal. 0, or -1 with err. */
int track_follow_pass(struct follow *fw, char *err, size_t errsz);

/* After a step's run: the history's change points (the follow's metric,
 * decided at its first run with samples) and, for each regression not
 * handled before, the commit named or the range bisected, and the result
 * mailed. 0, or -1 with err (also a metric that has several ops or cells
 * and no --op or --cell). */
int track_follow_detect(struct follow *fw, char *err, size_t errsz);

/* The changes of fw not yet bisected or mailed, done now. 0, or -1. */
int track_follow_changes_unfinished(struct follow *fw, char *err, size_t errsz);

/* The verdict of a bisection that ended (its status, its result line) in
 * a few words, as the bisect engine gave it: "first bad commit confirmed
 * by the bisection" only for its "First bad point: ..." line; a gradual
 * change, a range, no single first bad commit, refused, failed otherwise.
 * A static string. */
const char *track_bisect_verdict(const char *status, const char *text);

void track_follow_free(struct follow *fw);

#endif
