#include "mailmsg.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "base64.h"

#ifndef SCHEDRIG_VERSION
#define SCHEDRIG_VERSION "unknown"
#endif

/* RFC 2047 2: an encoded-word is at most 75 characters. "=?UTF-8?B?" + "?="
 * is 12; 42 octets of text are 56 base64 characters: 68 in all, so even the
 * first line "Subject: " + word stays within 78. */
#define EW_PAYLOAD 42

static bool has_crlf(const char *s)
{
	return strchr(s, '\r') || strchr(s, '\n');
}

/* Length of the UTF-8 sequence starting with c (valid input). */
static size_t utf8_len(unsigned char c)
{
	return c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
}

/* Encoded-words for s, the first on the current line (which is `col`
 * characters long), later ones on continuation lines " =?...?=". */
static void encoded_words(struct buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), i = 0;
	bool first = true;
	while (i < len || first) {
		size_t take = 0;
		while (i + take < len) {
			size_t l = utf8_len(p[i + take]);
			if (take + l > EW_PAYLOAD)
				break;
			take += l;
		}
		if (!first)
			buf_puts(out, "\r\n ");
		buf_puts(out, "=?UTF-8?B?");
		base64_encode(out, p + i, take);
		buf_puts(out, "?=");
		i += take;
		first = false;
	}
}

static bool plain_ascii(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return false;
	return !strstr(s, "=?");
}

/* The next token of s: its white space (*ws bytes) and its word (*wl
 * bytes, 0 at the end of s). */
static void next_token(const char *s, size_t *ws, size_t *wl)
{
	*ws = strspn(s, " \t");
	*wl = strcspn(s + *ws, " \t");
}

/* Can s be written as it is, folded at its white space (RFC 5322 2.2.3)?
 * Printable ASCII, not looking like an encoded-word, and each white space
 * with the word after it within MAILMSG_LINE_MAX octets when it follows
 * lead octets of the line: a longer word cannot be folded and becomes
 * encoded-words (RFC 2047 2: each at most 75 octets). */
static bool foldable(const char *s, size_t lead)
{
	if (!plain_ascii(s))
		return false;
	for (size_t ws, wl; *s; s += ws + wl) {
		next_token(s, &ws, &wl);
		if (lead + ws + wl > MAILMSG_LINE_MAX)
			return false;
	}
	return true;
}

/* Append foldable text s to out, the current line being col octets long:
 * a line break goes before the white space of a word that would pass
 * MAILMSG_FOLD_AT, so the next line starts with it (a word longer than
 * that stays whole; the first word stays on the current line). */
static void fold_words(struct buf *out, size_t col, const char *s)
{
	bool line_has_word = false;
	for (size_t ws, wl; *s; s += ws + wl) {
		next_token(s, &ws, &wl);
		if (line_has_word && ws && wl && col + ws + wl > MAILMSG_FOLD_AT) {
			buf_puts(out, "\r\n");
			col = 0;
		}
		buf_append(out, s, ws + wl);
		col += ws + wl;
		line_has_word = line_has_word || wl;
	}
}

int mailmsg_header_unstructured(struct buf *out, const char *name, const char *value)
{
	if (has_crlf(value) || !utf8_valid(value, strlen(value)))
		return -1;
	buf_printf(out, "%s: ", name);
	size_t col = strlen(name) + 2;
	if (foldable(value, col))
		fold_words(out, col, value);
	else
		encoded_words(out, value);
	buf_puts(out, "\r\n");
	return 0;
}

int mailmsg_addr_spec(const char *address, char *dst, size_t size)
{
	const char *lt = strrchr(address, '<'), *start = address, *end;
	if (lt) {
		end = strchr(lt, '>');
		if (!end)
			return -1;
		start = lt + 1;
	} else {
		end = address + strlen(address);
	}
	while (start < end && (*start == ' ' || *start == '\t'))
		start++;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	size_t n = (size_t)(end - start);
	if (!n || n >= size)
		return -1;
	const char *at = NULL;
	for (const char *p = start; p < end; p++) {
		unsigned char c = (unsigned char)*p;
		if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>' || c == ',')
			return -1;
		if (c == '@')
			at = p;
	}
	if (!at || at == start || at == end - 1)
		return -1;
	memcpy(dst, start, n);
	dst[n] = '\0';
	return 0;
}

/* One mailbox for an address header: "addr", or "Name <addr>" with a
 * non-ASCII name encoded. */
static int mailbox(struct buf *out, const char *address, char *err, size_t errsz)
{
	char spec[512];
	if (has_crlf(address) || mailmsg_addr_spec(address, spec, sizeof(spec))) {
		snprintf(err, errsz, "not a mail address: '%.200s'", address);
		return -1;
	}
	const char *lt = strrchr(address, '<');
	if (!lt) {
		buf_puts(out, spec);
		return 0;
	}
	const char *s = address, *e = lt;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	char *name = xasprintf("%.*s", (int)(e - s), s);
	if (!utf8_valid(name, strlen(name))) {
		snprintf(err, errsz, "invalid UTF-8 in the name of '%.200s'", address);
		free(name);
		return -1;
	}
	/* The name's first word may follow a line of the header's full
	 * width (address_header folds before a mailbox past it). */
	if (*name && foldable(name, MAILMSG_FOLD_AT)) {
		fold_words(out, 0, name);
		buf_puts(out, " ");
	} else if (*name) {
		encoded_words(out, name);
		buf_puts(out, " ");
	}
	buf_printf(out, "<%s>", spec);
	free(name);
	return 0;
}

/* "Name: a, b, c" folded after a comma when the next mailbox would pass
 * MAILMSG_FOLD_AT. */
static int address_header(struct buf *out, const char *name, const char *const *addrs,
			  size_t n, char *err, size_t errsz)
{
	size_t col = strlen(name) + 2;
	buf_printf(out, "%s: ", name);
	for (size_t i = 0; i < n; i++) {
		struct buf one = {0};
		if (mailbox(&one, addrs[i], err, errsz)) {
			buf_free(&one);
			return -1;
		}
		/* An encoded name holds its own folds; measure up to the first. */
		const char *nl = strstr(buf_str(&one), "\r\n");
		size_t w = nl ? (size_t)(nl - buf_str(&one)) : one.len;
		if (i) {
			buf_puts(out, ",");
			col++;
			if (col + 1 + w > MAILMSG_FOLD_AT) {
				buf_puts(out, "\r\n");
				col = 0;
			}
			buf_puts(out, " ");
			col++;
		}
		buf_append(out, buf_str(&one), one.len);
		const char *last = one.len ? strrchr(buf_str(&one), '\n') : NULL;
		col = last ? (size_t)(one.data + one.len - last - 1) : col + one.len;
		buf_free(&one);
	}
	buf_puts(out, "\r\n");
	return 0;
}

void mailmsg_date(char *dst, size_t size, time_t when)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	struct tm tm;
	gmtime_r(&when, &tm);
	/* Names spelled out here: strftime's %a/%b follow LC_TIME. */
	snprintf(dst, size, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
		 months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

void mailmsg_message_id(char *dst, size_t size, const char *from, time_t when)
{
	char spec[512] = "", stamp[32];
	const char *domain = "localhost";
	uint64_t rnd = 0;
	struct tm tm;

	if (from && !mailmsg_addr_spec(from, spec, sizeof(spec)))
		domain = strrchr(spec, '@') + 1;
	if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		rnd = (uint64_t)when ^ ((uint64_t)getpid() << 32);
	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	snprintf(dst, size, "<%s.%ld.%016llx.schedrig@%.100s>", stamp, (long)getpid(),
		 (unsigned long long)rnd, domain);
}

void mailmsg_qp_line(struct buf *out, const char *line, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t col = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		char enc[4];
		size_t n;
		bool last = i + 1 == len;
		if ((c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !last)) {
			enc[0] = (char)c;
			n = 1;
		} else {
			enc[0] = '=';
			enc[1] = hex[c >> 4];
			enc[2] = hex[c & 15];
			n = 3;
		}
		/* Room for the soft break "=" unless this is the line's end. */
		if (col + n > (last ? 76 : 75)) {
			buf_puts(out, "=\r\n");
			col = 0;
		}
		buf_append(out, enc, n);
		col += n;
	}
}

/* Does the body need quoted-printable? */
static bool needs_qp(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && c != '\f' && c != '\n') || c == 0x7f)
			return true;
	}
	return !utf8_valid(s, len);
}

int mailmsg_compose(const struct mailmsg *m, struct buf *out, size_t *bad_line,
		    char *err, size_t errsz)
{
	char date[64], msgid[1024];
	struct buf body = {0};
	int rc = -1;

	if (!m->from || !m->n_to || !m->subject) {
		snprintf(err, errsz, "a message needs From, To and Subject");
		return -1;
	}
	/* The body, line by line: CRLF or LF ends a line; trailing blanks go. */
	const char *p = m->body ? m->body : "";
	size_t line_no = 0;
	struct buf lines = {0};
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\r')
			len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		line_no++;
		if (len > MAILMSG_LINE_MAX) {
			snprintf(err, errsz, "body line %zu is %zu octets long; a mail line holds at most "
				 "%d (RFC 5322 2.1.1)", line_no, len, MAILMSG_LINE_MAX);
			if (bad_line)
				*bad_line = line_no;
			buf_free(&lines);
			return -1;
		}
		buf_append(&lines, p, len);
		buf_puts(&lines, "\n");
		p = nl ? nl + 1 : p + strlen(p);
	}
	bool qp = needs_qp(buf_str(&lines), lines.len);
	const char *text = buf_str(&lines);
	for (size_t off = 0; off < lines.len;) {
		const char *nl = memchr(text + off, '\n', lines.len - off);
		size_t len = (size_t)(nl - (text + off));
		if (qp)
			mailmsg_qp_line(&body, text + off, len);
		else
			buf_append(&body, text + off, len);
		buf_puts(&body, "\r\n");
		off += len + 1;
	}
	buf_free(&lines);

	struct buf h = {0};
	if (address_header(&h, "From", &m->from, 1, err, errsz) ||
	    address_header(&h, "To", m->to, m->n_to, err, errsz) ||
	    (m->n_cc && address_header(&h, "Cc", m->cc, m->n_cc, err, errsz)))
		goto out;
	if (mailmsg_header_unstructured(&h, "Subject", m->subject)) {
		snprintf(err, errsz, "the subject holds invalid UTF-8 or a line break");
		goto out;
	}
	mailmsg_date(date, sizeof(date), m->date);
	buf_printf(&h, "Date: %s\r\n", date);
	if (m->message_id) {
		if (has_crlf(m->message_id) || strchr(m->message_id, ' ') ||
		    strlen(m->message_id) > 900) {
			snprintf(err, errsz, "bad Message-ID '%.200s'", m->message_id);
			goto out;
		}
		snprintf(msgid, sizeof(msgid), "%s%s%s", m->message_id[0] == '<' ? "" : "<",
			 m->message_id, m->message_id[0] == '<' ? "" : ">");
	} else {
		mailmsg_message_id(msgid, sizeof(msgid), m->from, m->date);
	}
	buf_printf(&h, "Message-ID: %s\r\n", msgid);
	if (m->in_reply_to) {
		const char *r = m->in_reply_to;
		size_t n = strlen(r);
		bool bad = !n || n > 900 || has_crlf(r);
		for (size_t i = 0; i < n && !bad; i++)
			bad = (unsigned char)r[i] <= 0x20 || (unsigned char)r[i] >= 0x7f;
		if (bad) {
			snprintf(err, errsz, "bad --in-reply-to message id '%.200s'", r);
			goto out;
		}
		const char *lt = r[0] == '<' ? "" : "<", *gt = r[0] == '<' ? "" : ">";
		buf_printf(&h, "In-Reply-To: %s%s%s\r\n", lt, r, gt);
		buf_printf(&h, "References: %s%s%s\r\n", lt, r, gt);
	}
	buf_puts(&h, "MIME-Version: 1.0\r\n");
	buf_puts(&h, "Content-Type: text/plain; charset=utf-8; format=fixed\r\n");
	buf_printf(&h, "Content-Transfer-Encoding: %s\r\n", qp ? "quoted-printable" : "8bit");
	buf_puts(&h, "User-Agent: schedrig/" SCHEDRIG_VERSION "\r\n");
	buf_puts(&h, "\r\n");
	buf_append(out, buf_str(&h), h.len);
	buf_append(out, buf_str(&body), body.len);
	rc = 0;
out:
	buf_free(&h);
	buf_free(&body);
	return rc;
}

void mailmsg_fold_lines(struct buf *out, const char *text, size_t max)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		const char *line = text;
		const char *prefix = "";
		text += len;
		while (strlen(prefix) + len > max) {
			size_t room = max - strlen(prefix), cut = room;
			while (cut > 0 && line[cut] != ' ')
				cut--;
			size_t next = cut;
			if (!cut) {
				cut = room;
				while (cut > 1 && ((unsigned char)line[cut] & 0xc0) == 0x80)
					cut--;
				next = cut;
			}
			buf_printf(out, "%s%.*s\n", prefix, (int)cut, line);
			while (next < len && line[next] == ' ')
				next++;
			line += next;
			len -= next;
			prefix = "  ";
		}
		buf_printf(out, "%s%.*s", prefix, (int)len, line);
		if (*text == '\n') {
			buf_puts(out, "\n");
			text++;
		}
	}
}

bool mail_host_is_loopback(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL;
	bool yes = false;
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		struct in_addr v4;
		struct in6_addr v6;
		size_t len = strlen(host);
		char bare[64] = "";
		if (len >= 2 && host[0] == '[' && host[len - 1] == ']' && len - 2 < sizeof(bare))
			memcpy(bare, host + 1, len - 2);
		yes = !strcasecmp(host, "localhost") ||
		      (inet_pton(AF_INET, host, &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127) ||
		      (inet_pton(AF_INET6, bare[0] ? bare : host, &v6) == 1 &&
		       IN6_IS_ADDR_LOOPBACK(&v6));
	}
	curl_free(host);
	curl_url_cleanup(u);
	return yes;
}
