/* Base64 (base64.h). */
#include "base64.h"

#include <string.h>

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_encode(struct buf *out, const void *data, size_t len)
{
	const unsigned char *p = data;
	char quad[4];

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16;
		if (i + 1 < len)
			v |= (unsigned)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		quad[0] = b64_alphabet[(v >> 18) & 63];
		quad[1] = b64_alphabet[(v >> 12) & 63];
		quad[2] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
		quad[3] = i + 2 < len ? b64_alphabet[v & 63] : '=';
		buf_append(out, quad, 4);
	}
	if (!out->data)
		buf_append(out, "", 0);
}

static int b64_value(char c)
{
	const char *p = c ? strchr(b64_alphabet, c) : NULL;
	return p ? (int)(p - b64_alphabet) : -1;
}

int base64_decode(struct buf *out, const char *text, size_t len)
{
	unsigned char bytes[3];

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;
		for (int k = 0; k < 4; k++) {
			if (text[i + k] == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			if (pad || (v[k] = b64_value(text[i + k])) < 0)
				return -1;
		}
		unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 |
			     (unsigned)v[3];
		bytes[0] = (unsigned char)(w >> 16);
		bytes[1] = (unsigned char)(w >> 8);
		bytes[2] = (unsigned char)w;
		buf_append(out, bytes, (size_t)(3 - pad));
	}
	if (!out->data)
		buf_append(out, "", 0);
	return 0;
}
