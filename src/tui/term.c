/*
 * term.c: see term.h. Colours: one pair per d9t_color on the terminal's
 * default background; none when the caller says so (NO_COLOR).
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "base/text.h"
#include "tui/crash.h"
#include "tui/keys.h"
#include "tui/term.h"

static void
close_ttys(struct d9t_term *t)
{
	if (t->tty_in)
		fclose(t->tty_in);
	if (t->tty_out)
		fclose(t->tty_out);
	t->tty_in = t->tty_out = NULL;
}

/* Whether the terminal can move the cursor and clear (TERM=dumb, a
 * printing terminal cannot: the browser would scroll one garbled line);
 * why says which TERM when not. */
static int
addressable(struct d9t_term *t)
{
	const char *cup = tigetstr("cup"), *clr = tigetstr("clear");
	const char *term = termname();
	char safe[40];

	if (cup != NULL && cup != (char *)-1 && clr != NULL &&
	    clr != (char *)-1 && tigetflag("hc") <= 0)
		return 1;
	if (term == NULL)
		term = "";
	d9_text_safe(safe, sizeof safe, term, strnlen(term, 32));
	snprintf(t->why, sizeof t->why, "TERM=%s cannot move the cursor",
	    safe);
	return 0;
}

/* Why newterm found no terminal: TERM unset, or one terminfo does not
 * know. */
static void
unknown(struct d9t_term *t, const char *term)
{
	char safe[40];

	if (term == NULL || *term == '\0') {
		snprintf(t->why, sizeof t->why, "TERM is not set");
		return;
	}
	d9_text_safe(safe, sizeof safe, term, strnlen(term, 32));
	snprintf(t->why, sizeof t->why, "TERM=%s: terminfo does not "
	    "know it", safe);
}

int
d9t_term_open(struct d9t_term *t, int color, const char *term)
{
	static const short fg[D9T_C_COUNT] = { -1, COLOR_GREEN, COLOR_CYAN,
	    COLOR_YELLOW, COLOR_RED, COLOR_MAGENTA, COLOR_BLUE, COLOR_WHITE };
	FILE *in = stdin, *out = stdout;
	SCREEN *s;

	t->tty_in = t->tty_out = NULL;
	t->open = 0;
	t->why[0] = '\0';
	if (!isatty(STDIN_FILENO)) {
		if ((t->tty_in = fopen("/dev/tty", "r")) == NULL)
			return -1;
		in = t->tty_in;
	}
	if (!isatty(STDOUT_FILENO)) {
		if ((t->tty_out = fopen("/dev/tty", "w")) == NULL) {
			close_ttys(t);
			return -1;
		}
		out = t->tty_out;
	}
	d9t_crash_arm(fileno(out));	/* its modes, before curses's */
	s = newterm(NULL, out, in);
	if (s == NULL) {
		d9t_crash_disarm();
		close_ttys(t);
		unknown(t, term);
		return -1;
	}
	t->screen = s;
	t->open = 1;
	set_term(s);
	if (!addressable(t)) {
		d9t_term_close(t);
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED |
	    BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	t->color = 0;
	if (color && has_colors() && start_color() == OK) {
		use_default_colors();
		for (short i = 1; i < D9T_C_COUNT; i++)
			init_pair(i, fg[i], -1);
		t->color = 1;
	}
	return 0;
}

void
d9t_term_close(struct d9t_term *t)
{
	if (!t->open)
		return;
	curs_set(1);
	endwin();
	delscreen(t->screen);
	d9t_crash_disarm();
	close_ttys(t);
	t->open = 0;
}

void
d9t_term_size(struct d9t_term *t, int *w, int *h)
{
	(void)t;
	getmaxyx(stdscr, *h, *w);
}

static uint32_t
ascii_of(uint32_t ch)
{
	if (ch < 0x80)
		return ch;
	if (ch == 0x2502)
		return '|';
	if (ch >= 0x2500 && ch < 0x2580)
		return '-';
	if (ch >= 0x2580 && ch < 0x25a0)
		return '#';
	return '?';
}

void
d9t_term_draw(struct d9t_term *t, const struct d9t_canvas *cv, int full,
    int utf8)
{
	if (full)
		clear();
	for (int y = 0; y < cv->h; y++)
		for (int x = 0; x < cv->w; x++) {
			const struct d9t_cell *c = &cv->cells[(size_t)y *
			    (size_t)cv->w + (size_t)x];
			attr_t a = 0;
			short pair = t->color ? (short)(c->attr & D9T_A_COLOR) : 0;
			wchar_t wc[2] = { (wchar_t)(utf8 ? c->ch :
			    ascii_of(c->ch)), 0 };
			cchar_t cc;

			if (c->attr & D9T_A_BOLD)
				a |= A_BOLD;
			if (c->attr & D9T_A_REVERSE)
				a |= A_REVERSE;
			if (c->attr & D9T_A_DIM)
				a |= A_DIM;
			if (c->attr & D9T_A_UNDERLINE)
				a |= A_UNDERLINE;
			setcchar(&cc, wc, a, pair, NULL);
			mvadd_wch(y, x, &cc);
		}
	wnoutrefresh(stdscr);
	doupdate();
}

int
d9t_term_key(struct d9t_term *t, int ms, int *x, int *y, int *button)
{
	wint_t ch;
	int r;
	MEVENT ev;

	(void)t;
	timeout(ms);
	r = get_wch(&ch);
	if (r == ERR)
		return D9T_TERM_NONE;
	if (r == OK) {
		if (ch == '\r')
			return D9T_KEY_ENTER;
		if (ch == 8)
			return D9T_KEY_BACKSPACE;
		return (int)ch;
	}
	switch (ch) {
	case KEY_UP: return D9T_KEY_UP;
	case KEY_DOWN: return D9T_KEY_DOWN;
	case KEY_LEFT: return D9T_KEY_LEFT;
	case KEY_RIGHT: return D9T_KEY_RIGHT;
	case KEY_SLEFT: return D9T_KEY_SLEFT;
	case KEY_SRIGHT: return D9T_KEY_SRIGHT;
	case KEY_PPAGE: return D9T_KEY_PGUP;
	case KEY_NPAGE: return D9T_KEY_PGDN;
	case KEY_HOME: return D9T_KEY_HOME;
	case KEY_END: return D9T_KEY_END;
	case KEY_ENTER: return D9T_KEY_ENTER;
	case KEY_BACKSPACE: return D9T_KEY_BACKSPACE;
	case KEY_RESIZE: return D9T_KEY_RESIZE;
	case KEY_MOUSE:
		if (getmouse(&ev) != OK)
			return D9T_TERM_NONE;
		*x = ev.x;
		*y = ev.y;
		*button = ev.bstate & BUTTON4_PRESSED ? 4 :
		    ev.bstate & BUTTON5_PRESSED ? 5 : 1;
		return D9T_TERM_MOUSE;
	default:
		return D9T_TERM_NONE;
	}
}
