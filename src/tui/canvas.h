/*
 * canvas.h: a grid of cells (one Unicode code point and one attribute
 * each) that every view draws into. term.c copies it to the terminal;
 * tests dump it as text. A cell holds exactly one column: code points
 * outside the single-width ranges the views use are stored as '?'.
 */
#ifndef D9T_CANVAS_H
#define D9T_CANVAS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum d9t_color {
	D9T_C_DEFAULT, D9T_C_GREEN, D9T_C_CYAN, D9T_C_YELLOW, D9T_C_RED,
	D9T_C_MAGENTA, D9T_C_BLUE, D9T_C_WHITE, D9T_C_COUNT
};

/* Attribute bits above the colour (low 4 bits). */
#define D9T_A_COLOR	0x0fu
#define D9T_A_BOLD	0x10u
#define D9T_A_REVERSE	0x20u
#define D9T_A_DIM	0x40u
#define D9T_A_UNDERLINE	0x80u

struct d9t_cell {
	uint32_t	ch;
	uint16_t	attr;
};

struct d9t_canvas {
	int		 w, h;
	struct d9t_cell	*cells;		/* h rows of w cells */
};

int	d9t_canvas_init(struct d9t_canvas *cv, int w, int h);
void	d9t_canvas_free(struct d9t_canvas *cv);
void	d9t_canvas_clear(struct d9t_canvas *cv);
/* UTF-8 text at (x, y), clipped to the row and to maxw columns (< 0: to
 * the edge); returns the columns used. Controls and invalid bytes show
 * as '?': callers pass trace strings through d9_text_safe() first. */
int	d9t_canvas_putn(struct d9t_canvas *cv, int x, int y, int maxw,
	    uint16_t attr, const char *s);
int	d9t_canvas_put(struct d9t_canvas *cv, int x, int y, uint16_t attr,
	    const char *s);
/* Bytes of s that make its next row of at most room columns: whole
 * words, or a word's first room columns when it alone is longer. */
size_t	d9t_wrap_next(const char *s, int room);
/* text from (x, y), wrapped at spaces to rows of w columns (the rows
 * after the first indented by ind), at most maxrows; the rows it takes
 * (cv NULL: only counted). */
int	d9t_canvas_wrap(struct d9t_canvas *cv, int x, int y, int w, int ind,
	    int maxrows, uint16_t attr, const char *text);
int	d9t_canvas_printf(struct d9t_canvas *cv, int x, int y, uint16_t attr,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void	d9t_canvas_putc(struct d9t_canvas *cv, int x, int y, uint16_t attr,
	    uint32_t ch);
/* Or attribute bits into n cells (a highlighted row). */
void	d9t_canvas_attr(struct d9t_canvas *cv, int x, int y, int n,
	    uint16_t set);
/* Copy the first rows rows of src to dst from row y, clipped. */
void	d9t_canvas_blit(struct d9t_canvas *dst, int y,
	    const struct d9t_canvas *src, int rows);
/* The code point at (x, y); 0 outside the canvas. */
uint32_t d9t_canvas_ch(const struct d9t_canvas *cv, int x, int y);
/* When cv is smaller than need_w x need_h: clear it, say so on its first
 * row ("terminal too small (need 40x10)", cut to the width) and return
 * 1; else 0. */
int	d9t_canvas_too_small(struct d9t_canvas *cv, int need_w, int need_h);
/* Row y as UTF-8 without trailing blanks. */
size_t	d9t_canvas_row(const struct d9t_canvas *cv, int y, char *out,
	    size_t cap);
/* Every row, one per line. */
void	d9t_canvas_dump(const struct d9t_canvas *cv, FILE *f);

#endif
