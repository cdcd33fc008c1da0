/* wakeup-lat: a built-in wake-up latency load in the manner of schbench
 * (Chris Mason, kernel.org/pub/scm/linux/kernel/git/mason/schbench.git), run
 * as `schedrig load wakeup-lat --message_threads M --workers W ...`.
 *
 * Each of M message threads has W worker threads, all sleeping on their own
 * futex word. A round: the message thread, for each of its workers, reads
 * CLOCK_MONOTONIC (the wake time), posts a request and FUTEX_WAKEs the
 * worker; the worker, once running, reads the clock again: wake-up latency.
 * It then does work_us of CPU work (spinning until its CLOCK_THREAD_CPUTIME_ID
 * has advanced by work_us, so time spent preempted lengthens the request),
 * reads the clock: request latency = completion - wake time, and reports
 * completion (the last worker of the round FUTEX_WAKEs the message thread).
 * When all W workers are done the message thread sleeps think_us and starts
 * the next round. The run ends after runtime_s, or at SIGINT/SIGTERM
 * (runtime_s 0: only then); the summary is printed and the exit status is 0.
 *
 * Output (see loads/builtin.h for the common frame):
 *   schedrig-wakeup-lat 1 message_threads=1 workers=2 runtime_s=2 think_us=1000 work_us=100
 *   wakeup_latency p50 4.100
 *   wakeup_latency p90 ...      (also p95, p99, p99.9, max, mean)
 *   wakeup_latency hist.events 3490  (then hist.sum, hist.sum_sq, hist.min and
 *   wakeup_latency hist.le:4.095 17   one line per non-empty bucket: lat_hist.h)
 *   request_latency p50 105.300 (the same ops and histogram)
 *   requests_per_s all 1745.2
 *   end elapsed_s=2.000081 requests=3490
 * Metrics:
 *   wakeup_latency   us from the message thread's wake-up to the worker
 *                    running, over all workers; ops p50 p90 p95 p99 p99.9
 *                    max and the true mean over all wake-ups; the
 *                    histogram of every wake-up is stored too (pooled over
 *                    iterations by compare --layout percentiles|latency).
 *   request_latency  us from the wake-up to the end of the request's work.
 *   requests_per_s   requests completed by all workers per s of run time
 *                    (count at the stop / elapsed), op "all".
 * Percentiles come from lat_hist (0.78% bucket resolution, see lat_hist.h);
 * the latency lines are absent only when no request completed. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lat_hist.h"
#include "load.h"

/* Total threads stay bounded: two lat_hist per worker (70 KiB). */
#define WAKEUP_LAT_MAX_WORKERS 1024

static const struct param_def wakeup_lat_params[] = {
	{"message_threads", PARAM_UINT, "1", NULL, 1, 256,
	 "message threads, each waking its own workers"},
	{"workers", PARAM_UINT, "2", NULL, 1, WAKEUP_LAT_MAX_WORKERS,
	 "worker threads per message thread (message_threads * workers <= 1024)"},
	{"runtime_s", PARAM_UINT, "5", NULL, 0, 604800,
	 "run time in s; 0: until stopped by SIGINT/SIGTERM"},
	{"think_us", PARAM_UINT, "1000", NULL, 0, 10000000,
	 "us a message thread sleeps between rounds"},
	{"work_us", PARAM_UINT, "100", NULL, 0, 10000000,
	 "us of CPU time a worker spends on one request"},
};

static const struct metric_def wakeup_lat_metrics[] = {
	{"wakeup_latency", "us", BETTER_LOWER,
	 "wake-up to worker running, op = p50|p90|p95|p99|p99.9|max|mean", 2, false},
	{"request_latency", "us", BETTER_LOWER,
	 "wake-up to the end of the request's work, op = p50|p90|p95|p99|p99.9|max|mean", 2,
	 false},
	{"requests_per_s", "requests/s", BETTER_HIGHER, "requests completed per s, op = all", 2, false},
};

#define M_WAKEUP (&wakeup_lat_metrics[0])
#define M_REQUEST (&wakeup_lat_metrics[1])
#define M_RATE (&wakeup_lat_metrics[2])

const struct load_ops wakeup_lat_load;

/* ---- the load itself ---- */

enum { POST_IDLE = 0, POST_REQUEST = 1, POST_EXIT = 2 };

struct message_thread;

struct worker {
	_Atomic uint32_t post;     /* futex word: POST_* */
	_Atomic uint64_t wake_ns;  /* the message thread's clock at the wake-up */
	_Atomic uint64_t requests; /* completed so far */
	struct message_thread *mt;
	uint64_t work_ns;
	pthread_t tid;
	bool started;
	struct lat_hist wakeup, request; /* written by the worker only */
};

struct message_thread {
	_Atomic uint32_t pending; /* futex word: workers still busy this round */
	_Atomic int *stop;
	struct worker *w;
	size_t n_workers;
	uint64_t think_ns;
	pthread_t tid;
};

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)uaddr, op, val, NULL, NULL, 0);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Spin until this thread has used ns of CPU time. */
static void burn_cpu(uint64_t ns)
{
	static _Atomic uint64_t sink;
	if (!ns)
		return;
	uint64_t start = thread_cpu_ns(), x = start;
	do {
		for (int i = 0; i < 256; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	} while (thread_cpu_ns() - start < ns);
	atomic_store_explicit(&sink, x, memory_order_relaxed);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t n = 0;

	for (;;) {
		uint32_t v;
		while ((v = atomic_load(&w->post)) == POST_IDLE)
			futex(&w->post, FUTEX_WAIT_PRIVATE, POST_IDLE);
		if (v == POST_EXIT)
			break;
		uint64_t now = builtin_now_ns();
		uint64_t wake = atomic_load_explicit(&w->wake_ns, memory_order_relaxed);
		lat_hist_add(&w->wakeup, now > wake ? now - wake : 0);
		burn_cpu(w->work_ns);
		now = builtin_now_ns();
		lat_hist_add(&w->request, now > wake ? now - wake : 0);
		atomic_store_explicit(&w->requests, ++n, memory_order_relaxed);
		atomic_store(&w->post, POST_IDLE);
		if (atomic_fetch_sub(&w->mt->pending, 1) == 1)
			futex(&w->mt->pending, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static void *message_main(void *arg)
{
	struct message_thread *mt = arg;

	while (!atomic_load_explicit(mt->stop, memory_order_relaxed)) {
		atomic_store(&mt->pending, (uint32_t)mt->n_workers);
		for (size_t i = 0; i < mt->n_workers; i++) {
			struct worker *w = &mt->w[i];
			atomic_store_explicit(&w->wake_ns, builtin_now_ns(), memory_order_relaxed);
			atomic_store(&w->post, POST_REQUEST);
			futex(&w->post, FUTEX_WAKE_PRIVATE, 1);
		}
		uint32_t v;
		while ((v = atomic_load(&mt->pending)) != 0)
			futex(&mt->pending, FUTEX_WAIT_PRIVATE, v);
		if (mt->think_ns) {
			struct timespec ts = {(time_t)(mt->think_ns / 1000000000ULL),
					      (long)(mt->think_ns % 1000000000ULL)};
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
		}
	}
	return NULL;
}

/* Tell every started worker of mt to exit and join them. */
static void stop_workers(struct message_thread *mt)
{
	for (size_t i = 0; i < mt->n_workers; i++) {
		struct worker *w = &mt->w[i];
		if (!w->started)
			continue;
		atomic_store(&w->post, POST_EXIT);
		futex(&w->post, FUTEX_WAKE_PRIVATE, 1);
		pthread_join(w->tid, NULL);
	}
}

static int wakeup_lat_main(int argc, char **argv)
{
	struct builtin_args a;
	if (builtin_begin(&a, &wakeup_lat_load, argc, argv))
		return a.exit_status;
	size_t n_mt = (size_t)builtin_arg_ll(&a, "message_threads");
	size_t n_w = (size_t)builtin_arg_ll(&a, "workers");
	uint64_t runtime_s = (uint64_t)builtin_arg_ll(&a, "runtime_s");
	uint64_t think_us = (uint64_t)builtin_arg_ll(&a, "think_us");
	uint64_t work_us = (uint64_t)builtin_arg_ll(&a, "work_us");
	if (n_mt * n_w > WAKEUP_LAT_MAX_WORKERS) {
		fprintf(stderr, "schedrig load wakeup-lat: %zu message threads * %zu workers > %d workers\n",
			n_mt, n_w, WAKEUP_LAT_MAX_WORKERS);
		return BUILTIN_EXIT_USAGE;
	}

	_Atomic int stop = 0;
	struct message_thread *mts = xcalloc(n_mt, sizeof(*mts));
	struct worker *workers = xcalloc(n_mt * n_w, sizeof(*workers));
	const char *failure = NULL;
	char failbuf[160];
	size_t mt_started = 0;

	for (size_t m = 0; m < n_mt && !failure; m++) {
		struct message_thread *mt = &mts[m];
		mt->stop = &stop;
		mt->w = &workers[m * n_w];
		mt->n_workers = n_w;
		mt->think_ns = think_us * 1000;
		for (size_t i = 0; i < n_w; i++) {
			struct worker *w = &mt->w[i];
			w->mt = mt;
			w->work_ns = work_us * 1000;
			lat_hist_init(&w->wakeup);
			lat_hist_init(&w->request);
			int e = pthread_create(&w->tid, NULL, worker_main, w);
			if (e) {
				snprintf(failbuf, sizeof(failbuf), "pthread_create: %s", strerror(e));
				failure = failbuf;
				break;
			}
			w->started = true;
		}
	}

	uint64_t start = builtin_now_ns(), stop_ns = start, total = 0;
	if (!failure) {
		printf("schedrig-wakeup-lat 1 message_threads=%zu workers=%zu runtime_s=%llu think_us=%llu work_us=%llu\n",
		       n_mt, n_w, (unsigned long long)runtime_s, (unsigned long long)think_us,
		       (unsigned long long)work_us);
		fflush(stdout);
		start = builtin_now_ns();
		for (; mt_started < n_mt; mt_started++) {
			int e = pthread_create(&mts[mt_started].tid, NULL, message_main, &mts[mt_started]);
			if (e) {
				snprintf(failbuf, sizeof(failbuf), "pthread_create: %s", strerror(e));
				failure = failbuf;
				break;
			}
		}
	}
	if (!failure) {
		uint64_t end = runtime_s ? start + runtime_s * 1000000000ULL : UINT64_MAX;
		for (;;) {
			int sig = builtin_wait_signal(&a.sigs, end);
			if (sig == SIGINT || sig == SIGTERM || sig == 0)
				break;
		}
		stop_ns = builtin_now_ns();
		for (size_t i = 0; i < n_mt * n_w; i++)
			total += atomic_load(&workers[i].requests);
	}
	atomic_store(&stop, 1);
	for (size_t m = 0; m < mt_started; m++)
		pthread_join(mts[m].tid, NULL);
	for (size_t m = 0; m < n_mt; m++)
		stop_workers(&mts[m]);

	int rc = 0;
	if (failure) {
		fprintf(stderr, "schedrig load wakeup-lat: %s\n", failure);
		rc = 1;
	} else {
		struct lat_hist *wake = xmalloc(sizeof(*wake)), *req = xmalloc(sizeof(*req));
		lat_hist_init(wake);
		lat_hist_init(req);
		for (size_t i = 0; i < n_mt * n_w; i++) {
			lat_hist_merge(wake, &workers[i].wakeup);
			lat_hist_merge(req, &workers[i].request);
		}
		double elapsed = (double)(stop_ns - start) / 1e9;
		lat_hist_print_us(wake, M_WAKEUP->name, stdout);
		lat_hist_print_us(req, M_REQUEST->name, stdout);
		printf("%s all %.1f\n", M_RATE->name, elapsed > 0 ? (double)total / elapsed : 0.0);
		printf("end elapsed_s=%.6f requests=%llu\n", elapsed, (unsigned long long)total);
		fflush(stdout);
		free(wake);
		free(req);
	}
	free(workers);
	free(mts);
	return rc;
}

/* ---- the driver side: the parser ---- */

static int wakeup_lat_parse(const struct load_output *o, const struct params *p,
			    struct sample_vec *samples, char *why, size_t whysz)
{
	(void)p;
	struct builtin_reader r;
	int got;
	if (builtin_parse_begin(o, "wakeup-lat", &r, why, whysz))
		return -1;

	struct sample_vec tmp = {0};
	struct lat_hist_reader hists = {0};
	bool have_rate = false;
	double rate = 0;
	int rc = -1;

	double v;
	while ((got = builtin_next_sample(&r, &v, why, whysz)) > 0) {
		const char *m = r.field[0];
		const char *op = r.field[1];
		if (!strcmp(m, M_WAKEUP->name) || !strcmp(m, M_REQUEST->name)) {
			const struct metric_def *md = strcmp(m, M_WAKEUP->name) ? M_REQUEST : M_WAKEUP;
			if (lat_hist_read_line(&hists, md, op, v, r.lineno, &tmp, why, whysz))
				goto out;
		} else if (!strcmp(m, M_RATE->name)) {
			if (strcmp(op, "all") || have_rate) {
				snprintf(why, whysz, "line %u: bad or repeated %s op '%s'", r.lineno, m, op);
				goto out;
			}
			have_rate = true;
			rate = v;
			sample_vec_add(&tmp, M_RATE->name, M_RATE->unit, M_RATE->better, op, v);
		} else {
			snprintf(why, whysz, "line %u: unknown metric '%s'", r.lineno, m);
			goto out;
		}
	}
	if (got < 0)
		goto out;
	if (!have_rate) {
		snprintf(why, whysz, "no %s line", M_RATE->name);
		goto out;
	}
	const struct metric_def *lat[] = {M_WAKEUP, M_REQUEST};
	rc = lat_hist_read_finish(&hists, lat, 2, rate > 0, &tmp, samples, why, whysz);
out:
	sample_vec_free(&tmp);
	lat_hist_read_free(&hists);
	return rc;
}

/* The wakeup-lat driver (see the top of this file). */
const struct load_ops wakeup_lat_load = {
	.name = "wakeup-lat",
	.description = "schbench-like wake-up latency: message threads waking workers (us percentiles, requests/s)",
	.params = wakeup_lat_params,
	.n_params = sizeof(wakeup_lat_params) / sizeof(wakeup_lat_params[0]),
	.metrics = wakeup_lat_metrics,
	.n_metrics = sizeof(wakeup_lat_metrics) / sizeof(wakeup_lat_metrics[0]),
	.stop_signal = SIGINT,
	.summarizes_on_stop = true,
	.until_stopped_param = "runtime_s",
	.parse = wakeup_lat_parse,
	.builtin_main = wakeup_lat_main,
};
