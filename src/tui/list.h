/*
 * list.h: a scrollable list of text lines with a selection, the body of
 * every view but the timeline (tmux's mode-tree: build the lines, then
 * draw the visible ones). A line may carry a target that Enter acts on.
 * Line text lives in the list's arena until the next rebuild.
 */
#ifndef D9T_LIST_H
#define D9T_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "tui/canvas.h"

enum d9t_target {
	D9T_T_NONE,
	D9T_T_POLL,		/* a: poll row */
	D9T_T_LOC,		/* a: spawn location string id */
	D9T_T_NODE,		/* a: flame node */
	D9T_T_SPAN_NAME,	/* a: span name string id */
	D9T_T_TIME,		/* b: absolute ns, a: worker slot or D9_NONE */
	D9T_T_POI,		/* a: index in the view's points of interest */
	D9T_T_FLAG,		/* a: index in the analysis's red flags */
	D9T_T_EXPAND,		/* a: what the view folds or unfolds */
	D9T_T_FRAME,		/* a stack frame (the line says which) */
	D9T_T_TASK		/* a: task row */
};

#define D9T_KEYS	6	/* sort keys of a row, its columns */

struct d9t_line {
	const char	*text;
	uint16_t	 attr;
	uint8_t		 target;	/* enum d9t_target */
	uint8_t		 nkeys;		/* a row of a sortable table */
	uint16_t	 tail;		/* column where a path begins that is
					 * cut on its left, not its right,
					 * when the line does not fit; 0:
					 * none */
	uint8_t		 abbrev;	/* the tail is a symbol: shortened
					 * (abbrev.h), not cut on its left */
	double		 key[D9T_KEYS];
	uint32_t	 a;
	uint64_t	 b;
};

struct d9t_list {
	struct d9t_line	*v;
	size_t		 n, cap;
	struct d9_arena	 arena;
	size_t		 sel, top;
	size_t		 hscroll;	/* columns scrolled off to the left */
	uint64_t	 gen;		/* app generation it was built for */
	int		 built;
	/* o and O: rows by key sort - 1 (0: the view's order), largest
	 * first, or the other way round */
	int		 sort, reverse;
	int		 computing;	/* a "computing" line stands for the
					 * figures (d9t_computing) */
};

void	d9t_list_init(struct d9t_list *l);
void	d9t_list_free(struct d9t_list *l);
/* Drop the lines (the selection is kept, clamped on draw). */
void	d9t_list_reset(struct d9t_list *l);
/* Append a line; returns it (text already formatted), NULL on OOM. */
struct d9t_line *d9t_list_add(struct d9t_list *l, uint16_t attr,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Append a trace string line, escaped. */
struct d9t_line *d9t_list_add_safe(struct d9t_list *l, uint16_t attr,
	    const char *prefix, const char *s);
/* The same, s a path or a location (file:line last): where the line
 * does not fit, s is cut on its left ("…/src/main.rs:120:9"). */
struct d9t_line *d9t_list_add_path(struct d9t_list *l, uint16_t attr,
	    const char *prefix, const char *s);
/* The same, s a symbol or a chain of them: where the line does not fit,
 * their module names are shortened (tui/abbrev.h), then it is cut. */
struct d9t_line *d9t_list_add_symbol(struct d9t_list *l, uint16_t attr,
	    const char *prefix, const char *s);
/* The same, wrapped at spaces to rows of w columns (those after the
 * first indented by ind; w 0: one line), each row with target t and
 * argument a; returns the first. */
struct d9t_line *d9t_list_add_wrap(struct d9t_list *l, uint16_t attr, int w,
	    int ind, const char *prefix, const char *s, enum d9t_target t,
	    uint32_t a);
void	d9t_list_set_target(struct d9t_line *ln, enum d9t_target t,
	    uint32_t a, uint64_t b);
/* Give ln (a row of a table) its sort keys, one per column. */
void	d9t_list_keys(struct d9t_line *ln, size_t n, const double *key);
/* Put each run of rows (a line with keys and the lines after it with its
 * target, its wrapped rest) in the order l->sort and l->reverse ask;
 * headings and blank lines stay where they are. */
void	d9t_list_sort(struct d9t_list *l);
/* Move the selection by delta lines (clamped); rows is the page size. */
void	d9t_list_move(struct d9t_list *l, long delta, int rows);
/* Select the first line Enter acts on (one with a target), not a
 * heading; the first line when none has one. */
void	d9t_list_first(struct d9t_list *l);
/* Select the next line after the selection containing needle (case
 * insensitive, wrapping); 0 when found. */
int	d9t_list_find(struct d9t_list *l, const char *needle);
/* Select the first line with target t and argument a: 0, or -1 when no
 * line has it. */
int	d9t_list_select(struct d9t_list *l, enum d9t_target t, uint32_t a);
/* Draw rows lines from y0; lines containing hl are highlighted; utf8:
 * the terminal shows "…", else "..." marks a path cut. */
void	d9t_list_draw(struct d9t_list *l, struct d9t_canvas *cv, int y0,
	    int rows, const char *hl, int utf8);

/* 1 (and a line "computing the WHAT for this window..." in l) when r
 * is not there yet. */
int	d9t_computing(struct d9t_list *l, const void *r, const char *what);

#endif
