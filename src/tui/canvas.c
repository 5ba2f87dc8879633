/*
 * canvas.c: see canvas.h. Rows are plain arrays; drawing past an edge is
 * clipped, never an error, so views can lay out without bounds checks.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "tui/canvas.h"

int
d9t_canvas_init(struct d9t_canvas *cv, int w, int h)
{
	struct d9t_cell *c;

	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	c = calloc((size_t)w * (size_t)h, sizeof *c);
	if (c == NULL)
		return -1;
	free(cv->cells);
	cv->cells = c;
	cv->w = w;
	cv->h = h;
	d9t_canvas_clear(cv);
	return 0;
}

void
d9t_canvas_free(struct d9t_canvas *cv)
{
	free(cv->cells);
	cv->cells = NULL;
	cv->w = cv->h = 0;
}

void
d9t_canvas_clear(struct d9t_canvas *cv)
{
	for (size_t i = 0; i < (size_t)cv->w * (size_t)cv->h; i++) {
		cv->cells[i].ch = ' ';
		cv->cells[i].attr = 0;
	}
}

/* Single-width code points the views and safe trace text may use. */
static uint32_t
one_column(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
	    (cp >= 0xad && d9_text_hidden(cp)))
		return '?';	/* bidi controls among the 0x2010 block */
	if (cp < 0x300 || (cp >= 0x370 && cp < 0x530) ||
	    (cp >= 0x2010 && cp < 0x2070) || (cp >= 0x2190 && cp < 0x2200) ||
	    (cp >= 0x2500 && cp < 0x2600) || (cp >= 0x2800 && cp < 0x2900))
		return cp;
	return '?';
}

void
d9t_canvas_putc(struct d9t_canvas *cv, int x, int y, uint16_t attr,
    uint32_t ch)
{
	struct d9t_cell *c;

	if (x < 0 || y < 0 || x >= cv->w || y >= cv->h)
		return;
	c = &cv->cells[(size_t)y * (size_t)cv->w + (size_t)x];
	c->ch = one_column(ch);
	c->attr = attr;
}

/* Next code point of s (advanced); invalid bytes give '?'. */
static uint32_t
next_cp(const unsigned char **sp)
{
	const unsigned char *s = *sp;
	uint32_t cp;
	int n;

	if (s[0] < 0x80) {
		*sp = s + 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		n = 1;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		n = 2;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		n = 3;
	} else {
		*sp = s + 1;
		return '?';
	}
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*sp = s + i;
			return '?';
		}
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*sp = s + n + 1;
	return cp;
}

int
d9t_canvas_putn(struct d9t_canvas *cv, int x, int y, int maxw, uint16_t attr,
    const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;

	if (maxw < 0 || maxw > cv->w - x)
		maxw = cv->w - x;
	while (*p && n < maxw) {
		d9t_canvas_putc(cv, x + n, y, attr, next_cp(&p));
		n++;
	}
	return n;
}

int
d9t_canvas_put(struct d9t_canvas *cv, int x, int y, uint16_t attr,
    const char *s)
{
	return d9t_canvas_putn(cv, x, y, -1, attr, s);
}

int
d9t_canvas_printf(struct d9t_canvas *cv, int x, int y, uint16_t attr,
    const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return d9t_canvas_put(cv, x, y, attr, buf);
}

void
d9t_canvas_attr(struct d9t_canvas *cv, int x, int y, int n, uint16_t set)
{
	for (int i = x < 0 ? 0 : x; i < x + n && i < cv->w; i++)
		if (y >= 0 && y < cv->h)
			cv->cells[(size_t)y * (size_t)cv->w + (size_t)i].attr |=
			    set;
}

void
d9t_canvas_blit(struct d9t_canvas *dst, int y, const struct d9t_canvas *src,
    int rows)
{
	int w = src->w < dst->w ? src->w : dst->w;

	for (int r = 0; r < rows && r < src->h; r++)
		if (y + r >= 0 && y + r < dst->h)
			memcpy(&dst->cells[(size_t)(y + r) * (size_t)dst->w],
			    &src->cells[(size_t)r * (size_t)src->w],
			    (size_t)w * sizeof *dst->cells);
}

uint32_t
d9t_canvas_ch(const struct d9t_canvas *cv, int x, int y)
{
	if (x < 0 || y < 0 || x >= cv->w || y >= cv->h)
		return 0;
	return cv->cells[(size_t)y * (size_t)cv->w + (size_t)x].ch;
}

int
d9t_canvas_too_small(struct d9t_canvas *cv, int need_w, int need_h)
{
	if (cv->w >= need_w && cv->h >= need_h)
		return 0;
	d9t_canvas_clear(cv);
	d9t_canvas_printf(cv, 0, 0, D9T_A_BOLD, "terminal too small (need "
	    "%dx%d)", need_w, need_h);
	return 1;
}

size_t
d9t_canvas_row(const struct d9t_canvas *cv, int y, char *out, size_t cap)
{
	size_t n = 0, keep = 0;

	if (cap == 0)
		return 0;
	for (int x = 0; y >= 0 && y < cv->h && x < cv->w; x++) {
		uint32_t ch = cv->cells[(size_t)y * (size_t)cv->w +
		    (size_t)x].ch;

		if (n + 5 > cap)
			break;
		n += d9_text_utf8_put(out + n, ch);
		if (ch != ' ')
			keep = n;
	}
	out[keep] = '\0';
	return keep;
}

void
d9t_canvas_dump(const struct d9t_canvas *cv, FILE *f)
{
	size_t cap = (size_t)cv->w * 4 + 1;
	char *row = malloc(cap);

	if (row == NULL)
		return;
	for (int y = 0; y < cv->h; y++) {
		d9t_canvas_row(cv, y, row, cap);
		fprintf(f, "%s\n", row);
	}
	free(row);
}

size_t
d9t_wrap_next(const char *s, int room)
{
	const char *p = s, *cut = NULL;
	int cols = 0;

	if (room < 8)
		room = 8;
	/* the longest run of whole words that fits; a word longer than
	 * the row is cut at the row's end */
	for (; *p != '\0' && cols < room; p++) {
		if (*p == ' ')
			cut = p;
		if (((unsigned char)*p & 0xc0) != 0x80)
			cols++;
	}
	while (((unsigned char)*p & 0xc0) == 0x80)
		p++;	/* not inside a character */
	if (*p != '\0' && *p != ' ' && cut != NULL && cut > s)
		p = cut;
	return (size_t)(p - s);
}

int
d9t_canvas_wrap(struct d9t_canvas *cv, int x, int y, int w, int ind,
    int maxrows, uint16_t attr, const char *text)
{
	const char *s = text;
	int rows = 0;

	while (*s != '\0' && rows < maxrows) {
		size_t n = d9t_wrap_next(s, w - (rows ? ind : 0));
		char line[1024];

		snprintf(line, sizeof line, "%.*s", (int)n, s);
		if (cv != NULL)
			d9t_canvas_put(cv, x + (rows ? ind : 0), y + rows, attr,
			    line);
		rows++;
		for (s += n; *s == ' '; s++)
			;
	}
	return rows;
}
