/*
 * fixture.c: see fixture.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "tui/jobs.h"

void
fx_open(struct fx *f, const char *name, int w, int h, int utf8)
{
	fx_open_jobs(f, name, w, h, utf8, 1);
}

void
fx_open_jobs(struct fx *f, const char *name, int w, int h, int utf8,
    int sync)
{
	static char path[4096];
	const char *dir = getenv("D9_TRACES");
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;
	struct d9m_lanes *ix;

	memset(f, 0, sizeof *f);
	ck_assert_ptr_nonnull(dir);
	if (name[0] == '/')
		snprintf(path, sizeof path, "%s", name);
	else
		snprintf(path, sizeof path, "%s/%s", dir, name);
	f->path = path;
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(d9m_model_load(m, &f->path, 1, NULL, NULL, NULL, &st),
	    0);
	ck_assert_uint_gt(st.read_ok, 0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ix = d9m_lanes_build(m);
	ck_assert_ptr_nonnull(ix);
	d9t_config_init(&f->cfg);
	f->cfg.sync = sync;
	ck_assert_int_eq(d9t_app_init(&f->app, &f->cfg, &f->path, 1, utf8, 1), 0);
	ck_assert_int_eq(d9t_app_set_model(&f->app, m, ix), 0);
	ck_assert_int_eq(d9t_canvas_init(&f->cv, w, h), 0);
	fx_render(f);
}

void
fx_close(struct fx *f)
{
	d9t_app_free(&f->app);
	d9t_canvas_free(&f->cv);
	free(f->screen);
	f->screen = NULL;
}

const char *
fx_render(struct fx *f)
{
	size_t len = 0;
	FILE *mf;

	free(f->screen);
	f->screen = NULL;
	d9t_app_render(&f->app, &f->cv);
	mf = open_memstream(&f->screen, &len);
	ck_assert_ptr_nonnull(mf);
	d9t_canvas_dump(&f->cv, mf);
	fclose(mf);
	return f->screen;
}

const char *
fx_key(struct fx *f, int key)
{
	d9t_app_key(&f->app, key);
	return fx_render(f);
}

const char *
fx_keys(struct fx *f, const char *keys)
{
	/* like the loop: a frame after every key */
	for (const char *k = keys; *k; k++) {
		d9t_app_key(&f->app, *k == '\n' ? D9T_KEY_ENTER :
		    (unsigned char)*k);
		fx_render(f);
	}
	return f->screen;
}

const char *
fx_settle(struct fx *f)
{
	/* bounded by the figures' time, not a guess at it: a minute is
	 * hundreds of times what the traces here take */
	for (int i = 0; i < 6000; i++) {
		/* every view built again, so that updating says whether each
		 * shown result is the one its request wants (a request still
		 * queued is neither busy nor arrived) */
		(void)d9t_jobs_poll(f->app.jobs);
		d9t_app_dirty(&f->app);
		fx_render(f);
		if (!f->app.updating &&
		    strstr(f->screen, "computing the") == NULL)
			return f->screen;
		usleep(10000);
	}
	ck_abort_msg("the views' figures did not arrive in a minute");
	return f->screen;
}
