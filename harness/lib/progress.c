#include "progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool begun, tty, quiet, stop, thread_running, shown;
	FILE *f;
	size_t n_cells, total, completed;
	int iterations;
	char *variant;
	size_t next_cell;           /* position of the iteration running now */
	int next_it;
	char *last_states;
	struct timespec start;
} P = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

void progress_format_duration(char *dst, size_t size, double seconds)
{
	long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
	if (s >= 3600)
		snprintf(dst, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(dst, size, "%ld:%02ld", s / 60, s % 60);
}

static double elapsed_s(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - P.start.tv_sec) + (double)(now.tv_nsec - P.start.tv_nsec) / 1e9;
}

/* Append s with control characters as '?'. */
static void put_clean(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
		buf_append(b, *p < 0x20 || *p == 0x7f ? "?" : (const char *)p, 1);
}

static size_t term_width(void)
{
	struct winsize ws;
	if (ioctl(fileno(P.f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
		return ws.ws_col;
	return 80;
}

/* Under P.lock. */
static void draw(void)
{
	struct buf b = {0};
	char el[32], eta[32];
	double e = elapsed_s();

	buf_puts(&b, "[");
	put_clean(&b, P.variant ? P.variant : "-");
	buf_printf(&b, "] cell %zu/%zu iteration %d/%d | ", P.next_cell + 1, P.n_cells, P.next_it,
		   P.iterations);
	if (P.last_states) {
		buf_puts(&b, "last:");
		put_clean(&b, P.last_states);
	} else {
		buf_puts(&b, "running the first iteration");
	}
	progress_format_duration(el, sizeof(el), e);
	if (P.completed && P.total > P.completed)
		progress_format_duration(eta, sizeof(eta),
					 e / (double)P.completed * (double)(P.total - P.completed));
	else
		snprintf(eta, sizeof(eta), "%s", P.completed ? "0:00" : "-");
	char tail[96];
	snprintf(tail, sizeof(tail), " | %zu/%zu done, elapsed %s ETA %s", P.completed, P.total, el,
		 eta);
	/* Keep the tail; cut the middle so the line never wraps. */
	size_t width = term_width() - 1, tl = strlen(tail);
	const char *s = buf_str(&b);
	size_t chars = 0, cut = b.len;
	for (size_t i = 0; i < b.len; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (chars + tl + 3 >= width && tl < width) {
			cut = i;
			break;
		}
		chars++;
	}
	fputs("\r", P.f);
	fwrite(s, 1, cut, P.f);
	if (cut < b.len)
		fputs("...", P.f);
	if (tl < width)
		fputs(tail, P.f);
	fputs("\033[K", P.f);
	fflush(P.f);
	P.shown = true;
	buf_free(&b);
}

static void clear_line(void)
{
	if (P.shown) {
		fputs("\r\033[K", P.f);
		fflush(P.f);
		P.shown = false;
	}
}

static void *ticker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&P.lock);
	while (!P.stop) {
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_sec += 1;
		pthread_cond_timedwait(&P.wake, &P.lock, &t);
		if (!P.stop)
			draw();
	}
	pthread_mutex_unlock(&P.lock);
	return NULL;
}

void progress_begin(FILE *f, bool quiet, size_t n_variants, size_t n_cells, int iterations)
{
	pthread_mutex_lock(&P.lock);
	P.f = f;
	P.quiet = quiet;
	P.tty = !quiet && isatty(fileno(f));
	P.n_cells = n_cells;
	P.iterations = iterations;
	P.total = n_variants * n_cells * (size_t)(iterations > 0 ? iterations : 0);
	P.completed = 0;
	P.next_cell = 0;
	P.next_it = 1;
	P.stop = false;
	P.begun = true;
	clock_gettime(CLOCK_MONOTONIC, &P.start);
	if (P.tty) {
		draw();
		P.thread_running = pthread_create(&P.thread, NULL, ticker, NULL) == 0;
	}
	pthread_mutex_unlock(&P.lock);
}

void progress_variant(const char *variant)
{
	pthread_mutex_lock(&P.lock);
	free(P.variant);
	P.variant = xstrdup(variant ? variant : "");
	P.next_cell = 0;
	P.next_it = 1;
	if (P.tty)
		draw();
	pthread_mutex_unlock(&P.lock);
}

void progress_iteration(size_t c, const char *cell_name, int it, const char *states)
{
	pthread_mutex_lock(&P.lock);
	P.completed++;
	if (!P.quiet) {
		struct buf b = {0};
		buf_puts(&b, "[");
		put_clean(&b, P.variant);
		buf_printf(&b, "] cell %zu/%zu ", c + 1, P.n_cells);
		put_clean(&b, cell_name);
		buf_printf(&b, " iteration %d/%d:", it, P.iterations);
		put_clean(&b, states);
		if (P.tty)
			clear_line();
		fprintf(P.f, "%s\n", buf_str(&b));
		buf_free(&b);
	}
	free(P.last_states);
	P.last_states = xstrdup(states ? states : "");
	P.next_cell = c;
	P.next_it = it + 1;
	if (P.next_it > P.iterations) {
		P.next_it = 1;
		if (P.next_cell + 1 < P.n_cells)
			P.next_cell++;
	}
	if (P.tty)
		draw();
	else
		fflush(P.f);
	pthread_mutex_unlock(&P.lock);
}

void progress_end(void)
{
	pthread_mutex_lock(&P.lock);
	if (!P.begun) {
		pthread_mutex_unlock(&P.lock);
		return;
	}
	P.stop = true;
	pthread_cond_broadcast(&P.wake);
	bool join = P.thread_running;
	P.thread_running = false;
	pthread_mutex_unlock(&P.lock);
	if (join)
		pthread_join(P.thread, NULL);
	pthread_mutex_lock(&P.lock);
	if (P.tty)
		clear_line();
	free(P.variant);
	P.variant = NULL;
	free(P.last_states);
	P.last_states = NULL;
	P.begun = false;
	pthread_mutex_unlock(&P.lock);
}
