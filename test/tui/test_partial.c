/*
 * test_partial.c: the browser while the trace still loads. A partial
 * model (d9m_model_snapshot of what was read so far) must give the same
 * figures as a model of just that input, must not disturb the loading
 * model, and swapping in the whole model must keep the selection and let
 * a whole-trace window grow. Once written to the index, the mapped entry
 * takes the whole model's place without a change the user could see. A
 * directory that grew since its entry was made shows that entry first.
 * The browser reads what fits in its memory as the other modes do.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fixture.h"
#include "mktrace.h"
#include "model/figures/analysis.h"
#include "parse/fit.h"
#include "tui/loader.h"

static const char *
trace(const char *name)
{
	static char path[2][4096];
	static int k;
	const char *dir = getenv("D9_TRACES");

	ck_assert_ptr_nonnull(dir);
	k ^= 1;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	return path[k];
}

static void
load(struct d9m_model *m, const char *path)
{
	struct d9p_read_stats st;

	ck_assert_int_eq(d9m_model_load(m, &path, 1, NULL, NULL, NULL, &st), 0);
	ck_assert_uint_gt(st.read_ok, 0);
}

static struct d9m_model *
finished(const char *path)
{
	struct d9m_model *m = d9m_model_new();

	ck_assert_ptr_nonnull(m);
	load(m, path);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	return m;
}

static void
ck_same_figures(const struct d9m_model *a, const struct d9m_model *b)
{
	struct d9m_analysis x, y;
	struct d9m_analysis_opts o;

	ck_assert_uint_eq(a->polls.n, b->polls.n);
	ck_assert_uint_eq(a->nworkers, b->nworkers);
	ck_assert_uint_eq(a->min_ts, b->min_ts);
	ck_assert_uint_eq(a->max_ts, b->max_ts);
	ck_assert_uint_eq(a->tasks.n, b->tasks.n);
	ck_assert_uint_eq(a->cpu.n, b->cpu.n);
	memset(&o, 0, sizeof o);
	o.win = D9M_WHOLE;
	o.worst = 3;
	ck_assert_int_eq(d9m_analyze(a, &o, &x), 0);
	ck_assert_int_eq(d9m_analyze(b, &o, &y), 0);
	ck_assert_uint_eq(x.nworst, y.nworst);
	for (size_t i = 0; i < x.nworst; i++)
		ck_assert_uint_eq(a->polls.end[x.worst[i].poll] -
		    a->polls.start[x.worst[i].poll], b->polls.end[y.worst[i].poll] -
		    b->polls.start[y.worst[i].poll]);
	ck_assert_uint_eq(x.long_polls, y.long_polls);
	d9m_analysis_free(&x);
	d9m_analysis_free(&y);
}

/* A 120 x 30 browser of path with no model yet (the loader's start). */
static void
empty_app(struct fx *f, const char *path)
{
	memset(f, 0, sizeof *f);
	d9t_config_init(&f->cfg);
	f->cfg.sync = 1;
	f->path = path;
	ck_assert_int_eq(d9t_app_init(&f->app, &f->cfg, &f->path, 1, 1, 1), 0);
	ck_assert_int_eq(d9t_canvas_init(&f->cv, 120, 30), 0);
}

START_TEST(snapshot_equals_a_model_of_the_same_input)
{
	const char *a = trace("block-in-place-2026-05.bin");
	const char *b = trace("demo-2026-03.bin");
	struct d9m_model *m = d9m_model_new(), *s, *ra, *rab;

	ck_assert_ptr_nonnull(m);
	load(m, a);
	ck_assert_ptr_nonnull(s = d9m_model_snapshot(m));
	load(m, b);		/* loading goes on after the copy */
	ck_assert_int_eq(d9m_model_finish(s), 0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ra = finished(a);
	ck_same_figures(s, ra);
	rab = d9m_model_new();
	ck_assert_ptr_nonnull(rab);
	load(rab, a);
	load(rab, b);
	ck_assert_int_eq(d9m_model_finish(rab), 0);
	ck_same_figures(m, rab);
	/* strings interned after the copy stay out of it */
	ck_assert_uint_lt(s->strs.n, m->strs.n);
	d9m_model_free(&s);
	d9m_model_free(&m);
	d9m_model_free(&ra);
	d9m_model_free(&rab);
}
END_TEST

START_TEST(swap_keeps_selection_and_grows_the_window)
{
	const char *a = trace("demo-2026-03.bin");
	const char *b = trace("block-in-place-2026-05.bin");
	struct d9m_model *m = d9m_model_new(), *s;
	struct d9m_lanes *ix;
	struct fx f;
	uint64_t start, dur;
	uint32_t worker;

	empty_app(&f, a);
	fx_render(&f);
	ck_screen_has(&f, "loading");
	fx_keys(&f, "w");
	ck_screen_has(&f, "still loading");

	ck_assert_ptr_nonnull(m);
	load(m, a);
	ck_assert_ptr_nonnull(s = d9m_model_snapshot(m));
	ck_assert_int_eq(d9m_model_finish(s), 0);
	ck_assert_ptr_nonnull(ix = d9m_lanes_build(s));
	ck_assert_int_eq(d9t_app_set_partial(&f.app, s, ix), 0);
	fx_keys(&f, "w");
	ck_screen_has(&f, "worst in window");
	ck_screen_has(&f, " loading");		/* the header badge */
	ck_assert_uint_ne(f.app.sel, D9_NONE);
	start = s->polls.start[f.app.sel];
	dur = s->polls.end[f.app.sel] - start;
	worker = s->workers[d9m_poll_worker(s, f.app.sel)].id;
	fx_keys(&f, "\n");		/* the detail of that poll */
	ck_screen_has(&f, "Poll of ");

	load(m, b);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ck_assert_ptr_nonnull(ix = d9m_lanes_build(m));
	ck_assert_int_eq(d9t_app_set_model(&f.app, m, ix), 0);
	fx_render(&f);
	ck_assert_int_eq(f.app.loading, 0);
	ck_screen_lacks(&f, " loading");
	ck_assert_uint_ne(f.app.sel, D9_NONE);
	ck_assert_uint_eq(m->polls.start[f.app.sel], start);
	ck_assert_uint_eq(m->polls.end[f.app.sel] - start, dur);
	ck_assert_uint_eq(m->workers[d9m_poll_worker(m, f.app.sel)].id, worker);
	ck_assert_uint_eq(d9t_detail_poll(&f.app), f.app.sel);
	ck_assert_uint_eq(f.app.lo, m->min_ts);
	ck_assert_uint_eq(f.app.hi, m->max_ts);
	fx_close(&f);
}
END_TEST

/* A segment of one process (the same wall-clock offset) whose polls
 * run from first ns on, one a second, for secs seconds. */
static char *
seconds_from(uint64_t first, unsigned secs)
{
	struct mt t;
	char *path;

	mt_begin(&t);
	mt_clock(&t, first, first + 1700000000000000000ull);
	for (unsigned i = 0; i < secs; i++) {
		mt_poll_start(&t, first + i * 1000000000ull, 0, i + 1, "a.rs:1:1");
		mt_poll_end(&t, first + i * 1000000000ull + 500000, 0);
	}
	path = mt_write(&t);
	tg_free(&t.tg);
	return path;
}

/*
 * The newest file read first (`ls -t`, a list given newest first): the
 * partial model of it begins seconds after the trace does. The window
 * --window asked for and the cursor nobody moved are put anew on the
 * whole model, from its start, as the report puts them; a window the
 * user chose stays where it is. A --window past the end of a partial
 * model (cut to it meanwhile) is whole again on the whole model.
 */
START_TEST(swap_puts_the_first_window_anew)
{
	char *old = seconds_from(1000000000ull, 4);
	char *late = seconds_from(5000000000ull, 4);
	const char *order[] = { late, old };
	struct d9m_model *m = d9m_model_new(), *s;
	struct d9m_lanes *ix;
	struct fx f;

	ck_assert_ptr_nonnull(m);
	for (int moved = 0; moved < 2; moved++) {
		empty_app(&f, late);
		f.cfg.have_window = 1;
		f.cfg.win_lo_ms = 1000;
		f.cfg.win_hi_ms = 2000;
		if (moved == 1)
			m = d9m_model_new();
		ck_assert_ptr_nonnull(m);
		load(m, order[0]);
		ck_assert_ptr_nonnull(s = d9m_model_snapshot(m));
		ck_assert_int_eq(d9m_model_finish(s), 0);
		ck_assert_ptr_nonnull(ix = d9m_lanes_build(s));
		ck_assert_int_eq(d9t_app_set_partial(&f.app, s, ix), 0);
		ck_assert_uint_eq(f.app.lo, 6000000000ull);	/* 1 s in */
		if (moved)
			fx_keys(&f, "h");	/* pan */
		load(m, order[1]);
		ck_assert_int_eq(d9m_model_finish(m), 0);
		ck_assert_uint_eq(m->min_ts, 1000000000ull);
		ck_assert_ptr_nonnull(ix = d9m_lanes_build(m));
		ck_assert_int_eq(d9t_app_set_model(&f.app, m, ix), 0);
		if (moved) {
			ck_assert_uint_lt(f.app.lo, 6000000000ull);
			ck_assert_uint_gt(f.app.lo, 4000000000ull);
		} else {
			ck_assert_uint_eq(f.app.lo, 2000000000ull);
			ck_assert_uint_eq(f.app.hi, 3000000000ull);
			ck_assert_uint_eq(f.app.cursor, 2000000000ull);
		}
		fx_close(&f);
	}
	/* the oldest first, --window past what the partial model holds:
	 * cut to it meanwhile, then whole again */
	empty_app(&f, old);
	f.cfg.have_window = 1;
	f.cfg.win_lo_ms = 1000;
	f.cfg.win_hi_ms = 6000;
	ck_assert_ptr_nonnull(m = d9m_model_new());
	load(m, old);
	ck_assert_ptr_nonnull(s = d9m_model_snapshot(m));
	ck_assert_int_eq(d9m_model_finish(s), 0);
	ck_assert_ptr_nonnull(ix = d9m_lanes_build(s));
	ck_assert_int_eq(d9t_app_set_partial(&f.app, s, ix), 0);
	ck_assert_uint_lt(f.app.hi, 5000000000ull);
	load(m, late);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ck_assert_ptr_nonnull(ix = d9m_lanes_build(m));
	ck_assert_int_eq(d9t_app_set_model(&f.app, m, ix), 0);
	ck_assert_uint_eq(f.app.lo, 2000000000ull);
	ck_assert_uint_eq(f.app.hi, 7000000000ull);
	fx_close(&f);
	unlink(old);
	unlink(late);
	free(old);
	free(late);
}
END_TEST

/* Wait (the test's timeout bounds it) for the loader's thread. */
static void
nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* The loader's index entry, mapped, once written (a failure when none
 * will be: the inputs were live, the write failed). */
static void
wait_mapped(struct d9t_loader *ld, struct d9m_model **m,
    struct d9m_lanes **ix)
{
	int rc;

	while ((rc = d9t_loader_mapped(ld, m, ix)) == 0)
		nap();
	ck_assert_msg(rc == 1, "no index entry was written");
}

/*
 * A trace read (not yet in the index) is shown, written to the index,
 * and the entry, mapped, takes the model's place: the same figures, the
 * same selected poll, the old model retired and freed.
 */
START_TEST(index_entry_takes_the_models_place)
{
	const char *a = trace("demo-2026-03.bin");
	char xdg[] = "/tmp/d9tui-XXXXXX", cmd[64];
	struct d9t_loader *ld;
	struct d9m_model *m, *mm;
	struct d9m_lanes *ix, *mix;
	struct d9p_read_stats st;
	struct fx f;
	uint64_t start, dur;

	char dir[sizeof xdg + 8];
	struct d9i_where w = { dir, D9I_CACHE_BUDGET };

	ck_assert_ptr_nonnull(mkdtemp(xdg));
	snprintf(dir, sizeof dir, "%s/d9top", xdg);
	ck_assert_ptr_nonnull(ld = d9t_loader_new(&a, 1, D9T_LOAD_WHOLE, &w, 0));
	while (d9t_loader_state(ld) != 2)
		nap();
	d9t_loader_take(ld, &m, &ix, &st);
	ck_assert_ptr_nonnull(m);
	ck_assert(!d9m_model_mapped(m));		/* read from the trace */
	empty_app(&f, a);
	ck_assert_int_eq(d9t_app_set_model(&f.app, m, ix), 0);
	fx_keys(&f, "w");
	ck_assert_uint_ne(f.app.sel, D9_NONE);
	start = m->polls.start[f.app.sel];
	dur = m->polls.end[f.app.sel] - start;
	wait_mapped(ld, &mm, &mix);
	ck_assert(d9m_model_mapped(mm));	/* mapped from the index */
	ck_same_figures(m, mm);
	ck_assert_int_eq(d9t_app_set_model(&f.app, mm, mix), 0);
	fx_render(&f);
	ck_assert_ptr_eq(f.app.m, mm);
	ck_assert_uint_eq(mm->polls.start[f.app.sel], start);
	ck_assert_uint_eq(mm->polls.end[f.app.sel] - start, dur);
	ck_assert_uint_eq(f.app.nretired, 1);
	ck_assert_ptr_eq(f.app.retired[0].m, m);
	ck_assert_int_eq(d9t_loader_mapped(ld, &mm, &mix), 0);	/* once */
	/* w after the entry took the model's place goes on to the next
	 * worst, as if nothing had happened (it started again at the worst) */
	fx_keys(&f, "w");
	ck_assert_uint_ne(mm->polls.start[f.app.sel], start);
	ck_assert_uint_le(mm->polls.end[f.app.sel] -
	    mm->polls.start[f.app.sel], dur);
	fx_close(&f);
	d9t_loader_stop(ld);
	d9t_loader_free(&ld);
	snprintf(cmd, sizeof cmd, "rm -rf %s", xdg);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Read dir (one path) with flags until done, into the index at w, and
 * wait for its entry to be written and mapped: the whole model and its
 * lanes, which the caller frees, and *ld, to free after them. */
static struct d9m_model *
read_and_keep(const char *dir, int flags, const struct d9i_where *w,
    struct d9t_loader **ld, struct d9m_lanes **ix)
{
	struct d9m_model *m, *mm;
	struct d9m_lanes *mix;
	struct d9p_read_stats st;

	ck_assert_ptr_nonnull(*ld = d9t_loader_new(&dir, 1, flags, w, 0));
	while (d9t_loader_state(*ld) != 2)
		nap();
	d9t_loader_take(*ld, &m, ix, &st);
	ck_assert_ptr_nonnull(m);
	ck_assert(!d9m_model_mapped(m));	/* read from the traces */
	wait_mapped(*ld, &mm, &mix);
	d9m_lanes_free(&mix);
	d9m_model_free(&mm);
	d9t_loader_stop(*ld);
	return m;
}

/* read_and_keep's results freed. */
static void
drop(struct d9t_loader **ld, struct d9m_model **m, struct d9m_lanes **ix)
{
	d9m_lanes_free(ix);
	d9m_model_free(m);
	d9t_loader_free(ld);
}

/*
 * A directory that gained a segment since the index's entry of it was
 * made is read again, and that entry, mapped, is the first (and only)
 * partial model meanwhile: the figures of the segment it had; the
 * browser shows it, then the whole model of both, its whole-trace window
 * grown. A directory that lost its oldest segment shows the entry that
 * had it; one whose .active segment was sealed, the entry that had it
 * unsealed.
 */
START_TEST(grown_directory_shows_its_entry_first)
{
	const char *a = trace("demo-2026-03.bin");
	const char *b = trace("block-in-place-2026-05.bin");
	char xdg[] = "/tmp/d9tui-XXXXXX", cmd[64];
	char dir[sizeof xdg + 8], fa[sizeof dir + 16], fb[sizeof dir + 16];
	char idx[sizeof xdg + 8], big[1024];
	const char *pdir = dir;
	struct d9i_where w = { idx, D9I_CACHE_BUDGET };
	int rc;
	struct d9t_loader *ld;
	struct d9m_model *m, *pm, *ra, *m2;
	struct d9m_lanes *ix, *pix, *ix2;
	struct d9i_prior p;
	struct fx f;
	size_t polls;

	ck_assert_ptr_nonnull(mkdtemp(xdg));
	snprintf(idx, sizeof idx, "%s/d9top", xdg);
	snprintf(dir, sizeof dir, "%s/tr", xdg);
	snprintf(fa, sizeof fa, "%s/a.bin", dir);
	snprintf(fb, sizeof fb, "%s/b.bin", dir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(symlink(a, fa), 0);
	m = read_and_keep(dir, D9T_LOAD_WHOLE, &w, &ld, &ix);
	ck_assert_int_eq(d9t_loader_prior(ld, &p), 0);	/* a new entry */
	ck_assert_int_eq(p.how, D9I_NONE);
	drop(&ld, &m, &ix);

	ck_assert_int_eq(symlink(b, fb), 0);	/* the directory grows */
	m = read_and_keep(dir, 0, &w, &ld, &ix);
	ck_assert_int_eq(d9t_loader_prior(ld, &p), 1);
	ck_assert_int_eq(p.how, D9I_GROWN);
	ck_assert_uint_eq(p.kept, 1);
	ck_assert_uint_eq(p.added, 1);
	ck_assert_int_eq(d9t_loader_partial(ld, &pm, &pix), 1);
	ck_assert(d9m_model_mapped(pm));	/* the entry of a alone */
	ra = finished(a);
	ck_same_figures(pm, ra);
	ck_assert_uint_gt(m->polls.n, pm->polls.n);
	ck_assert_int_eq(d9t_loader_partial(ld, &m2, &ix2), 0);	/* once */
	empty_app(&f, dir);
	ck_assert_int_eq(d9t_app_set_partial(&f.app, pm, pix), 0);
	fx_render(&f);
	ck_assert_uint_eq(f.app.hi, pm->max_ts);
	ck_assert_int_eq(d9t_app_set_model(&f.app, m, ix), 0);
	fx_render(&f);
	ck_assert_ptr_eq(f.app.m, m);
	ck_assert_uint_eq(f.app.lo, m->min_ts);
	ck_assert_uint_eq(f.app.hi, m->max_ts);
	fx_close(&f);		/* frees pm and m */
	d9m_model_free(&ra);
	d9t_loader_free(&ld);

	/* the oldest segment goes (a recorder's retention): the entry of
	 * both shown first */
	ck_assert_int_eq(unlink(fa), 0);
	m = read_and_keep(dir, 0, &w, &ld, &ix);
	ck_assert_int_eq(d9t_loader_prior(ld, &p), 1);
	ck_assert_int_eq(p.how, D9I_REMOVED);
	ck_assert_int_eq(d9t_loader_partial(ld, &m2, &ix2), 1);
	ck_assert(d9m_model_mapped(m2));
	ck_assert_uint_gt(m2->polls.n, m->polls.n);
	d9m_lanes_free(&ix2);
	d9m_model_free(&m2);
	drop(&ld, &m, &ix);

	/* a segment written to (quiet for an hour: indexed; the trace's
	 * own time may be recent), then sealed: the entry with it shown
	 * first */
	snprintf(fa, sizeof fa, "%s/c.bin.active", dir);
	snprintf(big, sizeof big, "cp '%s' '%s'", a, fa);
	ck_assert_int_eq(system(big), 0);
	/* written to just now: live, read and shown, never indexed */
	ck_assert_ptr_nonnull(ld = d9t_loader_new(&pdir, 1, 0, &w, 0));
	while (d9t_loader_state(ld) != 2)
		nap();
	while ((rc = d9t_loader_mapped(ld, &m2, &ix2)) == 0)
		nap();
	ck_assert_int_eq(rc, -1);
	d9t_loader_free(&ld);
	snprintf(big, sizeof big, "touch -d '-1 hour' '%s'", fa);
	ck_assert_int_eq(system(big), 0);
	m = read_and_keep(dir, 0, &w, &ld, &ix);
	polls = m->polls.n;
	drop(&ld, &m, &ix);
	snprintf(fb, sizeof fb, "%s/c.bin", dir);
	ck_assert_int_eq(rename(fa, fb), 0);
	m = read_and_keep(dir, 0, &w, &ld, &ix);
	ck_assert_int_eq(d9t_loader_prior(ld, &p), 1);
	ck_assert_int_eq(p.how, D9I_SEALED);
	ck_assert_uint_eq(p.kept, 1);
	ck_assert_int_eq(d9t_loader_partial(ld, &m2, &ix2), 1);
	ck_assert(d9m_model_mapped(m2));
	ck_assert_uint_eq(m2->polls.n, polls);
	d9m_lanes_free(&ix2);
	d9m_model_free(&m2);
	drop(&ld, &m, &ix);
	snprintf(cmd, sizeof cmd, "rm -rf %s", xdg);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * What a view keeps carries over to a model of other files by text and
 * task id: a model of a then b and one of b then a intern a's strings
 * and number a's tasks differently; a string of neither is D9_NONE.
 */
START_TEST(views_carry_over_by_text_and_task_id)
{
	const char *a = trace("demo-2026-03.bin");
	const char *b = trace("block-in-place-2026-05.bin");
	const char *ab[2] = { a, b }, *ba[2] = { b, a };
	struct d9m_model *x = d9m_model_new(), *y = d9m_model_new();
	struct d9p_read_stats st;
	size_t moved = 0;
	uint32_t *task, *loc, t, s;
	uint64_t id;
	const char *text;
	struct fx f;

	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	ck_assert_int_eq(d9m_model_load(x, ab, 2, NULL, NULL, NULL, &st), 0);
	ck_assert_int_eq(d9m_model_load(y, ba, 2, NULL, NULL, NULL, &st), 0);
	ck_assert_int_eq(d9m_model_finish(x), 0);
	ck_assert_int_eq(d9m_model_finish(y), 0);
	for (uint32_t i = 0; i < x->strs.n; i++) {
		uint32_t j = d9m_str_remap(x, y, i), lx, ly;
		const char *sx = d9_intern_str(&x->strs, i, &lx);
		const char *sy = d9_intern_str(&y->strs, j, &ly);

		ck_assert_uint_ne(j, D9_NONE);	/* the same files */
		ck_assert_uint_eq(lx, ly);
		ck_assert_int_eq(memcmp(sx, sy, lx), 0);
		moved += i != j;
	}
	ck_assert_uint_gt(moved, 0);	/* the ids did differ */
	for (uint32_t k = 0; k < x->tasks.n; k++)
		ck_assert_uint_eq(y->tasks.id[d9m_task_remap(x, y, k)],
		    x->tasks.id[k]);
	ck_assert_uint_eq(d9m_str_remap(x, y, D9_NONE), D9_NONE);
	ck_assert_uint_eq(d9m_str_remap(x, y, (uint32_t)x->strs.n), D9_NONE);
	ck_assert_uint_eq(d9m_task_remap(x, y, (uint32_t)x->tasks.n), D9_NONE);
	/* through a swap: the task view's row and the location view's
	 * string, where the views' ops say they keep them */
	for (t = 0; t < x->tasks.n && (x->tasks.loc[t] == D9_NONE ||
	    d9m_task_remap(x, y, t) == t); t++)
		;
	ck_assert_uint_lt(t, x->tasks.n);	/* a task that moved */
	s = x->tasks.loc[t];
	id = x->tasks.id[t];
	text = d9_intern_str(&x->strs, s, NULL);
	empty_app(&f, a);
	ck_assert_int_eq(d9t_app_set_model(&f.app, x, d9m_lanes_build(x)), 0);
	task = (uint32_t *)(void *)((char *)f.app.vstate[D9T_V_TASK] +
	    d9t_view_task.keeps_task - 1);
	loc = (uint32_t *)(void *)((char *)f.app.vstate[D9T_V_LOCTASKS] +
	    d9t_view_loc_tasks.keeps_str - 1);
	*task = t;
	*loc = s;
	ck_assert_int_eq(d9t_app_set_model(&f.app, y, d9m_lanes_build(y)), 0);
	ck_assert_uint_eq(y->tasks.id[*task], id);
	ck_assert_str_eq(d9_intern_str(&y->strs, *loc, NULL), text);
	fx_close(&f);		/* frees x and y */
}
END_TEST

/* Copy the shared trace name to dir/as; its guessed need (fit.h). */
static uint64_t
put(const char *dir, const char *name, const char *as)
{
	char cmd[8192], to[4096];
	struct stat sb;

	snprintf(to, sizeof to, "%s/%s", dir, as);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", trace(name), to);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(stat(to, &sb), 0);
	return d9p_fit_need(to, (uint64_t)sb.st_size);
}

/*
 * With room for two of three segments, the loader reads the two that
 * began last (by their clocks, not their names) and its model says which
 * file was left out, as --json does (test/e2e/test_memory.c).
 */
START_TEST(loader_reads_what_fits)
{
	char dir[] = "/tmp/d9tui-XXXXXX", path[64], cmd[64];
	const char *p = dir;
	struct timespec old[2] = { { 1577836800, 0 }, { 1577836800, 0 } };
	struct d9p_fit f[3] = { { 0, 0, 0 } };
	struct d9t_loader *ld;
	struct d9m_model *m;
	struct d9m_lanes *ix;
	struct d9p_read_stats st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	f[0].need = put(dir, "demo-2026-06.bin.gz", "trace.0.bin.gz");
	f[1].need = put(dir, "block-in-place-2026-05.bin", "trace.1.bin");
	f[2].need = put(dir, "demo-2026-03.bin", "trace.2.bin");
	snprintf(path, sizeof path, "%s/trace.2.bin", dir);
	ck_assert_int_eq(utimensat(AT_FDCWD, path, old, 0), 0);
	ck_assert_ptr_nonnull(ld = d9t_loader_new(&p, 1,
	    D9T_LOAD_WHOLE | D9T_LOAD_NO_CACHE, NULL,
	    d9p_fit_base(f, 3) + f[0].need + f[1].need));
	while (d9t_loader_state(ld) != 2)
		nap();
	d9t_loader_take(ld, &m, &ix, &st);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(strncmp(m->errors[0], path, strlen(path)), 0);
	ck_assert_ptr_nonnull(strstr(m->errors[0], ": 1 older file not read: "
	    "the newest 2, about "));
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
	/* a sanitizer's shadow memory is resident too: reading may stop
	 * early (stream.c), and say so */
	ck_assert_uint_le(m->nerrors, 2);
	ck_assert_uint_le(m->segs.n, 2);
	ck_assert_uint_ge(st.unread, 1);
#else
	ck_assert_uint_eq(m->nerrors, 1);
	ck_assert_uint_eq(m->segs.n, 2);
	ck_assert_uint_eq(st.unread, 1);
	ck_assert_uint_eq(m->loss.unread, 1);	/* what every view shows */
#endif
	d9m_lanes_free(&ix);
	d9m_model_free(&m);
	d9t_loader_free(&ld);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *
suite_partial(void)
{
	Suite *s = suite_create("partial");
	TCase *tc = tcase_create("partial");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, snapshot_equals_a_model_of_the_same_input);
	tcase_add_test(tc, swap_keeps_selection_and_grows_the_window);
	tcase_add_test(tc, swap_puts_the_first_window_anew);
	tcase_add_test(tc, index_entry_takes_the_models_place);
	tcase_add_test(tc, grown_directory_shows_its_entry_first);
	tcase_add_test(tc, loader_reads_what_fits);
	tcase_add_test(tc, views_carry_over_by_text_and_task_id);
	suite_add_tcase(s, tc);
	return s;
}
