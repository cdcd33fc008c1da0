/* The sides of tcp-rr's pairs (the load itself: tcp_rr.c): each pair a
 * server and a client on their own TCP connection, each side a thread or a
 * child process (spawn's fn, PR_SET_PDEATHSIG SIGKILL), sharing struct
 * rr_shm (MAP_SHARED in process mode). One transaction: the client writes
 * request_bytes, the server reads exactly that and writes response_bytes,
 * the client reads exactly that; the client times each round trip
 * (CLOCK_MONOTONIC) into its pair's lat_hist. */
#ifndef SCHEDRIG_TCP_RR_SIDES_H
#define SCHEDRIG_TCP_RR_SIDES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "lat_hist.h"
#include "spawn.h"

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
	bool started;                    /* its thread or process runs */
	struct spawn proc;               /* process mode: the child running it */
	void (*run)(struct side *);      /* process mode: server_run or client_run */
};

/* Start side s, the client (client true) or the server, as a thread
 * (conf->threads) or a child process that dies with the parent. The
 * server's listen_fd is the side's from then on: closed here in process
 * mode (the child has it) and when the side could not start. 0 (s->started)
 * or -1 with err. */
int rr_side_start(struct side *s, bool client, char *err, size_t errsz);

/* Resolve host as a numeric, non-wildcard address into ss and len. 0, or
 * -1 after printing why on stderr. */
int rr_resolve_host(const char *host, struct sockaddr_storage *ss, socklen_t *len);

/* A listening socket on addr (len bytes) with port (0: one the kernel
 * chooses); the bound address (with that port) in *bound. The socket, or
 * -1 after printing why on stderr. */
int rr_listen_on(const struct sockaddr_storage *addr, socklen_t len, unsigned port,
		 struct sockaddr_storage *bound, socklen_t *boundlen);

/* The failure message of the first pair of shm's pairs with a failed side,
 * or NULL. */
const char *rr_first_failure(struct rr_shm *shm, unsigned pairs);

/* Process mode: a side's child that ended before the stop is a failure.
 * Returns its description in buf ("pair P client process ended early
 * (status N)"), or NULL while all the n sides' children run. */
const char *rr_reap_early(struct side *sides, size_t n, char *buf, size_t bufsz);

/* Stop and collect the n sides (shm->run must be RUN_STOP): threads
 * (threads true) are joined; children get 5 s to finish, then SIGKILL, and
 * are reaped either way. */
void rr_collect_sides(struct side *sides, size_t n, bool threads);

#endif
