/* track --follow (track_follow.h). */
#include "track_follow.h"

#include <stdio.h>

void track_follow_request_init(struct track_follow_request *r)
{
	*r = (struct track_follow_request){.poll_s = 600};
	track_opts_init(&r->detector);
}

int track_follow_check(const struct track_follow_request *r, char *err, size_t errsz)
{
	(void)r;
	snprintf(err, errsz, "not yet");
	return -1;
}

int track_follow_run(struct store *st, const struct track_follow_request *r)
{
	(void)st;
	(void)r;
	return 1;
}
