/* tcp-rr: a built-in TCP request/response load like netperf TCP_RR, run as
 * `schedrig load tcp-rr --pairs N --duration_s S ...`.
 *
 * Each pair is a server and a client on their own TCP connection over
 * `host` (a numeric address the servers bind; wildcards are refused), with
 * TCP_NODELAY on both ends. One transaction: the client writes
 * request_bytes, the server reads exactly that and writes response_bytes,
 * the client reads exactly that. In mode=process every side is a forked child
 * (PR_SET_PDEATHSIG SIGKILL, reaped before exit); in mode=thread a pthread.
 * Connections are set up before the clock starts. The run ends after
 * duration_s, or at SIGINT/SIGTERM (duration_s 0: only then); either way
 * the summary is printed and the exit status is 0. A side that fails (connect,
 * short read, ...), a port in use, or a stop before every connection is up
 * (nothing measured yet) makes the load print the reason to stderr and exit
 * 1 without a summary. Bad arguments: exit 2. The sides themselves:
 * tcp_rr_sides.h.
 *
 * Output (see loads/builtin.h for the common frame), e.g. for --pairs 2:
 *   schedrig-tcp-rr 1 pairs=2 mode=process duration_s=2 request_bytes=1 response_bytes=1
 *   interval_transactions pair0-s0 30512.0
 *   interval_transactions pair1-s0 30498.0
 *   ...
 *   transactions 0 30501.3
 *   transactions 1 30477.9
 *   latency p50 31.200
 *   latency p90 35.000
 *   latency p99 48.500
 *   latency p99.9 80.100
 *   latency max 912.300         (p95 and mean too)
 *   latency hist.events 121958  (then hist.sum, hist.sum_sq, hist.min and one
 *   latency hist.le:31.231 4242  line per non-empty bucket: lat_hist.h)
 *   end elapsed_s=2.000114 transactions=121958
 * Metrics:
 *   interval_transactions  transactions/s of one pair in one whole 1 s interval
 *                          since the start, op "pairP-sK" (pair P, interval K =
 *                          [K, K+1) s), printed as each interval ends; a last
 *                          partial interval (stop) is not reported.
 *   transactions           transactions/s of pair P over the whole run (count at
 *                          the stop / elapsed time), op "P".
 *   latency                client round-trip time of one transaction (write of the
 *                          request to the end of the response, CLOCK_MONOTONIC)
 *                          over all pairs, us, ops p50 p90 p95 p99 p99.9 max and
 *                          the true mean, from a lat_hist (0.78% bucket
 *                          resolution, see lat_hist.h), whose buckets are stored
 *                          as the histogram of every round trip. Absent only
 *                          when no transaction completed. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "builtin.h"
#include "lat_hist.h"
#include "load.h"
#include "tcp_rr_sides.h"

static const struct param_def tcp_rr_params[] = {
	{"pairs", PARAM_UINT, "1", NULL, 1, 512,
	 "client/server pairs, each on its own TCP connection"},
	{"duration_s", PARAM_UINT, "10", NULL, 0, 604800,
	 "run time in s; 0: until stopped by SIGINT/SIGTERM"},
	{"request_bytes", PARAM_UINT, "1", NULL, 1, 1048576, "bytes the client sends per transaction"},
	{"response_bytes", PARAM_UINT, "1", NULL, 1, 1048576, "bytes the server answers per transaction"},
	{"port", PARAM_UINT, "0", NULL, 0, 65535,
	 "first server port, pair i listens on port+i; 0: ephemeral ports chosen by the kernel"},
	{"host", PARAM_STRING, "127.0.0.1", NULL, 1, 0,
	 "numeric IPv4/IPv6 address the servers bind (never a wildcard) and the clients connect to"},
	{"mode", PARAM_ENUM, "process", "process|thread", 1, 0,
	 "each side of a pair is a forked process or a thread"},
};

static const struct metric_def tcp_rr_metrics[] = {
	{"transactions", "transactions/s", BETTER_HIGHER,
	 "request/response round trips per s of one pair over the run, op = pair number", 2, false},
	{"interval_transactions", "transactions/s", BETTER_HIGHER,
	 "round trips per s of one pair in one 1 s interval, op = pairP-sK", 2, true},
	{"latency", "us", BETTER_LOWER,
	 "round-trip time over all pairs, op = p50|p90|p95|p99|p99.9|max|mean", 2, false},
};

#define M_TRANSACTIONS (&tcp_rr_metrics[0])
#define M_INTERVAL (&tcp_rr_metrics[1])
#define M_LATENCY (&tcp_rr_metrics[2])

const struct load_ops tcp_rr_load;

/* One run of the pairs. */
struct rr_run {
	const struct rr_conf *conf;
	const sigset_t *sigs;   /* SIGINT, SIGTERM stop the run */
	struct rr_shm *shm;
	size_t shm_size;
	struct side *sides;     /* sides[2i] server, sides[2i+1] client of pair i */
	size_t n_sides;
	uint64_t *prev, *final; /* transactions per pair at the last tick, at the stop */
	uint64_t start, stop;   /* builtin_now_ns of the measured window */
	char failbuf[200];
};

/* Start every pair: a listening socket, then its server and its client.
 * Returns NULL, or the failure ("" when already printed). */
static const char *start_pairs(struct rr_run *r, const struct sockaddr_storage *host,
			       socklen_t hostlen, unsigned base_port)
{
	for (unsigned i = 0; i < r->conf->pairs; i++) {
		struct side *srv = &r->sides[2 * i], *cli = &r->sides[2 * i + 1];
		srv->shm = cli->shm = r->shm;
		srv->conf = cli->conf = r->conf;
		srv->pair = cli->pair = i;
		srv->listen_fd = rr_listen_on(host, hostlen, base_port ? base_port + i : 0,
					      &cli->addr, &cli->addrlen);
		cli->listen_fd = -1;
		if (srv->listen_fd < 0)
			return "";
		if (rr_side_start(srv, false, r->failbuf, sizeof(r->failbuf)) ||
		    rr_side_start(cli, true, r->failbuf, sizeof(r->failbuf)))
			return r->failbuf;
	}
	return NULL;
}

/* A side that failed, or in process mode one whose child ended: its
 * failure, else NULL. */
static const char *side_failure(struct rr_run *r)
{
	const char *failure = rr_first_failure(r->shm, r->conf->pairs);
	if (!failure && !r->conf->threads)
		failure = rr_reap_early(r->sides, r->n_sides, r->failbuf, sizeof(r->failbuf));
	return failure;
}

/* Wait until every connection is up (10 s at most). Returns NULL, or the
 * failure. */
static const char *wait_connected(struct rr_run *r)
{
	uint64_t setup_deadline = builtin_now_ns() + 10000000000ULL;
	for (;;) {
		const char *failure = side_failure(r);
		if (failure)
			return failure;
		unsigned ready = 0;
		for (unsigned i = 0; i < r->conf->pairs; i++)
			ready += atomic_load(&r->shm->pair[i].client_state) == SIDE_READY &&
				 atomic_load(&r->shm->pair[i].server_state) == SIDE_READY;
		if (ready == r->conf->pairs)
			return NULL;
		if (builtin_now_ns() > setup_deadline)
			return "connections not set up within 10 s";
		int sig = builtin_wait_signal(r->sigs, builtin_now_ns() + 1000000);
		if (sig == SIGINT || sig == SIGTERM)
			return "stopped before all connections were set up";
	}
}

/* The interval_transactions lines of interval (dt_s long) from the counts
 * now in shm: each pair's count since prev, which then holds it. */
static void print_tick(struct rr_run *r, uint64_t interval, double dt_s)
{
	for (unsigned i = 0; i < r->conf->pairs; i++) {
		uint64_t cur = atomic_load(&r->shm->pair[i].transactions);
		printf("interval_transactions pair%u-s%llu %.1f\n", i, (unsigned long long)interval,
		       (double)(cur - r->prev[i]) / dt_s);
		r->prev[i] = cur;
	}
	fflush(stdout);
}

/* The stop at now (stopped: by a signal): each pair's final count, and
 * the last interval's lines when the run ended on its tick (it is whole). */
static void take_final(struct rr_run *r, uint64_t now, bool stopped, uint64_t next_tick,
		       uint64_t interval, uint64_t tick_start)
{
	r->stop = now;
	for (unsigned i = 0; i < r->conf->pairs; i++)
		r->final[i] = atomic_load(&r->shm->pair[i].transactions);
	if (stopped || now < next_tick)
		return;
	double dt = (double)(now - tick_start) / 1e9;
	for (unsigned i = 0; i < r->conf->pairs; i++)
		printf("interval_transactions pair%u-s%llu %.1f\n", i, (unsigned long long)interval,
		       (double)(r->final[i] - r->prev[i]) / dt);
}

/* The measured window: the header, go, ticks on whole seconds since the
 * start (so that the end of a run of whole seconds is also the end of its
 * last interval), until duration_s or SIGINT/SIGTERM. Returns NULL, or
 * the failure of a side. */
static const char *measure(struct rr_run *r)
{
	const struct rr_conf *conf = r->conf;
	printf("schedrig-tcp-rr 1 pairs=%u mode=%s duration_s=%llu request_bytes=%zu response_bytes=%zu\n",
	       conf->pairs, conf->threads ? "thread" : "process",
	       (unsigned long long)conf->duration_s, conf->request_bytes, conf->response_bytes);
	fflush(stdout);
	r->start = builtin_now_ns();
	atomic_store(&r->shm->run, RUN_GO);
	uint64_t end = conf->duration_s ? r->start + conf->duration_s * 1000000000ULL : UINT64_MAX;
	uint64_t tick_start = r->start, interval = 0;
	for (;;) {
		uint64_t next_tick = r->start + (interval + 1) * 1000000000ULL;
		int sig = builtin_wait_signal(r->sigs, next_tick < end ? next_tick : end);
		uint64_t now = builtin_now_ns();
		bool stopped = sig == SIGINT || sig == SIGTERM;
		if (stopped || now >= end) {
			take_final(r, now, stopped, next_tick, interval, tick_start);
			return NULL;
		}
		const char *failure = side_failure(r);
		if (failure)
			return failure;
		if (now < next_tick)
			continue; /* SIGCHLD or a spurious wake-up */
		print_tick(r, interval, (double)(now - tick_start) / 1e9);
		tick_start = now;
		interval++;
	}
}

/* The summary: transactions per pair over the run, the latency of every
 * round trip of every pair, the end line. */
static void print_summary(const struct rr_run *r)
{
	double elapsed = (double)(r->stop - r->start) / 1e9;
	uint64_t total = 0;
	struct lat_hist *all = xmalloc(sizeof(*all));
	lat_hist_init(all);
	for (unsigned i = 0; i < r->conf->pairs; i++) {
		printf("transactions %u %.1f\n", i,
		       elapsed > 0 ? (double)r->final[i] / elapsed : 0.0);
		total += r->final[i];
		lat_hist_merge(all, &r->shm->pair[i].hist);
	}
	lat_hist_print_us(all, "latency", stdout);
	printf("end elapsed_s=%.6f transactions=%llu\n", elapsed, (unsigned long long)total);
	fflush(stdout);
	free(all);
}

/* The load: every pair started and connected, the measured window, then
 * the summary, or the failure on stderr. Returns the exit status. */
static int run_pairs(const struct rr_conf *conf, const struct sockaddr_storage *host,
		     socklen_t hostlen, unsigned base_port, const sigset_t *sigs)
{
	struct rr_run r = {.conf = conf, .sigs = sigs, .n_sides = 2 * (size_t)conf->pairs};
	r.shm_size = sizeof(struct rr_shm) + conf->pairs * sizeof(struct pair_shm);
	r.shm = mmap(NULL, r.shm_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r.shm == MAP_FAILED) {
		fprintf(stderr, "schedrig load tcp-rr: mmap: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned i = 0; i < conf->pairs; i++)
		lat_hist_init(&r.shm->pair[i].hist);
	r.sides = xcalloc(r.n_sides, sizeof(*r.sides));
	r.prev = xcalloc(conf->pairs, sizeof(*r.prev));
	r.final = xcalloc(conf->pairs, sizeof(*r.final));

	const char *failure = start_pairs(&r, host, hostlen, base_port);
	if (!failure)
		failure = wait_connected(&r);
	if (!failure)
		failure = measure(&r);
	atomic_store(&r.shm->run, RUN_STOP);
	rr_collect_sides(r.sides, r.n_sides, conf->threads);
	if (!failure)
		failure = rr_first_failure(r.shm, conf->pairs);
	if (failure && *failure)
		fprintf(stderr, "schedrig load tcp-rr: %s\n", failure);
	else if (!failure)
		print_summary(&r);
	free(r.prev);
	free(r.final);
	free(r.sides);
	munmap(r.shm, r.shm_size);
	return failure ? 1 : 0;
}

static int tcp_rr_main(int argc, char **argv)
{
	struct builtin_args a;
	if (builtin_begin(&a, &tcp_rr_load, argc, argv))
		return a.exit_status;
	struct rr_conf conf = {
		.pairs = (unsigned)builtin_arg_ll(&a, "pairs"),
		.duration_s = (uint64_t)builtin_arg_ll(&a, "duration_s"),
		.request_bytes = (size_t)builtin_arg_ll(&a, "request_bytes"),
		.response_bytes = (size_t)builtin_arg_ll(&a, "response_bytes"),
		.threads = builtin_arg_is(&a, "mode", "thread"),
	};
	unsigned port = (unsigned)builtin_arg_ll(&a, "port");
	if (port && port + conf.pairs - 1 > 65535) {
		fprintf(stderr, "schedrig load tcp-rr: --port %u with %u pairs needs ports up to %u (> 65535)\n",
			port, conf.pairs, port + conf.pairs - 1);
		return BUILTIN_EXIT_USAGE;
	}
	struct sockaddr_storage host;
	socklen_t hostlen;
	if (rr_resolve_host(builtin_arg(&a, "host"), &host, &hostlen))
		return BUILTIN_EXIT_USAGE;
	return run_pairs(&conf, &host, hostlen, port, &a.sigs);
}

/* ---- the driver side: the parser ---- */

static int tcp_rr_parse(const struct load_output *o, const struct params *p,
			struct sample_vec *samples, char *why, size_t whysz)
{
	struct builtin_reader r;
	long long pairs;
	int got;
	if (builtin_parse_begin(o, "tcp-rr", &r, why, whysz) ||
	    builtin_header_int(&r, "pairs", 1, 65536, &pairs, why, whysz))
		return -1;
	long long want = p ? params_int(p, "pairs", pairs) : pairs;
	if (want != pairs) {
		snprintf(why, whysz, "output is for %lld pairs, the load has %lld", pairs, want);
		return -1;
	}

	struct sample_vec tmp = {0};
	struct lat_hist_reader hists = {0};
	unsigned char *seen_pair = xcalloc((size_t)pairs, 1);
	size_t n_pairs = 0;
	double rate_sum = 0;
	int rc = -1;

	double v;
	while ((got = builtin_next_sample(&r, &v, why, whysz)) > 0) {
		const char *m = r.field[0];
		const char *op = r.field[1];
		if (!strcmp(m, "interval_transactions")) {
			unsigned pr, k;
			int len = -1;
			if (sscanf(op, "pair%u-s%u%n", &pr, &k, &len) != 2 || len != (int)strlen(op) ||
			    pr >= pairs) {
				snprintf(why, whysz, "line %u: bad interval op '%s'", r.lineno, op);
				goto out;
			}
			sample_vec_add(&tmp, M_INTERVAL->name, M_INTERVAL->unit, M_INTERVAL->better, op, v);
		} else if (!strcmp(m, "transactions")) {
			long long pr;
			if (!parse_ll(op, &pr) || pr < 0 || pr >= pairs || seen_pair[pr]) {
				snprintf(why, whysz, "line %u: bad or repeated pair '%s'", r.lineno, op);
				goto out;
			}
			seen_pair[pr] = 1;
			n_pairs++;
			rate_sum += v;
			sample_vec_add(&tmp, M_TRANSACTIONS->name, M_TRANSACTIONS->unit,
				       M_TRANSACTIONS->better, op, v);
		} else if (!strcmp(m, "latency")) {
			if (lat_hist_read_line(&hists, M_LATENCY, op, v, r.lineno, &tmp, why, whysz))
				goto out;
		} else {
			snprintf(why, whysz, "line %u: unknown metric '%s'", r.lineno, m);
			goto out;
		}
	}
	if (got < 0)
		goto out;
	if (n_pairs != (size_t)pairs) {
		snprintf(why, whysz, "transactions for %zu of %lld pairs", n_pairs, pairs);
		goto out;
	}
	const struct metric_def *lat[] = {M_LATENCY};
	rc = lat_hist_read_finish(&hists, lat, 1, rate_sum > 0, &tmp, samples, why, whysz);
out:
	sample_vec_free(&tmp);
	lat_hist_read_free(&hists);
	free(seen_pair);
	return rc;
}

/* The tcp-rr driver (see the top of this file). */
const struct load_ops tcp_rr_load = {
	.name = "tcp-rr",
	.description = "TCP request/response pairs like netperf TCP_RR (transactions/s, round-trip latency)",
	.params = tcp_rr_params,
	.n_params = sizeof(tcp_rr_params) / sizeof(tcp_rr_params[0]),
	.metrics = tcp_rr_metrics,
	.n_metrics = sizeof(tcp_rr_metrics) / sizeof(tcp_rr_metrics[0]),
	.stop_signal = SIGINT,
	.summarizes_on_stop = true,
	.until_stopped_param = "duration_s",
	.parse = tcp_rr_parse,
	.builtin_main = tcp_rr_main,
};
