/*
 * text.c: escaping. A code point is shown as is when it is printable and
 * visible on its own: not a C0 or C1 control, not DEL, not one of the
 * characters that reorder or hide text (bidirectional controls,
 * zero-width and other format characters, the generic combining marks,
 * variation selectors, tags). Invalid UTF-8 bytes and single-byte
 * controls become \xNN, the other hidden code points \uXXXX, and a NUL
 * the model kept inside a string (as C0 80, see d9_text_hide_nul) \0. So
 * no trace string can move a cursor, change a colour, reverse a line on
 * screen, end a JSON string or silently lose its tail.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/search.h"
#include "base/text.h"

/* Code points that are valid but not shown as is, by ranges. */
static const struct {
	uint32_t	lo, hi;
} hidden[] = {
	{ 0x00ad, 0x00ad },	/* soft hyphen */
	{ 0x0300, 0x036f },	/* combining diacritical marks */
	{ 0x061c, 0x061c },	/* arabic letter mark */
	{ 0x115f, 0x1160 },	/* hangul fillers */
	{ 0x180e, 0x180e },	/* mongolian vowel separator */
	{ 0x1ab0, 0x1aff },	/* combining marks extended */
	{ 0x1dc0, 0x1dff },	/* combining marks supplement */
	{ 0x200b, 0x200f },	/* zero width, LRM, RLM */
	{ 0x2028, 0x202e },	/* line/paragraph separators, LRE..RLO */
	{ 0x2060, 0x206f },	/* word joiner, invisible operators, LRI..PDI */
	{ 0x20d0, 0x20ff },	/* combining marks for symbols */
	{ 0x3164, 0x3164 },	/* hangul filler */
	{ 0xfe00, 0xfe0f },	/* variation selectors */
	{ 0xfe20, 0xfe2f },	/* combining half marks */
	{ 0xfeff, 0xfeff },	/* zero width no-break space, BOM */
	{ 0xffa0, 0xffa0 },	/* halfwidth hangul filler */
	{ 0xfff9, 0xfffb },	/* interlinear annotation */
	{ 0xe0000, 0xe007f },	/* tags */
	{ 0xe0100, 0xe01ef },	/* variation selectors supplement */
};

/* Range i ends below *cp. */
static int
ends_below(const void *ctx, size_t i)
{
	return hidden[i].hi < *(const uint32_t *)ctx;
}

int
d9_text_hidden(uint32_t cp)
{
	size_t n = sizeof hidden / sizeof hidden[0];
	size_t i = d9_partition(0, n, &cp, ends_below);

	return i < n && hidden[i].lo <= cp;
}

/* Bytes of the well-formed UTF-8 sequence at s and its code point, or 0
 * when the bytes are not one. */
static size_t
decode(const unsigned char *s, size_t left, uint32_t *cpp)
{
	unsigned c = s[0], need;
	uint32_t cp;

	if (c < 0x80) {
		*cpp = c;
		return 1;
	}
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
	*cpp = cp;
	return need + 1;
}

size_t
d9_text_utf8_len(const unsigned char *s, size_t left)
{
	uint32_t cp;
	size_t n = decode(s, left, &cp);

	if (n == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
	    d9_text_hidden(cp))
		return 0;
	return n;
}

/*
 * The next unit of s: its length in *n (at least 1) and how it is shown.
 * SHOW: as is; BYTE: s[0] as \xNN (controls, invalid bytes; a C1 control
 * byte by byte); CODE: *cp as \uXXXX; NUL: a NUL, raw or kept as C0 80.
 */
enum { SHOW, BYTE, CODE, NUL };

static int
classify(const unsigned char *s, size_t left, size_t *n, uint32_t *cp)
{
	size_t len = decode(s, left, cp);

	*n = 1;
	if (len == 0)
		return left >= 2 && s[0] == 0xc0 && s[1] == 0x80 ?
		    (*n = 2, NUL) : BYTE;
	if (*cp == 0)
		return NUL;
	if (*cp < 0x20 || *cp == 0x7f || (*cp >= 0x80 && *cp <= 0x9f))
		return BYTE;
	*n = len;
	return d9_text_hidden(*cp) ? CODE : SHOW;
}

static const char hexd[] = "0123456789abcdef";

/* The escape of unit class k into out (room for 11 bytes); its length. */
static size_t
escape(char *out, int k, unsigned char byte, uint32_t cp)
{
	int digits = cp > 0xffff ? 8 : 4;

	out[0] = '\\';
	if (k == NUL) {
		out[1] = '0';
		return 2;
	}
	if (k == BYTE) {
		out[1] = 'x';
		out[2] = hexd[byte >> 4];
		out[3] = hexd[byte & 15];
		return 4;
	}
	out[1] = digits == 8 ? 'U' : 'u';
	for (int i = 0; i < digits; i++)
		out[2 + i] = hexd[(cp >> (4 * (digits - 1 - i))) & 15];
	return 2 + (size_t)digits;
}

size_t
d9_text_safe(char *out, size_t cap, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, i = 0;

	if (cap == 0)
		return 0;
	while (i < len) {
		char esc[12];
		uint32_t cp;
		size_t n, en;
		int k = classify(u + i, len - i, &n, &cp);

		if (k == SHOW) {
			if (o + n >= cap)
				break;
			memcpy(out + o, s + i, n);
			o += n;
		} else {
			en = escape(esc, k, u[i], cp);
			if (o + en >= cap)
				break;
			memcpy(out + o, esc, en);
			o += en;
		}
		i += n;
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
		char esc[12];
		uint32_t cp;
		size_t n;
		int k = classify(u + i, len - i, &n, &cp);

		if (k == SHOW)
			fwrite(s + i, 1, n, f);
		else
			fwrite(esc, 1, escape(esc, k, u[i], cp), f);
		i += n;
	}
}

/* A code point as JSON \uXXXX, a surrogate pair above the BMP. */
static void
put_json_code(FILE *f, uint32_t cp)
{
	if (cp > 0xffff) {
		cp -= 0x10000;
		fprintf(f, "\\u%04x\\u%04x", 0xd800 + (cp >> 10),
		    0xdc00 + (cp & 0x3ff));
	} else
		fprintf(f, "\\u%04x", cp);
}

void
d9_text_put_json(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	putc('"', f);
	while (i < len) {
		uint32_t cp;
		size_t n, j = i;
		int k;

		/* a run of plain ASCII goes out as it is */
		while (j < len && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '"' &&
		    u[j] != '\\')
			j++;
		if (j > i) {
			fwrite(s + i, 1, j - i, f);
			i = j;
			continue;
		}
		if (u[i] == '"' || u[i] == '\\') {
			putc('\\', f);
			putc(u[i], f);
			i++;
			continue;
		}
		k = classify(u + i, len - i, &n, &cp);
		if (k == SHOW)
			fwrite(s + i, 1, n, f);
		else if (k == NUL)
			fputs("\\u0000", f);
		else if (k == CODE)
			put_json_code(f, cp);
		else if (decode(u + i, len - i, &cp) > 0) {
			/* a control: JSON's escape keeps it what it is */
			put_json_code(f, cp);
			n = cp < 0x80 ? 1 : 2;
		} else
			/* not UTF-8: shown as text, never as some other
			 * character (0x9b is not U+009B) */
			fprintf(f, "\\\\x%02x", u[i]);
		i += n;
	}
	putc('"', f);
}

size_t
d9_text_hide_nul(char *out, const char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\0') {
			out[o++] = (char)0xc0;
			out[o++] = (char)0x80;
		} else
			out[o++] = s[i];
	}
	return o;
}

/* s (len bytes) made safe into out (cap): whole when it fits, else its
 * start and its end around "...", each cut at a character, so that a
 * message quoting a long name (a deep path) still ends with what went
 * wrong. */
static void
safe_elided(char *out, size_t cap, const char *s, size_t len)
{
	size_t need = 6 * len + 1, n, head, from;
	char *all;

	if (cap < 16 || (all = malloc(need)) == NULL) {
		d9_text_safe(out, cap, s, len);
		return;
	}
	n = d9_text_safe(all, need, s, len);	/* at most 6 bytes a byte */
	if (n < cap) {
		memcpy(out, all, n + 1);
		free(all);
		return;
	}
	for (head = cap / 3; head > 0 &&
	    ((unsigned char)all[head] & 0xc0) == 0x80; head--)
		;
	for (from = n - (cap - head - 4); from < n &&
	    ((unsigned char)all[from] & 0xc0) == 0x80; from++)
		;
	memcpy(out, all, head);
	memcpy(out + head, "...", 3);
	memcpy(out + head + 3, all + from, n - from);
	out[head + 3 + n - from] = '\0';
	free(all);
}

void
d9_text_vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
	char small[1024], *raw = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof small && (raw = malloc((size_t)n + 1)) != NULL)
		vsnprintf(raw, (size_t)n + 1, fmt, again);
	else if (raw == NULL) {
		raw = small;
		n = sizeof small - 1;
	}
	va_end(again);
	safe_elided(out, cap, raw, (size_t)n);
	if (raw != small)
		free(raw);
}

void
d9_text_put_line(FILE *f, const char *prefix, const char *msg)
{
	fputs(prefix, f);
	d9_text_put_safe(f, msg, strlen(msg));
	putc('\n', f);
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

size_t
d9_text_utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t
d9_text_cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}
