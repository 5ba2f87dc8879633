/*
 * strip.c: see strip.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/strip.h"

uint32_t
d9t_level_glyph(int utf8, int lvl)
{
	static const char ascii[] = " ..ooOOO#";

	if (lvl < 1)
		return ' ';
	if (lvl > 8)
		lvl = 8;
	return utf8 ? 0x2580 + (uint32_t)lvl : (uint32_t)ascii[lvl];
}

int
d9t_level(double v, double max)
{
	int l;

	if (!(v > 0) || !(max > 0))
		return 0;
	l = (int)ceil(8.0 * v / max);
	return l < 1 ? 1 : l > 8 ? 8 : l;
}

uint64_t *
d9t_axis_edges(const struct d9t_axis *ax)
{
	uint64_t *e = malloc(((size_t)ax->w + 1) * sizeof *e);

	if (e != NULL)
		for (int x = 0; x <= ax->w; x++)
			e[x] = d9t_axis_t(ax, ax->x0 + x);
	return e;
}

double
d9t_strip_max(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

void
d9t_strip_draw(struct d9t_canvas *cv, const struct d9t_axis *ax, int y,
    int utf8, uint16_t attr, const char *label, const double *v,
    const char *max)
{
	double top = d9t_strip_max(v, (size_t)ax->w);
	char text[48];
	int n, cols;

	d9t_canvas_put(cv, 0, y, D9T_A_DIM, label);
	for (int x = 0; x < ax->w; x++)
		d9t_canvas_putc(cv, ax->x0 + x, y, attr, d9t_level_glyph(utf8,
		    d9t_level(v[x], top)));
	if (max == NULL)
		return;
	n = snprintf(text, sizeof text, " max %s", max);
	cols = 0;
	for (int i = 0; i < n && text[i]; i++)
		cols += (text[i] & 0xc0) != 0x80;	/* code points */
	if (n > 0 && cols < ax->w)
		d9t_canvas_put(cv, ax->x0 + ax->w - cols, y, D9T_A_DIM, text);
}

void
d9t_strip_text(const double *v, size_t n, int utf8, char *out, size_t cap)
{
	double top = d9t_strip_max(v, n);
	size_t k = 0;

	for (size_t i = 0; i < n && k + 4 < cap; i++) {
		uint32_t g = d9t_level_glyph(utf8, d9t_level(v[i], top));

		if (g < 0x80)
			out[k++] = (char)g;
		else {		/* U+2581..2588: three bytes */
			out[k++] = (char)(0xe0 | g >> 12);
			out[k++] = (char)(0x80 | (g >> 6 & 0x3f));
			out[k++] = (char)(0x80 | (g & 0x3f));
		}
	}
	out[k < cap ? k : cap - 1] = '\0';
}
