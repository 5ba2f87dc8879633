/* textfmt.c: see textfmt.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output/textfmt.h"
#include "base/text.h"

void
d9o_short_loc(const char *loc, size_t max, char *out, size_t cap)
{
	size_t n = strlen(loc);
	const char *p, *tail;

	if (n <= max || max <= 8) {
		snprintf(out, cap, "%s", loc);
		return;
	}
	/* the last max - 3 bytes, from a whole character on */
	for (tail = loc + n - (max - 3); ((unsigned char)*tail & 0xc0) == 0x80;
	    tail++)
		;
	/* from a path separator in them, when there is one: file:line:col */
	for (p = tail; *p != '\0' && p[-1] != '/'; p++)
		;
	snprintf(out, cap, "...%s", *p != '\0' ? p : tail);
}

void
d9o_section(FILE *f, const char *title)
{
	fprintf(f, "\n%s\n", title);
	for (size_t i = 0; title[i]; i++)
		putc('-', f);
	putc('\n', f);
}

/* A trace string made safe and cut to width columns (from the left). */
const char *
d9o_fit(char *buf, size_t len, const char *s, size_t width)
{
	size_t n = d9_text_safe(buf, len, s, strlen(s)), cols = 0, start;

	for (size_t i = 0; i < n; i++)
		cols += ((unsigned char)buf[i] & 0xc0) != 0x80;
	if (cols <= width || width < 4)
		return buf;
	/* keep the tail: "..." + the last width - 3 columns */
	start = n;
	for (size_t c = 0; start > 0 && c < width - 3; ) {
		start--;
		c += ((unsigned char)buf[start] & 0xc0) != 0x80;
	}
	memmove(buf + 3, buf + start, n - start + 1);
	memcpy(buf, "...", 3);
	return buf;
}


void
d9o_wrap(FILE *f, const char *text, int indent, size_t width)
{
	if (text[0] == '\0')
		return;
	fprintf(f, "%*s", indent, "");
	d9o_wrap_at(f, text, indent, width);
}

void
d9o_wrap_at(FILE *f, const char *text, int col, size_t width)
{
	char buf[1024];
	size_t n = d9_text_safe(buf, sizeof buf, text, strlen(text));
	size_t room = width > (size_t)col + 10 ? width - (size_t)col : 10;
	size_t i = 0;

	while (i < n) {
		size_t end = i, cols = 0, cut = 0;

		/* the longest run of whole words that fits in room columns */
		while (end < n && cols < room) {
			if (buf[end] == ' ')
				cut = end;
			cols += ((unsigned char)buf[end] & 0xc0) != 0x80;
			end++;
		}
		if (end < n && cut > i)
			end = cut;
		else if (end < n) {	/* one long word: after a "::" */
			size_t c = end;

			while (c > i + 2 && (buf[c - 1] != ':' ||
			    buf[c - 2] != ':'))
				c--;
			if (c > i + 2)
				end = c;
			else	/* or at room */
				while (end > i &&
				    ((unsigned char)buf[end] & 0xc0) == 0x80)
					end--;
		}
		fprintf(f, "%*s%.*s\n", i > 0 ? col : 0, "", (int)(end - i),
		    buf + i);
		i = end;
		while (i < n && buf[i] == ' ')
			i++;
	}
	if (n == 0)
		fprintf(f, "\n");
}

void
d9o_para(FILE *f, int col, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	d9o_wrap_at(f, text, col, 80);
}
