/*
 * text.c: escaping. A byte is shown as is when it is printable ASCII or
 * part of a valid UTF-8 sequence that is not a C1 control (U+0080..9F);
 * everything else becomes \xNN, so no trace string can move a cursor,
 * change a colour or end a JSON string.
 */
#include <string.h>
#include <strings.h>

#include "base/text.h"

size_t
d9_text_utf8_len(const unsigned char *s, size_t left)
{
	unsigned c = s[0], need, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		cp = c & 0x07;
	} else
		return 0;
	if (left < need + 1)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp >= 0x80 && cp <= 0x9f)
		return 0;
	return need + 1;
}

static const char hexd[] = "0123456789abcdef";

size_t
d9_text_safe(char *out, size_t cap, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, i = 0;

	if (cap == 0)
		return 0;
	while (i < len) {
		size_t n = u[i] >= 0x20 && u[i] != 0x7f ?
		    d9_text_utf8_len(u + i, len - i) : 0;

		if (n == 0) {
			if (o + 4 >= cap)
				break;
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hexd[u[i] >> 4];
			out[o++] = hexd[u[i] & 15];
			i++;
		} else {
			if (o + n >= cap)
				break;
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		}
	}
	out[o] = '\0';
	return o;
}

void
d9_text_put_safe(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n = u[i] >= 0x20 && u[i] != 0x7f ?
		    d9_text_utf8_len(u + i, len - i) : 0;

		if (n == 0) {
			fprintf(f, "\\x%02x", u[i]);
			i++;
		} else {
			fwrite(s + i, 1, n, f);
			i += n;
		}
	}
}

void
d9_text_put_json(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	putc('"', f);
	while (i < len) {
		size_t n;

		if (u[i] == '"' || u[i] == '\\') {
			putc('\\', f);
			putc(u[i], f);
			i++;
			continue;
		}
		n = u[i] >= 0x20 && u[i] != 0x7f ?
		    d9_text_utf8_len(u + i, len - i) : 0;
		if (n == 0) {
			/* controls and invalid bytes: \u00NN keeps JSON valid */
			fprintf(f, "\\u%04x", u[i]);
			i++;
		} else {
			fwrite(s + i, 1, n, f);
			i += n;
		}
	}
	putc('"', f);
}

int
d9_text_contains(const char *hay, const char *needle)
{
	size_t nl = strlen(needle);

	if (nl == 0)
		return 0;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, nl) == 0)
			return 1;
	return 0;
}
