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
 * 1 without a summary. Bad arguments: exit 2.
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
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lat_hist.h"
#include "load.h"

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

/* ---- the load itself ---- */

enum side_state { SIDE_STARTING, SIDE_READY, SIDE_FAILED, SIDE_DONE };
enum run_state { RUN_WAIT, RUN_GO, RUN_STOP };

/* Per pair, in memory shared with the children in process mode. */
struct pair_shm {
	_Atomic uint64_t transactions; /* completed by the client so far */
	_Atomic int client_state, server_state;
	char err[200];                 /* why a side failed */
	struct lat_hist hist;          /* client round trips; read after the client ended */
};

struct rr_shm {
	_Atomic int run; /* enum run_state */
	struct pair_shm pair[];
};

struct rr_conf {
	unsigned pairs;
	uint64_t duration_s;
	size_t request_bytes, response_bytes;
	bool threads;
};

/* One side of one pair: what its thread or child needs. */
struct side {
	struct rr_shm *shm;
	const struct rr_conf *conf;
	unsigned pair;
	int listen_fd;                   /* server: owned and closed by it */
	struct sockaddr_storage addr;    /* client: where to connect */
	socklen_t addrlen;
	pthread_t tid;
	pid_t pid;
};

/* Record why a side failed: what failed and an errno value, or -1 for "the
 * peer closed the connection". */
static void side_fail(struct side *s, _Atomic int *state, const char *what, int err)
{
	struct pair_shm *p = &s->shm->pair[s->pair];
	snprintf(p->err, sizeof(p->err), "pair %u %s: %s: %s", s->pair,
		 state == &p->client_state ? "client" : "server", what,
		 err == -1 ? "the peer closed the connection" : strerror(err));
	atomic_store(state, SIDE_FAILED);
}

static bool stopping(const struct side *s)
{
	return atomic_load_explicit(&s->shm->run, memory_order_relaxed) == RUN_STOP;
}

/* Write all n bytes. 0, or an errno value. */
static int send_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read exactly n bytes. 0, -1 at end of stream, or an errno value. */
static int recv_all(int fd, char *buf, size_t n)
{
	while (n) {
		ssize_t r = recv(fd, buf, n, 0);
		if (r == 0)
			return -1;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static void set_nodelay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void server_run(struct side *s)
{
	struct pair_shm *p = &s->shm->pair[s->pair];
	int fd = -1;

	/* Accept with a timeout so that a client that never connects (failed)
	 * cannot keep the server waiting past the stop. */
	while (fd < 0) {
		struct pollfd pfd = {.fd = s->listen_fd, .events = POLLIN};
		if (stopping(s)) {
			close(s->listen_fd);
			atomic_store(&p->server_state, SIDE_DONE);
			return;
		}
		int r = poll(&pfd, 1, 100);
		if (r < 0 && errno != EINTR) {
			side_fail(s, &p->server_state, "poll", errno);
			close(s->listen_fd);
			return;
		}
		if (r > 0) {
			fd = accept(s->listen_fd, NULL, NULL);
			if (fd < 0 && errno != EINTR && errno != EAGAIN) {
				side_fail(s, &p->server_state, "accept", errno);
				close(s->listen_fd);
				return;
			}
		}
	}
	close(s->listen_fd);
	set_nodelay(fd);
	atomic_store(&p->server_state, SIDE_READY);

	char *req = xmalloc(s->conf->request_bytes), *resp = xcalloc(1, s->conf->response_bytes);
	for (;;) {
		int e = recv_all(fd, req, s->conf->request_bytes);
		if (e == -1)
			break; /* the client closed: done */
		if (e) {
			if (!stopping(s))
				side_fail(s, &p->server_state, "read request", e);
			break;
		}
		e = send_all(fd, resp, s->conf->response_bytes);
		if (e) {
			if (!stopping(s))
				side_fail(s, &p->server_state, "write response", e);
			break;
		}
	}
	if (atomic_load(&p->server_state) != SIDE_FAILED)
		atomic_store(&p->server_state, SIDE_DONE);
	free(req);
	free(resp);
	close(fd);
}

static void client_run(struct side *s)
{
	struct pair_shm *p = &s->shm->pair[s->pair];
	int fd = socket(s->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		side_fail(s, &p->client_state, "socket", errno);
		return;
	}
	if (connect(fd, (struct sockaddr *)&s->addr, s->addrlen) < 0) {
		side_fail(s, &p->client_state, "connect", errno);
		close(fd);
		return;
	}
	set_nodelay(fd);
	atomic_store(&p->client_state, SIDE_READY);

	while (atomic_load(&s->shm->run) == RUN_WAIT) {
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}

	char *req = xcalloc(1, s->conf->request_bytes), *resp = xmalloc(s->conf->response_bytes);
	uint64_t n = 0;
	while (atomic_load_explicit(&s->shm->run, memory_order_relaxed) == RUN_GO) {
		uint64_t t0 = builtin_now_ns();
		int e = send_all(fd, req, s->conf->request_bytes);
		if (e) {
			side_fail(s, &p->client_state, "write request", e);
			break;
		}
		e = recv_all(fd, resp, s->conf->response_bytes);
		if (e) {
			side_fail(s, &p->client_state, "read response", e);
			break;
		}
		lat_hist_add(&p->hist, builtin_now_ns() - t0);
		atomic_store_explicit(&p->transactions, ++n, memory_order_relaxed);
	}
	if (atomic_load(&p->client_state) != SIDE_FAILED)
		atomic_store(&p->client_state, SIDE_DONE);
	free(req);
	free(resp);
	close(fd);
}

static void *server_thread(void *arg)
{
	server_run(arg);
	return NULL;
}

static void *client_thread(void *arg)
{
	client_run(arg);
	return NULL;
}

/* Fork one side; the child dies with the parent and never returns. */
static pid_t fork_side(struct side *s, void (*run)(struct side *), pid_t parent)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	run(s);
	_exit(0);
}

/* Resolve host as a numeric, non-wildcard address. 0 or -1 with a message. */
static int resolve_host(const char *host, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_NUMERICHOST};
	struct addrinfo *ai = NULL;
	int e = getaddrinfo(host, NULL, &hints, &ai);
	if (e || !ai) {
		fprintf(stderr, "schedrig load tcp-rr: --host '%s': not a numeric IPv4/IPv6 address (%s)\n",
			host, e ? gai_strerror(e) : "no address");
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	bool wildcard = false;
	if (ss->ss_family == AF_INET)
		wildcard = ((struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	else if (ss->ss_family == AF_INET6)
		wildcard = IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)ss)->sin6_addr);
	if (wildcard) {
		fprintf(stderr, "schedrig load tcp-rr: --host '%s': a wildcard address would listen on every interface; name one address (127.0.0.1)\n",
			host);
		return -1;
	}
	return 0;
}

static void set_port(struct sockaddr_storage *ss, unsigned port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

/* A listening socket on addr with port; the bound address (with the port
 * the kernel chose) in *bound. -1 after printing the error. */
static int listen_on(const struct sockaddr_storage *addr, socklen_t len, unsigned port,
		     struct sockaddr_storage *bound, socklen_t *boundlen)
{
	struct sockaddr_storage a = *addr;
	set_port(&a, port);
	int fd = socket(a.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fprintf(stderr, "schedrig load tcp-rr: socket: %s\n", strerror(errno));
		return -1;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, len) < 0 || listen(fd, 1) < 0) {
		fprintf(stderr, "schedrig load tcp-rr: listen on port %u: %s\n", port, strerror(errno));
		close(fd);
		return -1;
	}
	*boundlen = sizeof(*bound);
	if (getsockname(fd, (struct sockaddr *)bound, boundlen) < 0) {
		fprintf(stderr, "schedrig load tcp-rr: getsockname: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* First failure message of any side, or NULL. */
static const char *first_failure(struct rr_shm *shm, unsigned pairs)
{
	for (unsigned i = 0; i < pairs; i++)
		if (atomic_load(&shm->pair[i].client_state) == SIDE_FAILED ||
		    atomic_load(&shm->pair[i].server_state) == SIDE_FAILED)
			return shm->pair[i].err;
	return NULL;
}

/* Process mode: a child that ended before the stop is a failure. Returns its
 * description in buf, or NULL while all children run. */
static const char *reap_early(struct side *sides, size_t n, char *buf, size_t bufsz)
{
	for (size_t i = 0; i < n; i++) {
		int st;
		if (sides[i].pid <= 0 || waitpid(sides[i].pid, &st, WNOHANG) != sides[i].pid)
			continue;
		sides[i].pid = 0;
		snprintf(buf, bufsz, "pair %u %s process ended early (%s %d)", sides[i].pair,
			 i % 2 ? "client" : "server", WIFSIGNALED(st) ? "signal" : "status",
			 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		return buf;
	}
	return NULL;
}

/* Stop and collect every side: threads are joined; children get 5 s to
 * finish, then SIGKILL, and are reaped either way. */
static void collect_sides(struct side *sides, size_t n, bool threads)
{
	if (threads) {
		for (size_t i = 0; i < n; i++)
			if (sides[i].pid == 1) /* thread started */
				pthread_join(sides[i].tid, NULL);
		return;
	}
	uint64_t deadline = builtin_now_ns() + 5000000000ULL;
	for (;;) {
		size_t left = 0;
		for (size_t i = 0; i < n; i++) {
			if (sides[i].pid <= 0)
				continue;
			if (waitpid(sides[i].pid, NULL, WNOHANG) == sides[i].pid)
				sides[i].pid = 0;
			else
				left++;
		}
		if (!left)
			return;
		if (builtin_now_ns() >= deadline)
			break;
		struct timespec ts = {0, 5000000};
		nanosleep(&ts, NULL);
	}
	for (size_t i = 0; i < n; i++)
		if (sides[i].pid > 0)
			kill(sides[i].pid, SIGKILL);
	for (size_t i = 0; i < n; i++)
		if (sides[i].pid > 0) {
			while (waitpid(sides[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
			sides[i].pid = 0;
		}
}

const struct load_ops tcp_rr_load;

static int run_pairs(const struct rr_conf *conf, const struct sockaddr_storage *host,
		     socklen_t hostlen, unsigned base_port, const sigset_t *sigs)
{
	size_t shm_size = sizeof(struct rr_shm) + conf->pairs * sizeof(struct pair_shm);
	struct rr_shm *shm = mmap(NULL, shm_size, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		fprintf(stderr, "schedrig load tcp-rr: mmap: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned i = 0; i < conf->pairs; i++)
		lat_hist_init(&shm->pair[i].hist);

	/* sides[2i] server, sides[2i+1] client of pair i. pid: child pid in
	 * process mode, 1 for a started thread, 0 none. */
	size_t n_sides = 2 * (size_t)conf->pairs;
	struct side *sides = xcalloc(n_sides, sizeof(*sides));
	pid_t self = getpid();
	const char *failure = NULL;
	char failbuf[200];
	int rc = 0;

	for (unsigned i = 0; i < conf->pairs && !failure; i++) {
		struct side *srv = &sides[2 * i], *cli = &sides[2 * i + 1];
		srv->shm = cli->shm = shm;
		srv->conf = cli->conf = conf;
		srv->pair = cli->pair = i;
		srv->listen_fd = listen_on(host, hostlen, base_port ? base_port + i : 0,
					   &cli->addr, &cli->addrlen);
		cli->listen_fd = -1;
		if (srv->listen_fd < 0) {
			failure = "";
			break;
		}
		for (int k = 0; k < 2 && !failure; k++) {
			struct side *s = k ? cli : srv;
			if (conf->threads) {
				int e = pthread_create(&s->tid, NULL, k ? client_thread : server_thread, s);
				if (e) {
					snprintf(failbuf, sizeof(failbuf), "pthread_create: %s", strerror(e));
					failure = failbuf;
					if (!k)
						close(srv->listen_fd);
				} else {
					s->pid = 1;
				}
			} else {
				s->pid = fork_side(s, k ? client_run : server_run, self);
				if (s->pid < 0) {
					snprintf(failbuf, sizeof(failbuf), "fork: %s", strerror(errno));
					s->pid = 0;
					failure = failbuf;
				}
				if (!k)
					close(srv->listen_fd); /* the server child owns it now */
			}
		}
	}

	/* Wait until every connection is up (10 s at most). */
	uint64_t setup_deadline = builtin_now_ns() + 10000000000ULL;
	while (!failure) {
		if ((failure = first_failure(shm, conf->pairs)))
			break;
		if (!conf->threads && (failure = reap_early(sides, n_sides, failbuf, sizeof(failbuf))))
			break;
		unsigned ready = 0;
		for (unsigned i = 0; i < conf->pairs; i++)
			ready += atomic_load(&shm->pair[i].client_state) == SIDE_READY &&
				 atomic_load(&shm->pair[i].server_state) == SIDE_READY;
		if (ready == conf->pairs)
			break;
		if (builtin_now_ns() > setup_deadline) {
			failure = "connections not set up within 10 s";
			break;
		}
		int sig = builtin_wait_signal(sigs, builtin_now_ns() + 1000000);
		if (sig == SIGINT || sig == SIGTERM) {
			failure = "stopped before all connections were set up";
			break;
		}
	}

	uint64_t *prev = xcalloc(conf->pairs, sizeof(*prev));
	uint64_t *final = xcalloc(conf->pairs, sizeof(*final));
	uint64_t start = builtin_now_ns(), stop = start;
	if (!failure) {
		printf("schedrig-tcp-rr 1 pairs=%u mode=%s duration_s=%llu request_bytes=%zu response_bytes=%zu\n",
		       conf->pairs, conf->threads ? "thread" : "process",
		       (unsigned long long)conf->duration_s, conf->request_bytes, conf->response_bytes);
		fflush(stdout);
		start = builtin_now_ns();
		atomic_store(&shm->run, RUN_GO);
		uint64_t end = conf->duration_s ? start + conf->duration_s * 1000000000ULL : UINT64_MAX;
		uint64_t tick_start = start;
		uint64_t interval = 0;
		for (;;) {
			/* Ticks on whole seconds since the start, so that the end of a
			 * run of whole seconds is also the end of its last interval. */
			uint64_t next_tick = start + (interval + 1) * 1000000000ULL;
			int sig = builtin_wait_signal(sigs, next_tick < end ? next_tick : end);
			uint64_t now = builtin_now_ns();
			if (sig == SIGINT || sig == SIGTERM || now >= end) {
				stop = now;
				for (unsigned i = 0; i < conf->pairs; i++)
					final[i] = atomic_load(&shm->pair[i].transactions);
				if (now >= end && now >= next_tick && sig != SIGINT && sig != SIGTERM) {
					/* The run ended on a tick: that interval is whole. */
					double dt = (double)(now - tick_start) / 1e9;
					for (unsigned i = 0; i < conf->pairs; i++)
						printf("interval_transactions pair%u-s%llu %.1f\n", i,
						       (unsigned long long)interval,
						       (double)(final[i] - prev[i]) / dt);
				}
				break;
			}
			if ((failure = first_failure(shm, conf->pairs)))
				break;
			if (!conf->threads &&
			    (failure = reap_early(sides, n_sides, failbuf, sizeof(failbuf))))
				break;
			if (now < next_tick)
				continue; /* SIGCHLD or a spurious wake-up */
			double dt = (double)(now - tick_start) / 1e9;
			for (unsigned i = 0; i < conf->pairs; i++) {
				uint64_t cur = atomic_load(&shm->pair[i].transactions);
				printf("interval_transactions pair%u-s%llu %.1f\n", i,
				       (unsigned long long)interval,
				       (double)(cur - prev[i]) / dt);
				prev[i] = cur;
			}
			fflush(stdout);
			tick_start = now;
			interval++;
		}
	}
	atomic_store(&shm->run, RUN_STOP);
	collect_sides(sides, n_sides, conf->threads);
	if (!failure)
		failure = first_failure(shm, conf->pairs);

	if (failure) {
		if (*failure)
			fprintf(stderr, "schedrig load tcp-rr: %s\n", failure);
		rc = 1;
	} else {
		double elapsed = (double)(stop - start) / 1e9;
		uint64_t total = 0;
		struct lat_hist *all = xmalloc(sizeof(*all));
		lat_hist_init(all);
		for (unsigned i = 0; i < conf->pairs; i++) {
			printf("transactions %u %.1f\n", i, elapsed > 0 ? (double)final[i] / elapsed : 0.0);
			total += final[i];
			lat_hist_merge(all, &shm->pair[i].hist);
		}
		lat_hist_print_us(all, "latency", stdout);
		printf("end elapsed_s=%.6f transactions=%llu\n", elapsed, (unsigned long long)total);
		fflush(stdout);
		free(all);
	}
	free(prev);
	free(final);
	free(sides);
	munmap(shm, shm_size);
	return rc;
}

static int tcp_rr_main(int argc, char **argv)
{
	sigset_t sigs;
	builtin_block_signals(&sigs);

	const char *vals[sizeof(tcp_rr_params) / sizeof(tcp_rr_params[0])];
	int r = builtin_parse_args(&tcp_rr_load, argc, argv, vals);
	if (r)
		return r > 0 ? 0 : BUILTIN_EXIT_USAGE;

	struct rr_conf conf = {
		.pairs = (unsigned)builtin_val_ll(&tcp_rr_load, vals, "pairs"),
		.duration_s = (uint64_t)builtin_val_ll(&tcp_rr_load, vals, "duration_s"),
		.request_bytes = (size_t)builtin_val_ll(&tcp_rr_load, vals, "request_bytes"),
		.response_bytes = (size_t)builtin_val_ll(&tcp_rr_load, vals, "response_bytes"),
		.threads = !strcmp(builtin_val(&tcp_rr_load, vals, "mode"), "thread"),
	};
	unsigned port = (unsigned)builtin_val_ll(&tcp_rr_load, vals, "port");
	if (port && port + conf.pairs - 1 > 65535) {
		fprintf(stderr, "schedrig load tcp-rr: --port %u with %u pairs needs ports up to %u (> 65535)\n",
			port, conf.pairs, port + conf.pairs - 1);
		return BUILTIN_EXIT_USAGE;
	}
	struct sockaddr_storage host;
	socklen_t hostlen;
	if (resolve_host(builtin_val(&tcp_rr_load, vals, "host"), &host, &hostlen))
		return BUILTIN_EXIT_USAGE;
	return run_pairs(&conf, &host, hostlen, port, &sigs);
}

/* ---- the driver side: argv and parser ---- */

static int tcp_rr_build_argv(const struct params *p, struct argv *argv, char *err, size_t errsz)
{
	return builtin_build_argv(&tcp_rr_load, p, argv, err, errsz);
}

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
	bool seen_lat[8] = {false};
	size_t n_lat = 0, n_pairs = 0;
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
			int h = lat_hist_read_line(&hists, M_LATENCY, op, v, r.lineno, why, whysz);
			if (h < 0)
				goto out;
			if (h)
				continue;
			size_t i;
			for (i = 0; i < n_lat_ops; i++)
				if (!strcmp(op, lat_ops[i].op))
					break;
			if (i == n_lat_ops || seen_lat[i]) {
				snprintf(why, whysz, "line %u: bad or repeated latency op '%s'", r.lineno, op);
				goto out;
			}
			seen_lat[i] = true;
			n_lat++;
			sample_vec_add(&tmp, M_LATENCY->name, M_LATENCY->unit, M_LATENCY->better, op, v);
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
	if (n_lat != n_lat_ops && (n_lat || rate_sum > 0)) {
		snprintf(why, whysz, "%zu of %zu latency percentiles", n_lat, n_lat_ops);
		goto out;
	}
	if (lat_hist_read_finish(&hists, &tmp, samples, why, whysz))
		goto out;
	for (size_t i = 0; i < tmp.n; i++)
		sample_vec_add(samples, tmp.v[i].metric, tmp.v[i].unit, tmp.v[i].better, tmp.v[i].op,
			       tmp.v[i].value);
	rc = 0;
out:
	sample_vec_free(&tmp);
	lat_hist_read_free(&hists);
	free(seen_pair);
	return rc;
}

/* 0 means until stopped: background only. */
static int tcp_rr_check(const struct params *p, const struct sched_req *sched, bool background,
			char *err, size_t errsz)
{
	(void)sched;
	return params_check_ends(p, "duration_s", background, err, errsz);
}

const struct load_ops tcp_rr_load = {
	.name = "tcp-rr",
	.description = "TCP request/response pairs like netperf TCP_RR (transactions/s, round-trip latency)",
	.params = tcp_rr_params,
	.n_params = sizeof(tcp_rr_params) / sizeof(tcp_rr_params[0]),
	.metrics = tcp_rr_metrics,
	.n_metrics = sizeof(tcp_rr_metrics) / sizeof(tcp_rr_metrics[0]),
	.stop_signal = SIGINT,
	.summarizes_on_stop = true,
	.build_argv = tcp_rr_build_argv,
	.check = tcp_rr_check,
	.parse = tcp_rr_parse,
	.prepare = NULL,
	.builtin_main = tcp_rr_main,
};
