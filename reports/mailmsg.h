/* Composing an Internet message (RFC 5322) with a plain-text UTF-8 body
 * (RFC 2045/2046: Content-Type text/plain; charset=utf-8; format=fixed),
 * as schedrig mail sends it. The composed message is in wire form: every
 * line ends in CRLF. Nothing here touches the network. */
#ifndef SCHEDRIG_MAILMSG_H
#define SCHEDRIG_MAILMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util.h"

/* RFC 5322 2.1.1: a line holds at most 998 octets plus CRLF; header lines
 * are folded to 78 where they can be. */
#define MAILMSG_LINE_MAX 998
#define MAILMSG_FOLD_AT 78

struct mailmsg {
	const char *from;             /* "addr@host" or "Display Name <addr@host>" */
	const char *const *to;        /* at least one */
	size_t n_to;
	const char *const *cc;
	size_t n_cc;
	const char *subject;          /* UTF-8 */
	const char *in_reply_to;      /* "<id@host>" or "id@host"; NULL: none */
	const char *message_id;       /* NULL: generated (mailmsg_message_id) */
	time_t date;                  /* Date header, printed in UTC (+0000) */
	const char *body;             /* UTF-8 text, lines end in "\n" (a "\r\n" is
				       * accepted) */
};

/* Compose m into out (appended) in wire form (CRLF):
 *   From, To, Cc (when any), Subject, Date, Message-ID, In-Reply-To and
 *   References (both the in_reply_to id), MIME-Version: 1.0,
 *   Content-Type: text/plain; charset=utf-8; format=fixed,
 *   Content-Transfer-Encoding: 8bit (or quoted-printable, see below),
 *   User-Agent, an empty line, the body.
 * Body: trailing white space (space, tab) of every line is stripped, the
 * last line gets a line end; every line must hold at most MAILMSG_LINE_MAX
 * octets, else -1 with "body line N is M octets long ..." in err (and
 * *bad_line = N when bad_line is not NULL). The body is sent 8bit unless it
 * holds a byte 8bit may not carry (NUL, a bare CR, another control
 * character than TAB and FF) or invalid UTF-8; then it is quoted-printable
 * (RFC 2045 6.7, lines of at most 76 characters with soft breaks).
 * Headers: non-ASCII Subject text and display names become RFC 2047 "B"
 * encoded-words of at most 75 characters, split between UTF-8 characters;
 * long header lines are folded at white space (or between encoded-words)
 * to MAILMSG_FOLD_AT (RFC 5322 2.2.3), and text with a word too long for a
 * line of MAILMSG_LINE_MAX octets becomes encoded-words too, so no line of
 * the message exceeds MAILMSG_LINE_MAX; a Message-ID over 900 octets is
 * refused. Returns 0, or -1 with a message for an empty or
 * malformed address (no '@', non-ASCII or white space in the address,
 * CR/LF anywhere in a header value), invalid UTF-8 in the Subject or a
 * body line over the limit. */
int mailmsg_compose(const struct mailmsg *m, struct buf *out, size_t *bad_line,
		    char *err, size_t errsz);

/* The addr-spec of "Name <addr>" or "addr" (surrounding white space
 * trimmed) into dst. 0, or -1 when it is empty, lacks '@', or holds white
 * space, '<', '>', a control or a non-ASCII byte. */
int mailmsg_addr_spec(const char *address, char *dst, size_t size);

/* Append a header field "Name: value" + CRLF for an unstructured value
 * (Subject): printable ASCII is folded at spaces to MAILMSG_FOLD_AT;
 * anything else (text that looks like an encoded-word, "=?", or holds a
 * word that no fold brings within MAILMSG_LINE_MAX octets) is encoded as
 * RFC 2047 B encoded-words of UTF-8, one per folded line.
 * Returns 0, or -1 for invalid UTF-8, CR or LF. */
int mailmsg_header_unstructured(struct buf *out, const char *name, const char *value);

/* "<YYYYMMDDhhmmss.PID.RANDOM@DOMAIN>" into dst (at least 128 bytes), the
 * domain taken from the From address ("localhost" when it has none). */
void mailmsg_message_id(char *dst, size_t size, const char *from, time_t when);

/* RFC 5322 3.3 date-time of when in UTC: "Mon, 02 Jan 2006 15:04:05 +0000". */
void mailmsg_date(char *dst, size_t size, time_t when);

/* Quoted-printable (RFC 2045 6.7) of one line (without its line end),
 * appended to out with soft line breaks "=\r\n" so no encoded line exceeds
 * 76 characters. */
void mailmsg_qp_line(struct buf *out, const char *line, size_t len);

/* Append text (lines ending in "\n") to out with every line longer than
 * max octets folded so that none is: broken after the last space within
 * max (the spaces at the break dropped), or, in a word longer than that,
 * cut at max octets (moved back to the start of a UTF-8 character).
 * Continuation lines start with two spaces and keep within max too. For
 * prose in a body (notes under the tables), never for tables. max > 6. */
void mailmsg_fold_lines(struct buf *out, const char *text, size_t max);


/* Is the host of an smtp:// or smtps:// URL a loopback address (localhost,
 * 127.0.0.0/8, ::1)? Mail to any other host over smtp:// must use STARTTLS
 * unless --insecure. URL parsing by libcurl (curl_url). */
bool mail_host_is_loopback(const char *url);

#endif
