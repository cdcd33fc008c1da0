/* The host fingerprint of a variant (track_host.h). */
#include "track_host.h"

#include "store_host.h"

int track_host_fingerprint(struct store *s, int64_t variant_id, char out[65], char *err,
			   size_t errsz)
{
	return store_host_digest(s, (long long)variant_id, out, err, errsz);
}
