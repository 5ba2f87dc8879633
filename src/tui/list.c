/*
 * list.c: see list.h.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/vec.h"
#include "tui/abbrev.h"
#include "tui/list.h"

void
d9t_list_init(struct d9t_list *l)
{
	memset(l, 0, sizeof *l);
	d9_arena_init(&l->arena, 64 * 1024);
}

void
d9t_list_free(struct d9t_list *l)
{
	free(l->v);
	d9_arena_free(&l->arena);
	memset(l, 0, sizeof *l);
}

void
d9t_list_reset(struct d9t_list *l)
{
	l->n = 0;
	d9_arena_reset(&l->arena);
	l->built = 1;
	l->computing = 0;
}

static struct d9t_line *
add_text(struct d9t_list *l, uint16_t attr, const char *s, size_t len)
{
	struct d9t_line *ln;
	char *t;

	if (d9_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v) < 0 ||
	    (t = d9_arena_alloc(&l->arena, len + 1, 1)) == NULL)
		return NULL;
	memcpy(t, s, len);
	t[len] = '\0';
	ln = &l->v[l->n++];
	memset(ln, 0, sizeof *ln);
	ln->text = t;
	ln->attr = attr;
	return ln;
}

struct d9t_line *
d9t_list_add(struct d9t_list *l, uint16_t attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	return add_text(l, attr, buf, (size_t)n);
}

struct d9t_line *
d9t_list_add_safe(struct d9t_list *l, uint16_t attr, const char *prefix,
    const char *s)
{
	char buf[1024];
	size_t n = strlen(prefix);

	if (n >= sizeof buf / 2)
		n = sizeof buf / 2;
	memcpy(buf, prefix, n);
	n += d9_text_safe(buf + n, sizeof buf - n, s, strlen(s));
	return add_text(l, attr, buf, n);
}

struct d9t_line *
d9t_list_add_path(struct d9t_list *l, uint16_t attr, const char *prefix,
    const char *s)
{
	struct d9t_line *ln = d9t_list_add_safe(l, attr, prefix, s);
	size_t at = d9_text_cols(prefix);

	if (ln != NULL && at < UINT16_MAX)
		ln->tail = (uint16_t)at;
	return ln;
}

struct d9t_line *
d9t_list_add_symbol(struct d9t_list *l, uint16_t attr, const char *prefix,
    const char *s)
{
	struct d9t_line *ln = d9t_list_add_path(l, attr, prefix, s);

	if (ln != NULL)
		ln->abbrev = 1;
	return ln;
}

struct d9t_line *
d9t_list_add_wrap(struct d9t_list *l, uint16_t attr, int w, int ind,
    const char *prefix, const char *s, enum d9t_target t, uint32_t a)
{
	char buf[2048];
	const char *p = buf;
	struct d9t_line *first = NULL, *ln;
	size_t n = strlen(prefix), at = l->n;

	if (w <= 0) {	/* no width: one line (a saved view) */
		first = d9t_list_add_safe(l, attr, prefix, s);
		d9t_list_set_target(first, t, a, 0);
		return first;
	}
	if (n >= sizeof buf / 2)
		n = sizeof buf / 2;
	memcpy(buf, prefix, n);
	d9_text_safe(buf + n, sizeof buf - n, s, strlen(s));
	while (*p != '\0') {
		size_t k = d9t_wrap_next(p, w - (first ? ind : 0));

		ln = d9t_list_add(l, attr, "%*s%.*s", first ? ind : 0, "",
		    (int)k, p);
		d9t_list_set_target(ln, t, a, 0);	/* Enter on any row */
		if (first == NULL && (first = ln) == NULL)
			return NULL;
		for (p += k; *p == ' '; p++)
			;
	}
	/* the lines may have moved as the list grew */
	return first != NULL ? &l->v[at] : NULL;
}

void
d9t_list_set_target(struct d9t_line *ln, enum d9t_target t, uint32_t a,
    uint64_t b)
{
	if (ln == NULL)
		return;
	ln->target = (uint8_t)t;
	ln->a = a;
	ln->b = b;
}

void
d9t_list_move(struct d9t_list *l, long delta, int rows)
{
	long s = (long)l->sel + delta;

	(void)rows;
	if (s < 0 || l->n == 0)
		s = 0;
	else if ((size_t)s >= l->n)
		s = (long)l->n - 1;
	l->sel = (size_t)s;
}

void
d9t_list_first(struct d9t_list *l)
{
	l->sel = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].target != D9T_T_NONE) {
			l->sel = i;
			return;
		}
}

int
d9t_list_find(struct d9t_list *l, const char *needle)
{
	for (size_t k = 1; k <= l->n; k++) {
		size_t i = (l->sel + k) % l->n;

		if (d9_text_contains(l->v[i].text, needle)) {
			l->sel = i;
			return 0;
		}
	}
	return -1;
}

/* s past its first n columns (one per code point). */
static const char *
skip_cols(const char *s, size_t n)
{
	for (; *s && n > 0; n--)
		for (s++; (*s & 0xc0) == 0x80; s++)
			;
	return s;
}

/* Columns of s before p. */
static int
cols_to(const char *s, const char *p)
{
	int n = 0;

	for (; s < p; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

/* Whether the n bytes at k name a key: Enter, Esc, Tab, one character
 * that is not a digit, or two around a slash (n/N). */
static int
is_key(const char *k, size_t n)
{
	if (n == 1)
		return (unsigned char)*k > ' ' && (*k < '0' || *k > '9');
	if (n == 3 && k[1] == '/')
		return 1;
	return (n == 5 && memcmp(k, "Enter", 5) == 0) || (n == 3 &&
	    (memcmp(k, "Esc", 3) == 0 || memcmp(k, "Tab", 3) == 0));
}

/* Where the key hint that ends s begins (" (Enter: the slowest; f: field
 * filter)", " (p lists them)", " (Enter jumps there, ...)": a
 * parenthesis whose first word is a key, then a colon or a space), or
 * NULL. */
static const char *
key_hint(const char *s)
{
	const char *o = strrchr(s, '('), *k, *e;
	size_t n = strlen(s);

	if (o == NULL || o == s || o[-1] != ' ' || s[n - 1] != ')' ||
	    strchr(o, ')') != s + n - 1)
		return NULL;
	k = o + 1;
	e = k + strcspn(k, " :)");
	if (!is_key(k, (size_t)(e - k)) || (*e == ':' && e[1] != ' ') ||
	    *e == ')')
		return NULL;
	return o - 1;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Columns of s to draw in w: all that fits, but a figure the edge would
 * cut is left out whole (29295 read as 2929, 39.68ms as 39.6 or as 39.68
 * without its unit), and so is a "file:line" (boxed.rs:22 read as a line
 * number of boxed.rs:2206) and a key hint at the end of a title ("(En"):
 * > scrolls to them. */
static int
fit_cols(const char *s, int w)
{
	const char *e = skip_cols(s, (size_t)w), *t = e, *d = e, *hint;
	const char *figure;

	if (*e == '\0')
		return w;
	if ((hint = key_hint(s)) != NULL && hint < e)
		return cols_to(s, hint);
	if (*e == ' ' || e == s)
		return w;
	while (t > s && t[-1] != ' ')
		t--;
	/* the word the edge cuts is a figure (with its unit, its sign, in
	 * a parenthesis: "(974"), or ends in a file:line's digits, or is a
	 * file: whose line the edge cuts off */
	figure = t + (*t == '(' || *t == '+' || *t == '-');
	while (d > t && is_digit(d[-1]))
		d--;
	if (!(is_digit(*figure) || (d < e && d > t && d[-1] == ':') ||
	    (is_digit(*e) && e[-1] == ':')))
		return w;
	return t == s ? w : cols_to(s, t);
}

#define TAIL_MIN	16	/* columns a cut path keeps, else it is cut
				 * on its right as other text is */

/* Line ln, too wide for the row, with its path (ln->tail) cut on its
 * left to end at the edge, or its symbol shortened: 0, or -1 when it
 * has none or too little room for one. */
static int
put_tail_cut(struct d9t_canvas *cv, int y, const struct d9t_line *ln,
    uint16_t attr, int utf8)
{
	const char *tail = skip_cols(ln->text, ln->tail);
	int mark = utf8 ? 1 : 3, room = cv->w - ln->tail - mark;
	size_t tw = d9_text_cols(tail);
	char sym[2048];

	if (ln->tail == 0 || room < TAIL_MIN || (size_t)cv->w >=
	    (size_t)ln->tail + tw)
		return -1;
	d9t_canvas_putn(cv, 0, y, ln->tail, attr, ln->text);
	if (ln->abbrev) {
		/* the symbol alone is fitted: what follows it after two
		 * spaces (a frame's file:line) is left out when cut */
		const char *gap = strstr(tail, "  ");
		size_t after = gap != NULL ? d9_text_cols(gap) : 0;

		room = cv->w - ln->tail;
		d9t_abbrev(tail, (size_t)room + after, sym, sizeof sym);
		d9t_canvas_putn(cv, ln->tail, y, fit_cols(sym, room), attr,
		    sym);
		return 0;
	}
	d9t_canvas_putn(cv, ln->tail, y, mark, attr, utf8 ? "\xe2\x80\xa6" : "...");
	d9t_canvas_putn(cv, ln->tail + mark, y, room, attr,
	    skip_cols(tail, tw - (size_t)room));
	return 0;
}

void
d9t_list_draw(struct d9t_list *l, struct d9t_canvas *cv, int y0, int rows,
    const char *hl, int utf8)
{
	if (rows < 1)
		return;
	if (l->n && l->sel >= l->n)
		l->sel = l->n - 1;
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + (size_t)rows)
		l->top = l->sel - (size_t)rows + 1;
	if (l->top + (size_t)rows > l->n)
		l->top = l->n > (size_t)rows ? l->n - (size_t)rows : 0;
	for (int r = 0; r < rows && l->top + (size_t)r < l->n; r++) {
		const struct d9t_line *ln = &l->v[l->top + (size_t)r];
		const char *s = skip_cols(ln->text, l->hscroll);
		uint16_t attr = ln->attr;

		if (hl && *hl && d9_text_contains(ln->text, hl))
			attr = (attr & ~D9T_A_COLOR) | D9T_C_YELLOW | D9T_A_BOLD;
		if (l->hscroll > 0 || put_tail_cut(cv, y0 + r, ln, attr,
		    utf8) < 0)
			d9t_canvas_putn(cv, 0, y0 + r, fit_cols(s, cv->w),
			    attr, s);
		if (l->top + (size_t)r == l->sel)
			d9t_canvas_attr(cv, 0, y0 + r, cv->w, D9T_A_REVERSE);
	}
}

int
d9t_list_select(struct d9t_list *l, enum d9t_target t, uint32_t a)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].target == t && l->v[i].a == a) {
			l->sel = i;
			return 0;
		}
	return -1;
}

int
d9t_computing(struct d9t_list *l, const void *r, const char *what)
{
	if (r != NULL)
		return 0;
	l->computing = 1;
	d9t_list_add(l, D9T_A_DIM, "computing the %s for this window...",
	    what);
	return 1;
}

void
d9t_list_keys(struct d9t_line *ln, size_t n, const double *key)
{
	if (ln == NULL)
		return;
	ln->nkeys = (uint8_t)(n < D9T_KEYS ? n : D9T_KEYS);
	memcpy(ln->key, key, ln->nkeys * sizeof *key);
}

/* A row: its first line and how many lines it takes. */
struct row {
	size_t	 at, n;
	double	 key;
	size_t	 pos;	/* in the view's order */
};

static int
row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;	/* largest first */
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Lines [i, end) of l, rows by the list's order, through tmp. */
static void
sort_run(struct d9t_list *l, size_t i, size_t end, struct row *rows,
    struct d9t_line *tmp)
{
	size_t nr = 0, o = 0;

	for (size_t k = i; k < end; nr++) {
		const struct d9t_line *h = &l->v[k];

		rows[nr].at = k;
		rows[nr].pos = nr;
		rows[nr].key = l->sort > 0 && l->sort <= h->nkeys ?
		    h->key[l->sort - 1] : 0;
		for (k++; k < end && l->v[k].nkeys == 0; k++)
			;
		rows[nr].n = k - rows[nr].at;
	}
	qsort(rows, nr, sizeof *rows, row_cmp);
	for (size_t r = 0; r < nr; r++) {
		const struct row *x = &rows[l->reverse ? nr - 1 - r : r];

		memcpy(tmp + o, l->v + x->at, x->n * sizeof *tmp);
		o += x->n;
	}
	memcpy(l->v + i, tmp, o * sizeof *tmp);
}

void
d9t_list_sort(struct d9t_list *l)
{
	struct row *rows;
	struct d9t_line *tmp;

	if ((l->sort == 0 && !l->reverse) || l->n < 2)
		return;
	rows = malloc(l->n * sizeof *rows);
	tmp = malloc(l->n * sizeof *tmp);
	for (size_t i = 0; rows != NULL && tmp != NULL && i < l->n; ) {
		size_t end = i;

		if (l->v[i].nkeys == 0) {
			i++;
			continue;
		}
		/* the run: rows, each a keyed line and its continuations
		 * (same target and argument) */
		for (end = i + 1; end < l->n && (l->v[end].nkeys > 0 ||
		    (l->v[end].target != D9T_T_NONE &&
		    l->v[end].target == l->v[end - 1].target &&
		    l->v[end].a == l->v[end - 1].a)); end++)
			;
		sort_run(l, i, end, rows, tmp);
		i = end;
	}
	free(rows);
	free(tmp);
}
