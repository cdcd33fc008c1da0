/* The runs of a results database for schedrig list (store_list.h). */
#include "store_list.h"

#include <sqlite3.h>
#include <stddef.h>

#include "store_impl.h"
#include "store_shapes.h"

int store_run_list(struct store *s, struct stored_run_row **rows, size_t *n, char *err,
		   size_t errsz)
{
	return store_rows(s, &run_list_shape, 0, (void **)rows, n, err, errsz);
}

void store_run_rows_free(struct stored_run_row *rows, size_t n)
{
	store_rows_free(&run_list_shape, rows, n);
}
