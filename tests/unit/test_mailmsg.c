/* Message composing (reports/mailmsg.h): header folding, RFC 2047
 * encoded-words, the 998-octet line limit, CRLF line ends, trailing blanks,
 * quoted-printable, In-Reply-To/References, header injection. Expected
 * encodings were computed with python3 (base64, email.header), never with
 * the code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mailmsg.h"

static const char *const to_one[] = {"a@example.org"};

static struct mailmsg base_msg(const char *subject, const char *body)
{
	return (struct mailmsg){
		.from = "Rig <rig@example.org>", .to = to_one, .n_to = 1, .subject = subject,
		.message_id = "<fixed@example.org>", .date = 0, .body = body,
	};
}

/* Every line of s ends in CRLF: no bare LF, no bare CR. */
static void assert_crlf_only(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r'))
			fail_msg("bare LF at offset %zu", i);
		if (s[i] == '\r' && (i + 1 == len || s[i + 1] != '\n'))
			fail_msg("bare CR at offset %zu", i);
	}
	assert_true(len >= 2 && s[len - 2] == '\r' && s[len - 1] == '\n');
}

/* The header block (up to the empty line), NUL-terminated copy. */
static char *headers_of(const struct buf *b)
{
	const char *end = strstr(buf_str(b), "\r\n\r\n");
	assert_non_null(end);
	size_t n = (size_t)(end - buf_str(b)) + 2;
	char *h = malloc(n + 1);
	memcpy(h, buf_str(b), n);
	h[n] = '\0';
	return h;
}

static const char *body_of(const struct buf *b)
{
	return strstr(buf_str(b), "\r\n\r\n") + 4;
}

static int b64val(char c)
{
	const char *tab = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = strchr(tab, c);
	return p && c ? (int)(p - tab) : -1;
}

/* Decode the B encoded-words of an unfolded header value, appending the
 * text of each word to out and checking each word is <= 75 characters
 * and valid UTF-8 on its own (no character split between words). */
static void decode_words(const char *value, char *out, size_t size)
{
	size_t o = 0;
	const char *p = value;
	while ((p = strstr(p, "=?UTF-8?B?"))) {
		const char *s = p + 10, *e = strstr(s, "?=");
		assert_non_null(e);
		assert_true(e + 2 - p <= 75);
		char word[128];
		size_t wn = 0;
		uint32_t acc = 0;
		int bits = 0;
		for (const char *q = s; q < e && *q != '='; q++) {
			int v = b64val(*q);
			assert_true(v >= 0);
			acc = (acc << 6) | (uint32_t)v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				word[wn++] = (char)((acc >> bits) & 0xff);
			}
		}
		assert_true(utf8_valid(word, wn));
		assert_true(o + wn < size);
		memcpy(out + o, word, wn);
		o += wn;
		p = e + 2;
	}
	out[o] = '\0';
}

/* The value of header name with folds removed (CRLF before WSP dropped). */
static void unfolded(const char *headers, const char *name, char *out, size_t size)
{
	char key[64];
	snprintf(key, sizeof(key), "\r\n%s: ", name);
	const char *p = strncmp(headers, key + 2, strlen(key) - 2) ? strstr(headers, key) : headers - 2;
	assert_non_null(p);
	p += strlen(key);
	size_t o = 0;
	while (*p) {
		if (p[0] == '\r' && p[1] == '\n') {
			if (p[2] != ' ' && p[2] != '\t')
				break;
			p += 2;
			continue;
		}
		assert_true(o + 1 < size);
		out[o++] = *p++;
	}
	out[o] = '\0';
}

static void assert_lines_at_most(const char *s, size_t max)
{
	const char *p = s;
	while (*p) {
		const char *e = strstr(p, "\r\n");
		assert_non_null(e);
		if ((size_t)(e - p) > max)
			fail_msg("line of %zu > %zu: %.*s", (size_t)(e - p), max, (int)(e - p), p);
		p = e + 2;
	}
}

static void test_ascii_subject_folded(void **state)
{
	(void)state;
	const char *subj = "Re: [PATCH v3 2/7] sched/eevdf: hackbench and cyclictest results for "
			   "v6.10-rc1_sched_ext against vanilla with slice_us 100 and 3000 on 2 CPUs";
	struct mailmsg m = base_msg(subj, "x\n");
	struct buf b = {0};
	char err[256], v[1024];
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), 0);
	char *h = headers_of(&b);
	assert_lines_at_most(h, MAILMSG_FOLD_AT);
	assert_non_null(strstr(h, "\r\n "));         /* it was folded */
	unfolded(h, "Subject", v, sizeof(v));
	assert_string_equal(v, subj);                  /* and unfolds to the original */
	assert_null(strstr(h, "=?"));                  /* ASCII stays readable */
	free(h);
	buf_free(&b);
}

static void test_encoded_word_short(void **state)
{
	(void)state;
	struct buf b = {0};
	/* python3: base64.b64encode("ünï test".encode()) == b'w7xuw68gdGVzdA==' */
	assert_int_equal(mailmsg_header_unstructured(&b, "Subject", "\xc3\xbcn\xc3\xaf test"), 0);
	assert_string_equal(buf_str(&b), "Subject: =?UTF-8?B?w7xuw68gdGVzdA==?=\r\n");
	buf_free(&b);
}

static void test_encoded_words_long(void **state)
{
	(void)state;
	/* 40 × "é" (2 octets) + ASCII: several words, none splits a character. */
	char subj[256] = "r\xc3\xa9sultats ";
	for (int i = 0; i < 40; i++)
		strcat(subj, "\xc3\xa9");
	strcat(subj, " v6.10-rc1_sched_ext");
	struct mailmsg m = base_msg(subj, "x\n");
	struct buf b = {0};
	char err[256], v[2048], text[1024];
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), 0);
	char *h = headers_of(&b);
	assert_lines_at_most(h, MAILMSG_FOLD_AT);
	unfolded(h, "Subject", v, sizeof(v));
	decode_words(v, text, sizeof(text));
	assert_string_equal(text, subj);
	free(h);
	buf_free(&b);
}

static void test_display_name_encoded(void **state)
{
	(void)state;
	const char *const to[] = {"J\xc3\xbcrgen <j@example.org>", "plain@example.org"};
	struct mailmsg m = base_msg("s", "x\n");
	m.to = to;
	m.n_to = 2;
	struct buf b = {0};
	char err[256];
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), 0);
	/* python3: base64.b64encode("Jürgen".encode()) == b'SsO8cmdlbg==' */
	assert_non_null(strstr(buf_str(&b), "\r\nTo: =?UTF-8?B?SsO8cmdlbg==?= <j@example.org>, "
					    "plain@example.org\r\n"));
	assert_non_null(strstr(buf_str(&b), "From: Rig <rig@example.org>\r\n"));
	buf_free(&b);
}

static void test_crlf_and_headers(void **state)
{
	(void)state;
	struct mailmsg m = base_msg("s", "line one\nline two\r\nno newline at end");
	m.in_reply_to = "20240101.patch@example.org";
	struct buf b = {0};
	char err[256];
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), 0);
	assert_crlf_only(buf_str(&b), b.len);
	const char *s = buf_str(&b);
	assert_non_null(strstr(s, "\r\nDate: Thu, 01 Jan 1970 00:00:00 +0000\r\n"));
	assert_non_null(strstr(s, "\r\nMessage-ID: <fixed@example.org>\r\n"));
	assert_non_null(strstr(s, "\r\nIn-Reply-To: <20240101.patch@example.org>\r\n"));
	assert_non_null(strstr(s, "\r\nReferences: <20240101.patch@example.org>\r\n"));
	assert_non_null(strstr(s, "\r\nMIME-Version: 1.0\r\n"));
	assert_non_null(strstr(s, "\r\nContent-Type: text/plain; charset=utf-8; format=fixed\r\n"));
	assert_non_null(strstr(s, "\r\nContent-Transfer-Encoding: 8bit\r\n"));
	assert_null(strstr(s, "flowed"));
	assert_string_equal(body_of(&b), "line one\r\nline two\r\nno newline at end\r\n");
	buf_free(&b);
}

static void test_trailing_blanks_stripped(void **state)
{
	(void)state;
	struct mailmsg m = base_msg("s", "a   \nb\t\n   \nc \xc3\xa9  \n");
	struct buf b = {0};
	char err[256];
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), 0);
	assert_string_equal(body_of(&b), "a\r\nb\r\n\r\nc \xc3\xa9\r\n");
	assert_non_null(strstr(buf_str(&b), "Content-Transfer-Encoding: 8bit\r\n"));
	buf_free(&b);
}

static void test_line_limit(void **state)
{
	(void)state;
	char *body = malloc(3000);
	struct buf b = {0};
	char err[256];
	size_t bad = 0;

	/* 998 octets (plus trailing blanks, which do not count) pass ... */
	memset(body, 'x', 998);
	strcpy(body + 998, "   \nnext\n");
	struct mailmsg m = base_msg("s", body);
	assert_int_equal(mailmsg_compose(&m, &b, &bad, err, sizeof(err)), 0);
	assert_int_equal(strlen(body_of(&b)), 998 + 2 + 4 + 2);
	buf_free(&b);

	/* ... 999 on line 2 are refused, and the message says which line. */
	strcpy(body, "ok\n");
	memset(body + 3, 'y', 999);
	strcpy(body + 3 + 999, "\n");
	m = base_msg("s", body);
	assert_int_equal(mailmsg_compose(&m, &b, &bad, err, sizeof(err)), -1);
	assert_int_equal(bad, 2);
	assert_non_null(strstr(err, "line 2 is 999 octets"));
	assert_int_equal(b.len, 0);
	buf_free(&b);
	free(body);
}

static void test_quoted_printable(void **state)
{
	(void)state;
	/* A control character (and invalid UTF-8) need quoted-printable. */
	char body[300] = "bell\x07 = \xff end\n";
	for (int i = 0; i < 100; i++)
		strcat(body, "ab");
	strcat(body, "\n");
	struct mailmsg m = base_msg("s", body);
	struct buf b = {0};
	char err[256];
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(buf_str(&b), "Content-Transfer-Encoding: quoted-printable\r\n"));
	const char *bd = body_of(&b);
	assert_true(!strncmp(bd, "bell=07 =3D =FF end\r\n", 21));
	assert_lines_at_most(bd, 76);
	assert_non_null(strstr(bd, "=\r\n"));         /* a soft break in the long line */
	assert_crlf_only(buf_str(&b), b.len);
	buf_free(&b);

	struct buf q = {0};
	mailmsg_qp_line(&q, "trailing ", 9);           /* a blank at the end is encoded */
	assert_string_equal(buf_str(&q), "trailing=20");
	buf_free(&q);
}

static void test_injection_and_addresses(void **state)
{
	(void)state;
	char spec[256], err[256];
	struct buf b = {0};

	assert_int_equal(mailmsg_addr_spec("Name <a.b@example.org>", spec, sizeof(spec)), 0);
	assert_string_equal(spec, "a.b@example.org");
	assert_int_equal(mailmsg_addr_spec("  c@d.e ", spec, sizeof(spec)), 0);
	assert_string_equal(spec, "c@d.e");
	assert_int_equal(mailmsg_addr_spec("no-at-sign", spec, sizeof(spec)), -1);
	assert_int_equal(mailmsg_addr_spec("a b@c.d", spec, sizeof(spec)), -1);
	assert_int_equal(mailmsg_addr_spec("Name <x@y", spec, sizeof(spec)), -1);
	assert_int_equal(mailmsg_addr_spec("\xc3\xa9@x.y", spec, sizeof(spec)), -1);

	struct mailmsg m = base_msg("evil\r\nBcc: victim@example.org", "x\n");
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), -1);
	const char *const bad_to[] = {"a@example.org\r\nBcc: v@example.org"};
	m = base_msg("s", "x\n");
	m.to = bad_to;
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), -1);
	m = base_msg("s", "x\n");
	m.in_reply_to = "id@x\r\nBcc: v@example.org";
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), -1);
	m = base_msg("\xc3\x28 invalid utf-8", "x\n");
	assert_int_equal(mailmsg_compose(&m, &b, NULL, err, sizeof(err)), -1);
	assert_int_equal(b.len, 0);
	buf_free(&b);
}

static void test_message_id(void **state)
{
	(void)state;
	char a[256], b[256];
	mailmsg_message_id(a, sizeof(a), "Rig <rig@lab.example.org>", 1700000000);
	mailmsg_message_id(b, sizeof(b), "Rig <rig@lab.example.org>", 1700000000);
	assert_true(a[0] == '<' && a[strlen(a) - 1] == '>');
	assert_non_null(strstr(a, "@lab.example.org>"));
	assert_true(!strncmp(a, "<20231114221320.", 16));
	assert_string_not_equal(a, b);                 /* random part */
}

/* STARTTLS policy: only loopback hosts are exempt. */
static void test_loopback_hosts(void **state)
{
	(void)state;
	assert_true(mail_host_is_loopback("smtp://127.0.0.1:2525"));
	assert_true(mail_host_is_loopback("smtp://127.8.9.10"));
	assert_true(mail_host_is_loopback("smtp://localhost:25"));
	assert_true(mail_host_is_loopback("smtp://[::1]:25"));
	assert_false(mail_host_is_loopback("smtp://mail.example.org:587"));
	assert_false(mail_host_is_loopback("smtp://10.0.0.1"));
	assert_false(mail_host_is_loopback("smtp://127.example.org"));
	assert_false(mail_host_is_loopback("not a url"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii_subject_folded),
		cmocka_unit_test(test_encoded_word_short),
		cmocka_unit_test(test_encoded_words_long),
		cmocka_unit_test(test_display_name_encoded),
		cmocka_unit_test(test_crlf_and_headers),
		cmocka_unit_test(test_trailing_blanks_stripped),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_quoted_printable),
		cmocka_unit_test(test_injection_and_addresses),
		cmocka_unit_test(test_message_id),
		cmocka_unit_test(test_loopback_hosts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
