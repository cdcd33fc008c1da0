/* schedrig mail [RUN...]: the comparison tables of the chosen runs (as
 * schedrig compare prints them) plus a short provenance block as one
 * RFC 5322 message (reports/mailmsg.h), written to a file, printed, or sent
 * over SMTP with libcurl. The SMTP password comes from the environment
 * (SCHEDRIG_SMTP_PASSWORD) or ~/.netrc, never from the command line, and is
 * never printed or stored. */
#include <curl/curl.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "bisect_report.h"
#include "bisect_verify.h"
#include "cmdopts.h"
#include "commands.h"
#include "mailmsg.h"
#include "netrc.h"
#include "reportcmd.h"
#include "runinfo.h"

#define PASSWORD_ENV "SCHEDRIG_SMTP_PASSWORD"
#define MAX_RCPT 64

static const char usage_text[] =
	"usage: schedrig mail [--db FILE] [RUN... | --bisection ID] --from ADDR --to ADDR\n"
	"                     [--to ADDR]...\n"
	"                     [--cc ADDR]... --subject TEXT [--in-reply-to MSGID]\n"
	"                     (--smtp-url URL | --output FILE | --dry-run)\n"
	"                     [--smtp-user USER] [--insecure]\n"
	"\n"
	"Mail the comparison tables of the given runs (ids, names or 'latest'; default\n"
	"the newest run; the tables schedrig compare prints) with a short provenance\n"
	"block as a plain-text message (text/plain; charset=utf-8; format=fixed; 8bit, or\n"
	"quoted-printable when the text needs it). A table line over 998 octets is\n"
	"refused (RFC 5322): narrow it with --metric, --load or --columns. The notes\n"
	"under the tables (No samples: ..., Iterations: ...) follow them, a longer\n"
	"one folded.\n"
	"\n"
	"  --from ADDR          sender, 'addr' or 'Name <addr>'\n"
	"  --to ADDR, --cc ADDR recipients (repeatable)\n"
	"  --subject TEXT       subject (UTF-8; encoded and folded as needed)\n"
	"  --in-reply-to MSGID  reply into a thread (sets In-Reply-To and References)\n"
	"  --output FILE        write the message to FILE (.eml, LF line ends, for\n"
	"                       git send-email or a mail client)\n"
	"  --dry-run            print the message instead of sending it\n"
	"  --smtp-url URL       send it: smtp://HOST[:PORT] (STARTTLS required unless\n"
	"                       HOST is a loopback address or --insecure is given) or\n"
	"                       smtps://HOST[:PORT] (TLS from the start)\n"
	"  --smtp-user USER     SMTP user; the password is read from the environment\n"
	"                       variable " PASSWORD_ENV " or ~/.netrc (machine HOST\n"
	"                       login USER password ...), never an option; with\n"
	"                       neither it is a usage error\n"
	"  --insecure           allow smtp:// without STARTTLS to a non-loopback host\n"
	"  --bisection ID       mail what bisection ID found (schedrig bisect): the\n"
	"                       result, the rule, the table of its steps and the\n"
	"                       table of good end / last good / first bad / bad end\n"
	"                       (its metric unless --metric or --load says otherwise),\n"
	"                       instead of the tables of RUNs\n"
	"  --db FILE            results database (default " DEFAULT_DB ")\n"
	"  --columns AXIS, --baseline NAME, --significance TEST, --alpha A,\n"
	"  --decimals N, --metric M, --load L   as for schedrig compare\n"
	"  -h, --help           this text\n"
	"\n"
	"Exit status: 0 written or sent, 1 failure (database, refused table, SMTP\n"
	"server unreachable or refusing), 2 bad usage (options, addresses, subject,\n"
	"message id, --smtp-url, --smtp-user without a password).\n";

enum {
	OPT_FROM = OPT_SHARED_LAST + 1, OPT_TO, OPT_CC, OPT_SUBJECT, OPT_IN_REPLY_TO,
	OPT_SMTP_URL, OPT_DRY_RUN, OPT_SMTP_USER, OPT_INSECURE, OPT_BISECTION,
};

struct mail_opts {
	const char *from, *subject, *in_reply_to, *smtp_url, *smtp_user, *output;
	const char *to[MAX_RCPT], *cc[MAX_RCPT];
	size_t n_to, n_cc;
	bool dry_run, insecure;
	int64_t bisection;   /* --bisection ID, 0 none */
};

/* The tables of the mail: the default layout's text (as compare prints
 * them). */
static void mail_tables(struct buf *out, const struct summary *s, const struct report_opts *ro)
{
	const struct report_input in = {.s = s, .o = ro};
	char err[512];
	report_layout_find(REPORT_LAYOUT_DEFAULT)->text(out, &in, err, sizeof(err));
}

/* Which table holds a line longer than the limit (NULL: none). */
static const struct summary_table *wide_table(const struct summary *s,
					      const struct report_opts *ro, size_t *width)
{
	for (size_t i = 0; i < s->n_tables; i++) {
		struct summary one = *s;
		struct buf b = {0};
		one.tables = &s->tables[i];
		one.n_tables = 1;
		mail_tables(&b, &one, ro);
		const char *p = buf_str(&b);
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			size_t trimmed = len;
			while (trimmed && (p[trimmed - 1] == ' ' || p[trimmed - 1] == '\t'))
				trimmed--;
			if (trimmed > MAILMSG_LINE_MAX) {
				*width = trimmed;
				buf_free(&b);
				return &s->tables[i];
			}
			p = nl ? nl + 1 : p + len;
		}
		buf_free(&b);
	}
	return NULL;
}

struct upload {
	const char *data;
	size_t len, off;
};

static size_t read_message(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct upload *u = userdata;
	size_t room = size * nmemb, left = u->len - u->off;
	size_t n = left < room ? left : room;
	memcpy(ptr, u->data + u->off, n);
	u->off += n;
	return n;
}

static int send_smtp(const struct mail_opts *o, const struct buf *msg)
{
	char spec[512], errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *rcpt = NULL;
	struct upload up = {buf_str(msg), msg->len, 0};
	int rc = 1;

	bool tls_url = !strncasecmp(o->smtp_url, "smtps://", 8);
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "schedrig mail: libcurl initialisation failed\n");
		return 1;
	}
	CURL *h = curl_easy_init();
	if (!h) {
		fprintf(stderr, "schedrig mail: libcurl initialisation failed\n");
		curl_global_cleanup();
		return 1;
	}
	bool require_tls = !tls_url && !o->insecure && !mail_host_is_loopback(o->smtp_url);
	curl_easy_setopt(h, CURLOPT_URL, o->smtp_url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(h, CURLOPT_USE_SSL, (long)(require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
	mailmsg_addr_spec(o->from, spec, sizeof(spec));
	char *from = xasprintf("<%s>", spec);
	curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
	for (int list = 0; list < 2; list++) {
		const char *const *a = list ? o->cc : o->to;
		size_t n = list ? o->n_cc : o->n_to;
		for (size_t i = 0; i < n; i++) {
			mailmsg_addr_spec(a[i], spec, sizeof(spec));
			char *r = xasprintf("<%s>", spec);
			rcpt = curl_slist_append(rcpt, r);
			free(r);
		}
	}
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
	if (o->smtp_user)
		curl_easy_setopt(h, CURLOPT_USERNAME, o->smtp_user);
	const char *pw = getenv(PASSWORD_ENV);
	if (pw && *pw)
		curl_easy_setopt(h, CURLOPT_PASSWORD, pw);
	else
		curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, read_message);
	curl_easy_setopt(h, CURLOPT_READDATA, &up);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)msg->len);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 300L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);

	CURLcode cc = curl_easy_perform(h);
	long code = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (cc != CURLE_OK) {
		fprintf(stderr, "schedrig mail: sending via %s failed: %s", o->smtp_url,
			errbuf[0] ? errbuf : curl_easy_strerror(cc));
		if (code)
			fprintf(stderr, " (last SMTP reply %ld)", code);
		if (cc == CURLE_USE_SSL_FAILED)
			fprintf(stderr, "; the server offers no STARTTLS (--insecure allows plain SMTP)");
		fprintf(stderr, "\n");
	} else {
		printf("sent to %zu recipient(s) via %s (SMTP %ld)\n", o->n_to + o->n_cc, o->smtp_url,
		       code);
		rc = 0;
	}
	curl_slist_free_all(rcpt);
	free(from);
	curl_easy_cleanup(h);
	curl_global_cleanup();
	return rc;
}

/* The message with LF line ends, for files and the terminal. */
static void to_lf(struct buf *dst, const struct buf *src)
{
	const char *s = buf_str(src);
	for (size_t i = 0; i < src->len; i++)
		if (!(s[i] == '\r' && i + 1 < src->len && s[i + 1] == '\n'))
			buf_append(dst, &s[i], 1);
}

/* --smtp-url is smtp://HOST[:PORT] or smtps://HOST[:PORT] (libcurl's URL
 * parser decides). 0, or EXIT_USAGE after a message. */
static int check_smtp_url(const char *url)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL;
	bool ok = u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
		  curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
		  curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
		  (!strcasecmp(scheme, "smtp") || !strcasecmp(scheme, "smtps")) && *host;
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	if (ok)
		return 0;
	fprintf(stderr, "schedrig mail: --smtp-url must be smtp://HOST[:PORT] or "
		"smtps://HOST[:PORT]: '%s'\n", url);
	return EXIT_USAGE;
}

/* --smtp-user needs a password libcurl will send: SCHEDRIG_SMTP_PASSWORD,
 * else a ~/.netrc entry for the URL's host and that user ($HOME/.netrc,
 * else the passwd entry's home, as libcurl looks). 0, or EXIT_USAGE after
 * a message naming both places. */
static int check_password(const struct mail_opts *o)
{
	const char *pw = getenv(PASSWORD_ENV);
	if (pw && *pw)
		return 0;
	char *netrc = netrc_path();
	CURLU *u = curl_url();
	char *host = NULL;
	bool found = false;
	if (u && curl_url_set(u, CURLUPART_URL, o->smtp_url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		size_t len = strlen(host);
		if (len >= 2 && host[0] == '[' && host[len - 1] == ']') {
			memmove(host, host + 1, len - 2);
			host[len - 2] = '\0';
		}
		found = netrc_lookup(netrc, host, o->smtp_user, NULL, 0) == 0;
	}
	if (!found)
		fprintf(stderr, "schedrig mail: --smtp-user %s: no password: none in the environment "
			"variable " PASSWORD_ENV " and no entry 'machine %s login %s password ...' "
			"in %s\n", o->smtp_user, host ? host : "?", o->smtp_user, netrc);
	curl_free(host);
	curl_url_cleanup(u);
	free(netrc);
	return found ? 0 : EXIT_USAGE;
}

/* A --to or --cc address, at most MAX_RCPT of each. 0, or EXIT_USAGE
 * after a message. */
static int add_recipient(struct mail_opts *o, bool to, const char *addr)
{
	size_t *n = to ? &o->n_to : &o->n_cc;
	if (*n == MAX_RCPT) {
		fprintf(stderr, "schedrig mail: at most %d --to and %d --cc\n", MAX_RCPT, MAX_RCPT);
		return EXIT_USAGE;
	}
	(to ? o->to : o->cc)[(*n)++] = addr;
	return 0;
}

/* One option opt of mail's own with its value arg into o
 * (cmd_report_parse). Returns 0, EXIT_USAGE after a message, or -1 for a
 * report option. */
static int mail_option(int opt, const char *arg, void *ctx)
{
	struct mail_opts *o = ctx;
	long long id;

	switch (opt) {
	case OPT_OUTPUT:
		o->output = arg;
		break;
	case OPT_FROM:
		o->from = arg;
		break;
	case OPT_TO:
	case OPT_CC:
		if (add_recipient(o, opt == OPT_TO, arg))
			return EXIT_USAGE;
		break;
	case OPT_SUBJECT:
		o->subject = arg;
		break;
	case OPT_IN_REPLY_TO:
		o->in_reply_to = arg;
		break;
	case OPT_SMTP_URL:
		o->smtp_url = arg;
		break;
	case OPT_DRY_RUN:
		o->dry_run = true;
		break;
	case OPT_SMTP_USER:
		o->smtp_user = arg;
		break;
	case OPT_INSECURE:
		o->insecure = true;
		break;
	case OPT_BISECTION:
		if (!parse_ll(arg, &id) || id < 1) {
			fprintf(stderr, "schedrig mail: --bisection wants a bisection ID, not"
				" '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->bisection = id;
		break;
	default:
		return -1;
	}
	return 0;
}

/* The options together: the required ones, one way out, the SMTP URL and
 * password, and a trial message from the addresses, subject and
 * --in-reply-to, before the database is read (a message with an empty body
 * must compose; only the tables can make the real message fail later, a
 * line too long). 0, or EXIT_USAGE after a message. */
static int check_opts(const struct mail_opts *o)
{
	char err[512];

	if (!o->from || !o->n_to || !o->subject) {
		fprintf(stderr, "schedrig mail: --from, --to and --subject are required\n"
			"Try 'schedrig mail --help'.\n");
		return EXIT_USAGE;
	}
	if ((o->smtp_url != NULL) + (o->output != NULL) + o->dry_run != 1) {
		fprintf(stderr, "schedrig mail: give exactly one of --smtp-url, --output, --dry-run\n"
			"Try 'schedrig mail --help'.\n");
		return EXIT_USAGE;
	}
	if (o->smtp_url && check_smtp_url(o->smtp_url))
		return EXIT_USAGE;
	if (o->smtp_url && o->smtp_user && check_password(o))
		return EXIT_USAGE;
	struct mailmsg m = {
		.from = o->from, .to = o->to, .n_to = o->n_to, .cc = o->cc, .n_cc = o->n_cc,
		.subject = o->subject, .in_reply_to = o->in_reply_to, .date = time(NULL),
	};
	struct buf trial = {0};
	int bad = mailmsg_compose(&m, &trial, NULL, err, sizeof(err));
	buf_free(&trial);
	if (bad) {
		fprintf(stderr, "schedrig mail: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct reportcmd *c, struct mail_opts *o)
{
	static const int shared[] = {
		OPT_DB, OPT_COLUMNS, OPT_BASELINE, OPT_DECIMALS, OPT_SIGNIFICANCE, OPT_ALPHA,
		OPT_METRIC, OPT_LOAD, OPT_OUTPUT, 0,
	};
	static const struct option long_options[] = {
		{"from", required_argument, NULL, OPT_FROM},
		{"to", required_argument, NULL, OPT_TO},
		{"cc", required_argument, NULL, OPT_CC},
		{"subject", required_argument, NULL, OPT_SUBJECT},
		{"in-reply-to", required_argument, NULL, OPT_IN_REPLY_TO},
		{"smtp-url", required_argument, NULL, OPT_SMTP_URL},
		{"dry-run", no_argument, NULL, OPT_DRY_RUN},
		{"smtp-user", required_argument, NULL, OPT_SMTP_USER},
		{"insecure", no_argument, NULL, OPT_INSECURE},
		{"bisection", required_argument, NULL, OPT_BISECTION},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const struct cmd_optspec spec = {
		.cmd = "mail", .shortopts = "h", .longopts = long_options, .usage = usage_text,
		.bad_hint = " (missing value?)", .on = mail_option, .ctx = o, .shared = shared,
	};
	int rc = cmd_report_parse(argc, argv, c, &spec);

	if (rc >= 0)
		return rc;
	if (check_opts(o))
		return EXIT_USAGE;
	if (o->bisection && c->n_runs) {
		fprintf(stderr, "schedrig mail: --bisection takes its own runs; no RUN with it\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* For --bisection: what bisection id found (its rows checked first by
 * bisect_verify_show) into body, and its table of good end / last good /
 * first bad / bad end selected in c (sel keeps what c points to;
 * sel->n_runs 0: no point measured, no table). 0, or 1 after a message. */
static int bisection_head(struct reportcmd *c, int64_t id, struct buf *body,
			  struct bisect_report_sel *sel)
{
	char err[1024];
	struct store *st = cmd_store(c->ctx, c->db);
	memset(sel, 0, sizeof(*sel));
	if (!st)
		return 1;
	if (bisect_verify_show(st, id, err, sizeof(err))) {
		fprintf(stderr, "schedrig mail: %s; not mailing it\n", err);
		return 1;
	}
	int rc = bisect_report_text(st, id, body, err, sizeof(err)) ||
		 bisect_report_select(st, id, c, sel, err, sizeof(err));
	if (rc)
		fprintf(stderr, "schedrig mail: %s\n", err);
	else
		buf_puts(body, "\n");
	return rc ? 1 : 0;
}

int cmd_mail(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct reportcmd c;
	struct mail_opts o = {0};
	int rc;

	reportcmd_init(&c, ctx);
	rc = parse_args(argc, argv, &c, &o);
	if (rc >= 0)
		return rc;

	struct reportcmd_data d = {0};
	struct bisect_report_sel sel = {0};
	struct buf body = {0}, msg = {0}, text = {0};
	struct runinfo *ri = NULL;
	char err[1024] = "";

	if (o.bisection) {
		rc = bisection_head(&c, o.bisection, &body, &sel);
		if (rc)
			goto out;
	}
	rc = !o.bisection || sel.n_runs ? reportcmd_prepare(&c, false, &d) : 0;
	if (rc)
		goto out;
	rc = 1;
	if (d.summarised)
		mail_tables(&body, &d.s, &c.ro);
	/* The notes as compare prints them; one longer than a mail line is
	 * folded rather than refused (a table line cannot be). */
	report_notes_text(&text, &d.notes);
	mailmsg_fold_lines(&body, buf_str(&text), MAILMSG_LINE_MAX);
	buf_free(&text);
	if (runinfo_load(ctx->st, c.db, d.ids, d.n_ids, &ri, err, sizeof(err))) {
		fprintf(stderr, "schedrig mail: %s\n", err);
		goto out;
	}
	buf_puts(&body, "\n");
	runinfo_text(&body, ri, d.n_ids);

	struct mailmsg m = {
		.from = o.from, .to = o.to, .n_to = o.n_to, .cc = o.cc, .n_cc = o.n_cc,
		.subject = o.subject, .in_reply_to = o.in_reply_to, .date = time(NULL),
		.body = buf_str(&body),
	};
	size_t bad_line = 0;
	if (mailmsg_compose(&m, &msg, &bad_line, err, sizeof(err))) {
		size_t width = 0;
		const struct summary_table *wt = bad_line && d.summarised
						 ? wide_table(&d.s, &c.ro, &width) : NULL;
		if (wt) {
			struct buf title = {0};
			summary_table_title(&title, &d.s, wt);
			fprintf(stderr, "schedrig mail: refused: table '%s' has a line of %zu octets; "
				"a mail line holds at most %d (RFC 5322 2.1.1); narrow it with "
				"--metric, --load or --columns\n", buf_str(&title), width,
				MAILMSG_LINE_MAX);
			buf_free(&title);
		} else {
			fprintf(stderr, "schedrig mail: refused: %s\n", err);
		}
		goto out;
	}
	if (o.smtp_url) {
		rc = send_smtp(&o, &msg);
	} else {
		struct buf lf = {0};
		to_lf(&lf, &msg);
		c.output = o.output;  /* NULL for --dry-run: stdout */
		rc = reportcmd_write(&c, &lf);
		buf_free(&lf);
	}
out:
	runinfo_free(ri, d.n_ids);
	buf_free(&body);
	buf_free(&msg);
	reportcmd_data_free(&d);
	bisect_report_sel_free(&sel);
	reportcmd_free(&c);
	return rc;
}
