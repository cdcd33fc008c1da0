#include "tcp_rr_sides.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "util.h"

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

static bool side_stopping(const struct side *s)
{
	return atomic_load_explicit(&s->shm->run, memory_order_relaxed) == RUN_STOP;
}

/* Send (sending) or receive exactly n bytes of buf over the connected
 * socket fd, again after EINTR. 0, -1 when the peer closed the connection
 * before all n bytes came, or an errno value. */
static int transfer_all(int fd, char *buf, size_t n, bool sending)
{
	while (n) {
		ssize_t k = sending ? send(fd, buf, n, MSG_NOSIGNAL) : recv(fd, buf, n, 0);
		if (k == 0 && !sending)
			return -1;
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		buf += k;
		n -= (size_t)k;
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
		if (side_stopping(s)) {
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
		int e = transfer_all(fd, req, s->conf->request_bytes, false);
		if (e == -1)
			break; /* the client closed: done */
		if (e) {
			if (!side_stopping(s))
				side_fail(s, &p->server_state, "read request", e);
			break;
		}
		e = transfer_all(fd, resp, s->conf->response_bytes, true);
		if (e) {
			if (!side_stopping(s))
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
		int e = transfer_all(fd, req, s->conf->request_bytes, true);
		if (e) {
			side_fail(s, &p->client_state, "write request", e);
			break;
		}
		e = transfer_all(fd, resp, s->conf->response_bytes, false);
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

/* A side in a child process (spawn's fn): the stop signals are the
 * parent's to handle; the side ends when shm->run says stop. */
static int side_main(void *arg)
{
	struct side *s = arg;
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	s->run(s);
	return 0;
}

/* Start one side as a child process that dies with the parent. 0, or -1
 * with err. */
static int fork_side(struct side *s, void (*run)(struct side *), char *err, size_t errsz)
{
	s->run = run;
	s->proc = (struct spawn){.fn = side_main, .fn_arg = s, .pdeath_sig = SIGKILL};
	return spawn_start(&s->proc, err, errsz);
}

int rr_side_start(struct side *s, bool client, char *err, size_t errsz)
{
	int rc = 0;
	if (s->conf->threads) {
		int e = pthread_create(&s->tid, NULL, client ? client_thread : server_thread, s);
		if (e) {
			snprintf(err, errsz, "pthread_create: %s", strerror(e));
			rc = -1;
			if (!client)
				close(s->listen_fd);
		}
	} else {
		rc = fork_side(s, client ? client_run : server_run, err, errsz);
		if (!client)
			close(s->listen_fd); /* the server child owns it now */
	}
	s->started = rc == 0;
	return rc;
}

/* Process mode: the children of the started sides, in procs (n slots).
 * Returns how many. */
static size_t side_procs(struct side *sides, size_t n, struct spawn **procs)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (sides[i].started)
			procs[k++] = &sides[i].proc;
	return k;
}

int rr_resolve_host(const char *host, struct sockaddr_storage *ss, socklen_t *len)
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

int rr_listen_on(const struct sockaddr_storage *addr, socklen_t len, unsigned port,
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

const char *rr_first_failure(struct rr_shm *shm, unsigned pairs)
{
	for (unsigned i = 0; i < pairs; i++)
		if (atomic_load(&shm->pair[i].client_state) == SIDE_FAILED ||
		    atomic_load(&shm->pair[i].server_state) == SIDE_FAILED)
			return shm->pair[i].err;
	return NULL;
}

const char *rr_reap_early(struct side *sides, size_t n, char *buf, size_t bufsz)
{
	struct spawn **procs = xcalloc(n, sizeof(*procs));
	spawn_poll(procs, side_procs(sides, n, procs), 0);
	free(procs);
	for (size_t i = 0; i < n; i++) {
		int st = sides[i].proc.status;
		if (!sides[i].started || !sides[i].proc.exited)
			continue;
		sides[i].started = false;
		snprintf(buf, bufsz, "pair %u %s process ended early (%s %d)", sides[i].pair,
			 i % 2 ? "client" : "server", WIFSIGNALED(st) ? "signal" : "status",
			 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		return buf;
	}
	return NULL;
}

void rr_collect_sides(struct side *sides, size_t n, bool threads)
{
	if (threads) {
		for (size_t i = 0; i < n; i++)
			if (sides[i].started)
				pthread_join(sides[i].tid, NULL);
		return;
	}
	struct spawn **procs = xcalloc(n, sizeof(*procs));
	size_t k = side_procs(sides, n, procs);
	uint64_t deadline = builtin_now_ns() + 5000000000ULL;
	for (uint64_t now = builtin_now_ns(); now < deadline; now = builtin_now_ns())
		if (!spawn_poll(procs, k, (int)((deadline - now) / 1000000) + 1))
			break;
	for (size_t i = 0; i < k; i++)
		spawn_kill(procs[i]); /* SIGKILL unless reaped already */
	for (size_t i = 0; i < n; i++)
		sides[i].started = false;
	free(procs);
}
