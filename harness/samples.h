/* Samples: what a load driver's parser produces for one load instance, and the
 * flat rows (one per stored sample) that export, import and every report use. */
#ifndef SCHEDRIG_SAMPLES_H
#define SCHEDRIG_SAMPLES_H

#include <stddef.h>

/* Direction of a metric. mmtests summarises higher-is-better metrics with Hmean
 * and lower-is-better ones with Amean. */
enum better { BETTER_LOWER = 0, BETTER_HIGHER = 1 };

/* "lower" / "higher"; parse returns -1 for anything else. */
const char *better_name(enum better b);
int better_parse(const char *s);

#define SAMPLE_OP_MAX 48

/* One value parsed from a tool's output. metric and unit point at static
 * strings of the driver's metric table; op is the row label (a group count,
 * a thread number, a pair number, a percentile such as "p99"). */
struct sample {
	const char *metric;
	const char *unit;
	enum better better;
	char op[SAMPLE_OP_MAX];
	double value;
};

/* A growable list of samples in the order the parser found them. */
struct sample_vec {
	struct sample *v;
	size_t n, cap;
};
/* Append one sample; op may be NULL for "" (formatted with printf rules). */
void sample_vec_add(struct sample_vec *s, const char *metric, const char *unit,
		    enum better better, const char *op, double value);
void sample_vec_free(struct sample_vec *s);

/* One stored sample with its identity, as exported:
 * run,variant,cell,load,metric,unit,better,op,iteration,value.
 * Strings are interned in the owning sample_table and live as long as it. */
struct sample_row {
	const char *run;
	const char *variant;
	const char *cell;
	const char *load;
	const char *metric;
	const char *unit;
	enum better better;
	const char *op;
	int iteration;
	double value;
};

struct strpool;

/* Rows in insertion order (store queries return them in config order, so
 * first appearance gives variant, cell and op order). */
struct sample_table {
	struct sample_row *rows;
	size_t n, cap;
	struct strpool *pool;
};

void sample_table_init(struct sample_table *t);
/* Copy row into the table, interning each string. */
void sample_table_add(struct sample_table *t, const struct sample_row *row);
void sample_table_free(struct sample_table *t);
/* Append row whose strings were all interned in t already (no copying). */
void sample_table_push(struct sample_table *t, const struct sample_row *row);
/* Intern a string in the table's pool (same pointer for equal strings). */
const char *sample_table_intern(struct sample_table *t, const char *s);

#endif
