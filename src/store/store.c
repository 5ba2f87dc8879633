/* store.c: see store.h. */
#include <string.h>

#include "base/pages.h"
#include "store/store.h"

/* How s's inputs changed since the index's entry of them, to
 * o->changed, and that entry to o->prior. */
static void
hand_prior(const struct d9i_store *s, const struct d9i_opts *o)
{
	struct d9i_key was = { s->prior.files, s->key.roots };
	struct d9m_model *m;
	struct d9m_lanes *lanes;

	if (s->prior.how == D9I_NONE || s->prior.how == D9I_SAME)
		return;
	if (o->changed != NULL)
		o->changed(o->note_ctx, &s->prior);
	if (o->prior != NULL &&
	    d9i_cache_map(&s->cache, &was, &m, &lanes) == 0)
		o->prior(o->note_ctx, m, lanes, &s->prior);
}

int
d9i_open(struct d9i_store *s, const char *const *paths, size_t npaths,
    const struct d9i_opts *o)
{
	memset(s, 0, sizeof *s);
	s->paths = paths;
	s->npaths = npaths;
	s->keyed = -1;
	d9i_cache_init(&s->cache, o->follow ? NULL : o->where);
	if (s->cache.why != NULL && o->note != NULL)
		o->note(o->note_ctx, s->cache.why);	/* escaped: a path */
	if (!o->follow) {
		s->keyed = d9i_cache_find(&s->cache, paths, npaths, &s->key,
		    &s->m, &s->lanes, &s->prior);
		if (s->keyed == 0) {
			for (size_t i = 0; o->note != NULL &&
			    i < s->m->nerrors; i++)
				o->note(o->note_ctx, s->m->errors[i]);
			s->st.read_ok = 1;	/* only such models are kept */
			return 0;
		}
		if (s->keyed == 1)
			hand_prior(s, o);
	}
	if ((s->m = d9m_model_new()) == NULL)
		return -1;
	s->m->stream_only = o->stream_only;
	s->m->mem_budget = o->mem_budget;
	if (o->follow) {
		if ((s->f = d9p_follow_new(paths, npaths)) == NULL)
			return -1;
		return d9i_follow(s, o->prog);
	}
	if (d9m_model_load(s->m, paths, npaths, o->prog, o->note,
	    o->note_ctx, &s->st) < 0)
		return -1;
	if (o->prog != NULL && atomic_load(&o->prog->cancel))
		return 0;		/* unfinished: the caller quits */
	if (o->read_done != NULL)
		o->read_done(o->note_ctx);
	d9_pages_heap_end();	/* what finishing frees goes back */
	return d9m_model_finish_last(s->m);	/* nothing more is read */
}

int
d9i_follow(struct d9i_store *s, struct d9p_progress *prog)
{
	return s->f == NULL ? -1 : d9m_model_follow(s->m, s->f, prog, &s->st);
}

int
d9i_follow_ended(const struct d9i_store *s)
{
	return s->f != NULL && d9p_follow_ended(s->f);
}

int
d9i_keepable(const struct d9i_store *s)
{
	return s->keyed == 1 && s->st.read_ok > 0 && s->st.unread == 0 &&
	    !s->st.full;
}

int
d9i_claim(struct d9i_store *s)
{
	return d9i_keepable(s) ? d9i_cache_claim(&s->cache, &s->key) : -1;
}

void
d9i_unclaim(struct d9i_store *s, int lock)
{
	d9i_cache_release(&s->cache, &s->key, lock);
}

int
d9i_write(struct d9i_store *s, const struct d9m_model *m,
    const struct d9m_lanes *lanes, int lock, const _Atomic int *cancel)
{
	int rc;

	s->cache.cancel = cancel;
	rc = d9i_cache_put(&s->cache, &s->key, s->paths, s->npaths, m, lanes);
	d9i_unclaim(s, lock);
	return rc;
}

int
d9i_keep(struct d9i_store *s, const struct d9m_model *m,
    const struct d9m_lanes *lanes, const _Atomic int *cancel)
{
	int lock = d9i_claim(s);

	if (lock < 0)
		return -1;	/* or another d9top is writing it */
	return d9i_write(s, m, lanes, lock, cancel);
}

int
d9i_remap(const struct d9i_store *s, struct d9m_model **m,
    struct d9m_lanes **lanes)
{
	return s->keyed == 1 && d9i_cache_map(&s->cache, &s->key, m,
	    lanes) == 0 ? 0 : -1;
}

void
d9i_close(struct d9i_store *s)
{
	d9p_follow_free(&s->f);
	d9m_lanes_free(&s->lanes);
	d9m_model_free(&s->m);
	d9i_cache_free(&s->cache);
}
