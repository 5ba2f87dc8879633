/*
 * fuzz_keys.c: the browser under any keys. fuzz_tui varies the trace
 * and presses one fixed script; this target varies what is pressed, on
 * the test fixtures' small traces, which each plant something a view
 * shows (test/fixtures/planted.h, whytrace.h): the bytes are
 *
 *	byte 0	the trace (its value modulo 8): planted, why, memory,
 *		events, deep, deep150, one process of a directory, or 7:
 *		the input's own (byte 3 is the number of keys k; the
 *		trace is what follows them: hostile traces under any keys)
 *	byte 1	the screen's width (20 .. 275), byte 2 its height (4 .. 259)
 *	then	one key per byte (at most D9F_KEYS): 0x00-0x7f the ASCII key
 *		(typed text, Enter, Esc, Backspace, ^L), 0x80-0x8b Up .. Redraw,
 *		0x8c a resize to the next two bytes, 0x8d a mouse event
 *		(the next three bytes: x, y, button), 0x8e-0xff a key of the
 *		key table (tui/keys.c), so most bytes do something
 *
 * A frame is rendered after each key, except `s` (it writes files into
 * the current directory; the tui tests check it). A crash, an access out
 * of bounds, a leak or a hang on any sequence is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browse.h"
#include "planted.h"
#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/keys.h"
#include "whytrace.h"

#define D9F_KEYS	400	/* keys read per input, at most */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define D9F_OWN	7	/* byte 0 modulo 8: the input's own trace */

/* The fixture byte 0 names, written to fd: 0, or -1. */
static int
write_trace(int fd, uint8_t which)
{
	struct mt t;
	int rc;

	switch (which % 8) {
	case 0: mt_planted(&t); break;
	case 1: mt_why(&t); break;
	case 2: mt_memory(&t); break;
	case 3: mt_events(&t); break;
	case 4: mt_deep(&t); break;
	case 5: mt_deep150(&t); break;
	default:
		mt_process(&t, "h1", "abcd-1", 50000000000ull,
		    1780000000000000000ull, 1, 2, 100);
		break;
	}
	rc = write(fd, t.tg.p, t.tg.n) == (ssize_t)t.tg.n ? 0 : -1;
	tg_free(&t.tg);
	return rc;
}

/* The key of byte b (0: none, the byte was a command or `s`). */
static int
key_of(uint8_t b)
{
	static const int special[] = {
		D9T_KEY_UP, D9T_KEY_DOWN, D9T_KEY_LEFT, D9T_KEY_RIGHT,
		D9T_KEY_SLEFT, D9T_KEY_SRIGHT, D9T_KEY_PGUP, D9T_KEY_PGDN,
		D9T_KEY_HOME, D9T_KEY_END, D9T_KEY_RESIZE, D9T_KEY_REDRAW
	};
	const struct d9t_binding *k;

	if (b < 0x80)
		return b == 's' ? 0 : b;
	if (b < 0x80 + sizeof special / sizeof *special)
		return special[b - 0x80];
	if (b < 0x8e)
		return 0;
	k = &d9t_bindings[(size_t)(b - 0x8e) % d9t_nbindings];
	if (k->action == D9T_A_SAVE)
		return 0;
	return k->key == D9T_KEY_DIGIT ? '1' + b % 8 : k->key;
}

/* Press the keys of p[0 .. n) on app, from a w x h screen. */
static void
drive(struct d9t_app *app, const uint8_t *p, size_t n, int w, int h)
{
	struct d9t_canvas cv;
	size_t i, keys = 0;

	memset(&cv, 0, sizeof cv);	/* init frees what a canvas held */
	if (d9t_canvas_init(&cv, w, h) != 0)
		return;
	d9t_app_resize(app, w, h);
	d9t_app_render(app, &cv);
	for (i = 0; i < n && keys < D9F_KEYS && !app->quit; i++, keys++) {
		int key = key_of(p[i]);

		if (p[i] == 0x8c && i + 2 < n) {
			w = 20 + p[i + 1];
			h = 4 + p[i + 2];
			i += 2;
			if (d9t_canvas_init(&cv, w, h) != 0)
				break;
			d9t_app_resize(app, w, h);
		} else if (p[i] == 0x8d && i + 3 < n) {
			d9t_app_mouse(app, p[i + 1] % w, p[i + 2] % h,
			    "\1\4\5"[p[i + 3] % 3]);
			i += 3;
		} else if (key != 0)
			d9t_app_key(app, key);
		d9t_app_render(app, &cv);
	}
	d9t_canvas_free(&cv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_keys-XXXXXX";
	const char *paths[] = { path };
	struct d9t_config cfg;
	struct d9t_app app;
	size_t nkeys = size > 3 ? size - 3 : 0;
	int own = size > 0 && data[0] % 8 == D9F_OWN, fd, rc;

	if (size < 3 || (own && size < 4))
		return 0;
	if (own && (nkeys = data[3]) > size - 4)
		nkeys = size - 4;
	if ((fd = mkstemp(path)) < 0)
		abort();
	if (own)
		rc = write(fd, data + 4 + nkeys, size - 4 - nkeys) ==
		    (ssize_t)(size - 4 - nkeys) ? 0 : -1;
	else
		rc = write_trace(fd, data[0]);
	if (rc != 0)
		abort();
	close(fd);
	if (fz_browse(&app, &cfg, paths) == 0) {
		drive(&app, data + 3 + own, nkeys, 20 + data[1], 4 + data[2]);
		d9t_app_free(&app);
	} else if (!own)
		abort();	/* the fixtures are sound traces */
	unlink(path);
	return 0;
}
