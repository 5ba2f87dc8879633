/*
 * split.c: see split.h. A sink in front of the builder's: every call
 * goes on to the model being filled; at a batch where a segment ends,
 * that model is finished and handed over first. Each batch registers
 * its schemas again (the decoder forgets them at a TRC header), so the
 * new model's builder sees every schema it is sent events of.
 *
 * A new model's tables start as large as the last model's were (and an
 * eighth more), of this input or of the caller's last (split.h's hint):
 * the segments of one host are much alike, and tables grown row by row
 * from nothing spent a share of the export in realloc copying them and
 * in faulting in their new memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/split.h"
#include "model/core/build.h"
#include "model/core/tables.h"

struct split {
	struct d9m_model	*m;
	struct d9p_sink		 in;	/* m's builder's */
	char			*input;	/* name of the input, for a new m */
	uint64_t		 events;	/* given to m */
	struct d9x_split_hint	*hint;	/* the caller's, or own */
	struct d9x_split_hint	 own;
	int			 stop;
	int			 cut;	/* a segment was cut (noted once) */
	struct d9p_segcap	 cap;	/* the identity of the segment */
	d9x_split_fn		 fn;
	void			*ctx;
	void			(*note)(void *, const char *);
	void			*note_ctx;
};

static int
fresh(struct split *s)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t n;

	if ((s->m = d9m_model_new()) == NULL)
		return -1;
	d9m_builder_sink(s->m, &s->in);
	n = d9m_model_tables(s->m, t);
	for (size_t i = 0; i < n; i++)	/* a hint: failing is no error */
		if (s->hint->rows[i] > 0)
			(void)d9m_tab_reserve(t[i].tab, t[i].desc,
			    s->hint->rows[i] + s->hint->rows[i] / 8);
	s->events = 0;
	if (s->input != NULL && s->in.input != NULL)
		s->in.input(s->in.ctx, s->input);
	return 0;
}

/* Hand the model over (finished), its segment ending at stream offset
 * at (UINT64_MAX: with the input): 0, or -1 to stop. */
static int
hand(struct split *s, uint64_t at)
{
	struct d9m_model *m = s->m;
	struct d9m_tabref t[D9M_NTABLES];
	struct d9p_segid id;
	int known = d9p_segcap_end(&s->cap, at, &id) == 0;

	s->m = NULL;
	for (size_t i = 0, n = m ? d9m_model_tables(m, t) : 0; i < n; i++)
		s->hint->rows[i] = d9m_tab_n(t[i].tab);
	if (m != NULL && d9m_model_finish_last(m) < 0)
		d9m_model_free(&m);
	return s->fn(s->ctx, m, s->events, known ? &id : NULL);
}

static int
on_schema(void *ctx, struct d9p_schema *sc)
{
	struct split *s = ctx;

	return s->stop ? -1 : s->in.schema(s->in.ctx, sc);
}

static int
on_event(void *ctx, const struct d9p_schema *sc, uint64_t ts,
    const struct d9p_value *v)
{
	struct split *s = ctx;

	if (s->stop)
		return -1;
	s->events++;
	return s->in.event(s->in.ctx, sc, ts, v);
}

static void
on_batch(void *ctx, uint64_t off)
{
	struct split *s = ctx;
	int ends, part = 0;

	if (s->stop)
		return;
	ends = s->events > 0 && d9m_builder_segment_ends(s->m);
	if (!ends && s->events >= D9X_SPLIT_EVENTS) {
		if (!s->cut && s->note != NULL) {
			char msg[512];

			snprintf(msg, sizeof msg, "%s: byte %llu: a segment of "
			    "more than %u events without a symbol appendix: "
			    "exported in parts", s->input ? s->input : "stdin",
			    (unsigned long long)off, D9X_SPLIT_EVENTS);
			s->note(s->note_ctx, msg);
		}
		s->cut = ends = part = 1;
	}
	if (ends && (hand(s, off) < 0 || fresh(s) < 0)) {
		s->stop = 1;
		return;
	}
	if (ends || s->cap.state == D9P_SEGCAP_IDLE)
		d9p_segcap_begin(&s->cap, off, !part);
	if (s->in.batch != NULL)
		s->in.batch(s->in.ctx, off);
}

static void
on_window(void *ctx, const uint8_t *w, size_t n, uint64_t off, int exact)
{
	struct split *s = ctx;

	d9p_segcap_window(&s->cap, w, n, off, exact);
}

static void
on_input(void *ctx, const char *name)
{
	struct split *s = ctx;

	free(s->input);
	s->input = strdup(name);
	if (!s->stop && s->in.input != NULL)
		s->in.input(s->in.ctx, name);
}

static void
on_loss(void *ctx, int what)
{
	struct split *s = ctx;

	if (what == D9P_LOSS_DAMAGED)
		d9p_segcap_damage(&s->cap);
	if (!s->stop && s->in.loss != NULL)
		s->in.loss(s->in.ctx, what);
}

int
d9x_split_read(const char *path, int fd, d9x_split_fn fn, void *ctx,
    const struct d9p_read_opts *ro, struct d9x_split_hint *hint,
    struct d9p_read_stats *st)
{
	struct split s = { .fn = fn, .ctx = ctx, .note = ro->note,
	    .note_ctx = ro->note_ctx };
	struct d9p_read_opts o = { .note = ro->note, .note_ctx = ro->note_ctx,
	    .stream_only = ro->stream_only };
	struct d9p_sink sink = { .ctx = &s, .schema = on_schema,
	    .event = on_event, .batch = on_batch, .input = on_input,
	    .loss = on_loss, .window = on_window };
	int rc;

	memset(st, 0, sizeof *st);
	s.hint = hint != NULL ? hint : &s.own;
	d9p_segcap_init(&s.cap);
	if (fresh(&s) < 0 || (fd >= 0 && (fd = dup(fd)) < 0)) {
		d9m_model_free(&s.m);
		d9p_segcap_free(&s.cap);
		fn(ctx, NULL, 0, NULL);
		return -1;
	}
	/* d9p_read_fd closes the dup */
	rc = fd >= 0 ? d9p_read_fd(fd, path, 0, &sink, &o, st) :
	    d9p_read_paths(&path, 1, &sink, &o, st);
	if (!s.stop)
		rc = hand(&s, UINT64_MAX) < 0 || rc < 0 ? -1 : 0;
	else {
		d9m_model_free(&s.m);
		rc = -1;
	}
	free(s.input);
	d9p_segcap_free(&s.cap);
	return rc;
}
