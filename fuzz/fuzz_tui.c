/*
 * fuzz_tui.c: the browser on any bytes. They are one segment file; its
 * model is loaded, finished and indexed by lane as the browser's loader
 * does, then a headless app (no terminal: keys in, a canvas out, every
 * job run at once) is driven through every view with the keys a person
 * presses most: the lists, Enter into them and back, the worst poll and
 * its neighbours, the points of interest, the flame trees' folds, a
 * search, the window's zoom, at 120 x 40 and then 40 x 12. A crash, an
 * access out of bounds or a hang on any input is a bug (a trace without
 * a poll killed the browser at once: the lanes' sort read key 0 of an
 * empty column).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browse.h"
#include "put.h"
#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What is pressed, in order (0 ends); each key is followed by a frame. */
static const int script[] = {
	'w', 'w', 'W', D9T_KEY_RIGHT, D9T_KEY_LEFT, 'z', 'H', '0',
	'p', D9T_KEY_ENTER, 'n', 'N', 'f', D9T_KEY_ESC, 'q',
	'2', 'j', D9T_KEY_ENTER, D9T_KEY_ENTER, 'q', 'q', 'o', 'O',
	'3', 'j', D9T_KEY_ENTER, D9T_KEY_LEFT, D9T_KEY_END, 'q',
	'4', 'i', 'j', D9T_KEY_ENTER, 'q',
	'5', 'B', 'j', D9T_KEY_ENTER, 'q',
	'6', D9T_KEY_ENTER, D9T_KEY_ENTER, 'q', 'q',
	'7', 'j', D9T_KEY_ENTER, 'q',
	'8', D9T_KEY_PGDN, D9T_KEY_ENTER, 'q',
	'1', '/', 'x', D9T_KEY_ENTER, 'n', D9T_KEY_ESC,
	'?', D9T_KEY_END, 'q', D9T_KEY_HOME, D9T_KEY_DOWN, D9T_KEY_UP,
	D9T_KEY_ENTER, 'c', 'q', 0
};

/* The script on app at w x h. */
static void
drive(struct d9t_app *app, int w, int h)
{
	struct d9t_canvas cv;

	memset(&cv, 0, sizeof cv);	/* init frees what a canvas held */
	if (d9t_canvas_init(&cv, w, h) != 0)
		return;
	d9t_app_resize(app, w, h);
	d9t_app_render(app, &cv);
	for (size_t i = 0; script[i] != 0 && !app->quit; i++) {
		d9t_app_key(app, script[i]);
		d9t_app_render(app, &cv);
	}
	d9t_canvas_free(&cv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_tui-XXXXXX";
	const char *paths[] = { path };
	struct d9t_config cfg;
	struct d9t_app app;

	fz_put(path, data, size);
	if (fz_browse(&app, &cfg, paths) == 0) {	/* else d9top says why */
		drive(&app, 120, 40);
		drive(&app, 40, 12);
		d9t_app_free(&app);
	}
	unlink(path);
	return 0;
}
