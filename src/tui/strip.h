/*
 * strip.h: a strip is a row of eighth-block levels (ASCII levels
 * without UTF-8), one per column of a time axis, scaled to its largest
 * value, which it labels. The timeline draws its strips and its lanes'
 * levels with it; the allocation view puts its liveset strip in a line.
 */
#ifndef D9T_STRIP_H
#define D9T_STRIP_H

#include <stddef.h>
#include <stdint.h>

#include "tui/canvas.h"
#include "tui/timeaxis.h"

/* The glyph of level 0..8 (0: blank). */
uint32_t d9t_level_glyph(int utf8, int lvl);
/* The level of v on a scale to max: 0 for nothing, else 1..8. */
int	d9t_level(double v, double max);
/* The column edges of ax: w + 1 times (malloc'd), NULL. */
uint64_t *d9t_axis_edges(const struct d9t_axis *ax);
/* The largest of v[0..n). */
double	d9t_strip_max(const double *v, size_t n);
/* Row y: label at the left, the levels of v over ax's columns in attr,
 * and "max TEXT" (max not NULL) at the right end over its last
 * columns. */
void	d9t_strip_draw(struct d9t_canvas *cv, const struct d9t_axis *ax,
	    int y, int utf8, uint16_t attr, const char *label,
	    const double *v, const char *max);
/* The levels of v[0..n) as text (UTF-8 or ASCII) into out. */
void	d9t_strip_text(const double *v, size_t n, int utf8, char *out,
	    size_t cap);

#endif
