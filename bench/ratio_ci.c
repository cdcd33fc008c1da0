/* Paired-ratio verdicts for the rig's overhead benchmarks (issue 28),
 * built by `make build/bench/ratio_ci`, used by bench/trace-overhead.sh
 * and bench/perturbation.sh. Two commands:
 *
 *   ratio_ci order ROUND K
 *     The order in which to run K conditions (0..K-1) in round ROUND (1,
 *     2, ...): the K! permutations in turn, lexicographic, so that over
 *     every K! rounds each condition runs in each place equally often and
 *     neither side of a pair always follows the other (K 2: 0 1, 1 0, 0 1
 *     ...: ABBA). Prints the K numbers on one line. K is 2 to 4.
 *
 *   ratio_ci verdict LABEL TARGET < PAIRS
 *     PAIRS: one "BASE NEW" line per round (two positive numbers, C
 *     locale); the ratio of a round is NEW / BASE. Prints one bench line
 *     (bench/run-bench: METRIC VALUE TARGET VERDICT, tab-separated):
 *     the median ratio, and as the verdict "<= TARGET shown" when the
 *     upper end of the median's 95 % confidence interval is <= TARGET,
 *     "exceeded" when its lower end is > TARGET, else "not resolved", each
 *     with the interval. The interval is distribution-free: order
 *     statistics x(k) and x(n+1-k) of the sorted ratios, k the largest
 *     with P(B <= k-1) <= 0.025 for B ~ Binomial(n, 1/2), so that it holds
 *     the median with probability >= 95 % whatever the ratios' distribution
 *     (Hollander & Wolfe, Nonparametric Statistical Methods, 3rd ed.,
 *     sec. 3.6; Conover, Practical Nonparametric Statistics, sec. 3.2).
 *     TARGET "-": no target, the verdict is "n/a" with the interval.
 *     Needs n >= 6. On stderr: the ratios, and the geometric mean ratio
 *     with the 95 % t interval of the mean log-ratio, for comparison
 *     (assumes normal log-ratios; shown, not used for the verdict: the
 *     machine is shared and its noise comes in bursts).
 * Exit status 0, 2 on bad usage or input (a message on stderr). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define MAX_PAIRS 10000
#define MAX_K 4

/* The distribution-free 95 % interval of the median of sorted x[0..n):
 * lo/hi set, returns 0; -1 when n is too small for one (n < 6). */
static int median_ci(const double *x, size_t n, double *lo, double *hi)
{
	size_t k = 0;
	while (k + 1 <= n / 2 && gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n) <= 0.025)
		k++;
	if (k == 0)
		return -1;
	*lo = x[k - 1];
	*hi = x[n - k];
	return 0;
}

/* Read "BASE NEW" lines from f into ratio[] (NEW / BASE). Returns the
 * count, or -1 with a message on a line that is not two positive numbers. */
static long read_ratios(FILE *f, double *ratio, size_t cap)
{
	char line[256];
	size_t n = 0, lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		double base, new_value;
		char extra;
		if (sscanf(line, "%lf %lf %c", &base, &new_value, &extra) != 2 || !(base > 0) ||
		    !(new_value > 0) || !isfinite(base) || !isfinite(new_value)) {
			fprintf(stderr, "ratio_ci: stdin:%zu: want two positive numbers \"BASE NEW\", got: %s",
				lineno, line);
			return -1;
		}
		if (n == cap) {
			fprintf(stderr, "ratio_ci: more than %zu pairs\n", cap);
			return -1;
		}
		ratio[n++] = new_value / base;
	}
	return (long)n;
}

/* The geometric mean ratio and the 95 % t interval of the mean log-ratio,
 * on stderr. */
static void print_log_ci(const double *ratio, size_t n)
{
	double lr[MAX_PAIRS];
	for (size_t i = 0; i < n; i++)
		lr[i] = log(ratio[i]);
	double m = stats_amean(lr, n), half = stats_ci_half_t(stats_stddev(lr, n), n, 0.95);
	fprintf(stderr, "geometric mean ratio %.4f, 95%% t CI of the mean log-ratio [%.4f, %.4f]\n",
		exp(m), exp(m - half), exp(m + half));
}

/* ratio_ci verdict LABEL TARGET: see the head of the file. */
static int cmd_verdict(const char *label, const char *target_s)
{
	char *end = "";
	bool no_target = !strcmp(target_s, "-");
	double target = no_target ? NAN : strtod(target_s, &end);
	if (!no_target && (*end || !(target > 0))) {
		fprintf(stderr, "ratio_ci: TARGET '%s' is not a positive number\n", target_s);
		return 2;
	}
	static double ratio[MAX_PAIRS];
	long got = read_ratios(stdin, ratio, MAX_PAIRS);
	if (got < 0)
		return 2;
	size_t n = (size_t)got;
	double lo, hi;
	stats_sort(ratio, n);
	if (median_ci(ratio, n, &lo, &hi)) {
		fprintf(stderr, "ratio_ci: %zu pairs; a 95%% interval of the median needs 6\n", n);
		return 2;
	}
	fprintf(stderr, "%s: sorted ratios:", label);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %.4f", ratio[i]);
	fprintf(stderr, "\n%s: ", label);
	print_log_ci(ratio, n);
	char verdict[64];
	if (no_target)
		snprintf(verdict, sizeof(verdict), "n/a");
	else if (hi <= target)
		snprintf(verdict, sizeof(verdict), "<= %s shown", target_s);
	else
		snprintf(verdict, sizeof(verdict), "%s", lo > target ? "exceeded" : "not resolved");
	printf("%s (median of %zu pairs)\t%.4f\t%s%s\t%s (95%% CI %.4f-%.4f)\n", label, n,
	       stats_median_sorted(ratio, n), no_target ? "" : "<= ", no_target ? "n/a" : target_s,
	       verdict, lo, hi);
	return 0;
}

/* The permutation number `index` (0-based, lexicographic) of 0..k-1 into p. */
static void nth_permutation(unsigned long index, int k, int *p)
{
	int pool[MAX_K];
	unsigned long fact = 1;
	for (int i = 0; i < k; i++) {
		pool[i] = i;
		fact *= (unsigned long)(i + 1);
	}
	index %= fact;
	for (int i = 0; i < k; i++) {
		fact /= (unsigned long)(k - i);
		int pick = (int)(index / fact);
		index %= fact;
		p[i] = pool[pick];
		memmove(pool + pick, pool + pick + 1, sizeof(int) * (size_t)(k - i - 1 - pick));
	}
}

/* ratio_ci order ROUND K: see the head of the file. */
static int cmd_order(const char *round_s, const char *k_s)
{
	char *e1, *e2;
	long round = strtol(round_s, &e1, 10), k = strtol(k_s, &e2, 10);
	if (*e1 || *e2 || round < 1 || k < 2 || k > MAX_K) {
		fprintf(stderr, "ratio_ci: order wants ROUND >= 1 and K 2..%d\n", MAX_K);
		return 2;
	}
	int p[MAX_K];
	nth_permutation((unsigned long)(round - 1), (int)k, p);
	for (int i = 0; i < k; i++)
		printf(i ? " %d" : "%d", p[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "order"))
		return cmd_order(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "verdict"))
		return cmd_verdict(argv[2], argv[3]);
	fprintf(stderr, "usage: ratio_ci order ROUND K | ratio_ci verdict LABEL TARGET < PAIRS\n");
	return 2;
}
