/* LAVA job logs (lava_log.h), read with libyaml's event parser. */
#include "lava_log.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

#define MAX_DEPTH 8

/* One log entry being read: its lvl, its msg when a string, and the keys
 * of its msg when a mapping. */
struct entry {
	char lvl[32];
	struct buf msg;
	bool msg_is_text;
	char key[64];        /* the key being read (entry or msg mapping) */
	char result_case[64], result[16], error_type[64];
	struct buf error_msg;
};

static void copy_to(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

void lava_log_unescape(const char *line, size_t len, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++)
		if (!(line[i] == '\\' && i + 1 < len && line[i + 1] == '"'))
			out[o++] = line[i];
	out[o] = '\0';
}

/* A scalar at depth: 2 is a key or value of the entry, 3 of its msg. */
static void entry_scalar(struct entry *en, int depth, bool is_key, const char *text, size_t len)
{
	if (is_key) {
		copy_to(en->key, sizeof(en->key), text);
		return;
	}
	if (depth == 2 && !strcmp(en->key, "lvl")) {
		copy_to(en->lvl, sizeof(en->lvl), text);
	} else if (depth == 2 && !strcmp(en->key, "msg")) {
		en->msg.len = 0;
		buf_append(&en->msg, text, len);
		en->msg_is_text = true;
	} else if (depth == 3 && !strcmp(en->key, "case")) {
		copy_to(en->result_case, sizeof(en->result_case), text);
	} else if (depth == 3 && !strcmp(en->key, "result")) {
		copy_to(en->result, sizeof(en->result), text);
	} else if (depth == 3 && !strcmp(en->key, "error_type")) {
		copy_to(en->error_type, sizeof(en->error_type), text);
	} else if (depth == 3 && !strcmp(en->key, "error_msg")) {
		en->error_msg.len = 0;
		buf_append(&en->error_msg, text, len);
	}
}

/* The entry is complete: hand a console line over, keep job facts. */
static void entry_done(struct entry *en, lava_console_fn fn, void *ctx,
		       struct lava_log_facts *f)
{
	f->entries++;
	if (!strcmp(en->lvl, "target") && en->msg_is_text) {
		char *line = xmalloc(en->msg.len + 1);
		lava_log_unescape(buf_str(&en->msg), en->msg.len, line);
		if (!f->panic[0] && strstr(line, "Kernel panic"))
			copy_to(f->panic, sizeof(f->panic), strstr(line, "Kernel panic"));
		f->target_lines++;
		fn(ctx, line, strlen(line));
		free(line);
	} else if (!strcmp(en->lvl, "results")) {
		if (!strcmp(en->result_case, "job"))
			copy_to(f->job_result, sizeof(f->job_result), en->result);
		if (en->error_type[0] && !f->error_type[0]) {
			copy_to(f->error_type, sizeof(f->error_type), en->error_type);
			copy_to(f->error_msg, sizeof(f->error_msg), buf_str(&en->error_msg));
		}
	} else if (!strcmp(en->lvl, "error") && en->msg_is_text && !f->error_msg[0]) {
		copy_to(f->error_msg, sizeof(f->error_msg), buf_str(&en->msg));
	}
	buf_free(&en->msg);
	buf_free(&en->error_msg);
	memset(en, 0, sizeof(*en));
}

/* The log as libyaml reads it, from a file, in chunks: memory stays
 * bounded whatever the log's size (a kernel build's log is tens of MB).
 * lava-run writes its entries without the "- " of a YAML sequence, one
 * flow mapping a line: such a log (its first non-blank byte is '{') is
 * read with "- " put before each of its lines. */
struct log_input {
	FILE *f;
	bool lines;      /* lava-run's form */
	bool line_start; /* the next byte starts a line */
	char lead[4096]; /* the blank bytes before the first other one */
	size_t n_lead, lead_off;
};

/* Read the blank bytes before the first other byte of in->f (they are
 * handed to the parser first) and decide the log's form. */
static void input_open(struct log_input *in, FILE *f)
{
	int c;
	memset(in, 0, sizeof(*in));
	in->f = f;
	in->line_start = true;
	while (in->n_lead < sizeof(in->lead) && (c = getc(f)) != EOF) {
		if (!strchr(" \t\r\n", c)) {
			ungetc(c, f);
			in->lines = c == '{';
			break;
		}
		in->lead[in->n_lead++] = (char)c;
	}
}

/* yaml_read_handler_t: up to size bytes of the log into buffer. */
static int input_read(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	struct log_input *in = data;
	size_t n = 0;
	while (n < size && in->lead_off < in->n_lead)
		buffer[n++] = (unsigned char)in->lead[in->lead_off++];
	if (!in->lines) {
		n += fread(buffer + n, 1, size - n, in->f);
	} else {
		/* Room for "- " and one byte each time round. */
		int c;
		while (n + 3 <= size && (c = getc_unlocked(in->f)) != EOF) {
			if (in->line_start && c != '\n') {
				buffer[n++] = '-';
				buffer[n++] = ' ';
			}
			buffer[n++] = (unsigned char)c;
			in->line_start = c == '\n';
		}
	}
	*size_read = n;
	return !ferror(in->f);
}

int lava_log_read(FILE *f, lava_console_fn fn, void *ctx, struct lava_log_facts *facts,
		  char *err, size_t errsz)
{
	struct log_input in;
	input_open(&in, f);
	yaml_parser_t parser;
	yaml_event_t ev;
	struct entry en = {0};
	/* depth: 1 inside the top sequence, 2 inside an entry, 3 inside its
	 * msg mapping; deeper is skipped. is_map and want_key per depth. */
	int depth = 0, rc = -1;
	bool is_map[MAX_DEPTH] = {false}, want_key[MAX_DEPTH] = {false}, done = false;

	memset(facts, 0, sizeof(*facts));
	yaml_parser_initialize(&parser);
	yaml_parser_set_input(&parser, input_read, &in);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			snprintf(err, errsz, "%zu:%zu: %s", parser.problem_mark.line + 1,
				 parser.problem_mark.column + 1,
				 parser.problem ? parser.problem : "not YAML");
			goto out;
		}
		bool in_map = depth < MAX_DEPTH && is_map[depth];
		bool key = in_map && want_key[depth];
		if (in_map && (ev.type == YAML_SEQUENCE_START_EVENT ||
			       ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SCALAR_EVENT))
			want_key[depth] = !want_key[depth];
		switch (ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == 0 && ev.type != YAML_SEQUENCE_START_EVENT) {
				snprintf(err, errsz, "%zu:%zu: a LAVA job log is a list of entries",
					 ev.start_mark.line + 1, ev.start_mark.column + 1);
				yaml_event_delete(&ev);
				goto out;
			}
			if (++depth < MAX_DEPTH) {
				is_map[depth] = ev.type == YAML_MAPPING_START_EVENT;
				want_key[depth] = true;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (--depth == 1)
				entry_done(&en, fn, ctx, facts);
			break;
		case YAML_SCALAR_EVENT:
			if (depth == 2 || depth == 3)
				entry_scalar(&en, depth, key, (const char *)ev.data.scalar.value,
					     ev.data.scalar.length);
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	rc = 0;
out:
	buf_free(&en.msg);
	buf_free(&en.error_msg);
	yaml_parser_delete(&parser);
	return rc;
}
