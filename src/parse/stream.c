/*
 * stream.c: see stream.h. The loop's locals live in struct d9p_stream so
 * that a tail stream can stop at the end of its file and go on later.
 *
 * Cutting a value (D9P_ELIDE): its count in the window is rewritten to
 * what is kept, and the bytes of the rest are dropped as they arrive, at
 * window position drop_at; gap counts the bytes dropped there, so that
 * offsets stay those of the input.
 *
 * A file read whole (whole.h) is not copied into a window of its own:
 * the window is a view of its decoded bytes (d9p_input_view), which
 * follow one another, and consuming moves the view's front. Cutting a
 * value moves bytes, so the first cut copies the window into a buffer
 * and the stream reads on by copies (own_window). The decoder is fed
 * the same bytes at the same offsets either way.
 */
#include <sys/stat.h>

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/stackcap.h"
#include "base/statm.h"
#include "base/text.h"
#include "base/units.h"
#include "parse/fit.h"
#include "parse/input.h"
#include "parse/rewrite.h"
#include "parse/stream.h"
#include "parse/whole.h"

#define READ_CHUNK	(256 * 1024)
#define MAX_WINDOW	(512u << 20)
#define KEEP_MAX	(D9_STACK_MAX * 8u)	/* bytes kept of a string or
						 * stack (64 KiB) */
#define POOL_MAX	(256ull << 20)	/* pool bytes kept of a batch */
#define FRAME_CUTS_MAX	64		/* cut values in one frame */

struct d9p_stream {
	struct d9p_input	*in;
	struct d9p_decoder	*dec;
	const struct d9p_sink	*sink;
	char			*name;
	int			 in_dir;
	uint8_t			*w;		/* the window */
	size_t			 wlen, wcap;
	int			 view;		/* w is in the input's bytes
						 * (d9p_input_view), not ours */
	uint64_t		 woff;		/* decoded offset of w[0] */
	uint64_t		 ev0, events;	/* decoder events at open, seen */
	uint64_t		 total;		/* decoded bytes */
	uint64_t		 consumed;	/* input bytes reported */
	int			 pipe;		/* not a regular file */
	int			 eof;		/* 1 end, 2 after an input error */
	int			 cut;
	/* values cut to KEEP_MAX */
	size_t			 drop_at;	/* window position of drops */
	uint64_t		 drop_left;	/* bytes still to drop there */
	uint64_t		 gap;		/* bytes dropped there so far */
	uint64_t		 ncut, longest, first_cut;
	uint64_t		 last_cut, last_len;	/* offset, bytes */
	int			 frame_cuts;	/* in the frame being decoded */
	int			 told, told_pools;	/* notes given */
	/* damage resynchronised (ANALYSIS 19.1) */
	unsigned		 ndamaged;
	uint64_t		 dmg_batches;	/* decoder batches at the last */
	/* a tail stream of raw bytes: written again below what was read? */
	struct d9p_rewrite	*rw;
	uint64_t		 rss_at;	/* total when memory was looked
						 * at last */
};

void
d9p_note(const struct d9p_read_opts *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	d9_text_vformat(msg, sizeof msg, fmt, ap);	/* quotes names */
	va_end(ap);
	if (o && o->note)
		o->note(o->note_ctx, msg);
}

void
d9p_note_skipped(const struct d9p_read_opts *o,
    const struct d9p_read_stats *st)
{
	if (st->skipped > D9P_SKIPPED_TOLD)
		d9p_note(o, "%u more files are not dial9 traces, skipped (%u "
		    "in all)", st->skipped - D9P_SKIPPED_TOLD, st->skipped);
}

/* The rest of the input cannot be read: the sink counts the segment
 * as cut. */
static void
cut_short(struct d9p_stream *s)
{
	if (s->sink->loss)
		s->sink->loss(s->sink->ctx, D9P_LOSS_CUT);
}

/* The note that ends an input: values cut before are said in it, so a
 * damaged input (a length gone wild is cut, then the frames after it
 * fail) still gets one note. */
static void
end_say(struct d9p_stream *s, const struct d9p_read_opts *o, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
end_say(struct d9p_stream *s, const struct d9p_read_opts *o, const char *fmt,
    ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (s->ncut == 0 || s->told)
		d9p_note(o, "%s", msg);
	else
		d9p_note(o, "%s (after %llu value%s cut to %u KiB)", msg,
		    (unsigned long long)s->ncut, s->ncut > 1 ? "s" : "",
		    KEEP_MAX >> 10);
	s->told = 1;
}

/*
 * Damage at byte off (what went wrong; then: where reading goes on):
 * the decoder skips to the next batch. Told and counted once for each
 * stretch of damage: a symptom of the same damage (a member's bad check
 * after the garbage it decoded to) comes before any new batch.
 */
static void
damaged(struct d9p_stream *s, const struct d9p_read_opts *o,
    struct d9p_read_stats *st, uint64_t off, const char *what,
    const char *then)
{
	uint64_t nb = d9p_decoder_batches(s->dec);

	if (s->ndamaged == 0 || nb != s->dmg_batches) {
		end_say(s, o, "%s: byte %llu: %s; %s", s->name,
		    (unsigned long long)off, what, then);
		st->failed++;
		if (s->sink->loss)
			s->sink->loss(s->sink->ctx, D9P_LOSS_DAMAGED);
		s->ndamaged++;
		s->dmg_batches = nb;
	}
	d9p_decoder_resync(s->dec);
}

static int
window_room(struct d9p_stream *s, size_t want)
{
	size_t nc = s->wcap ? s->wcap : 4 * READ_CHUNK;
	uint8_t *q;

	if (s->view)	/* the bytes are there: the same limit */
		return want > MAX_WINDOW - s->wlen ? -1 : 0;
	if (s->wcap - s->wlen >= want)
		return 0;
	while (nc - s->wlen < want) {
		if (nc >= MAX_WINDOW)
			return -1;
		nc *= 2;
	}
	if ((q = realloc(s->w, nc)) == NULL)
		return -1;
	s->w = q;
	s->wcap = nc;
	return 0;
}

/* A stream on the input in (taken; NULL: out of memory). */
static struct d9p_stream *
open_input(struct d9p_input *in, int is_pipe, const char *name, int in_dir,
    uint64_t bytes, const struct d9p_sink *sink, struct d9p_read_stats *st)
{
	struct d9p_stream *s = calloc(1, sizeof *s);

	if (s == NULL || (s->name = strdup(name)) == NULL ||
	    d9p_decoder_new(&s->dec, sink) < 0) {
		if (s)
			free(s->name);
		free(s);
		d9p_input_close(&in);
		return NULL;
	}
	s->in = in;
	s->sink = sink;
	d9p_decoder_limit(s->dec, KEEP_MAX, POOL_MAX);
	s->in_dir = in_dir;
	s->pipe = is_pipe;
	st->inputs++;
	if (sink->input)
		sink->input(sink->ctx, name);
	if (sink->size && bytes > 0)
		sink->size(sink->ctx, bytes);
	return s;
}

struct d9p_stream *
d9p_stream_open(int fd, const char *name, int in_dir,
    const struct d9p_sink *sink, struct d9p_read_stats *st)
{
	struct d9p_input *in;
	struct d9_err e;
	struct stat sb;
	int known = fstat(fd, &sb) == 0;
	int is_pipe = known && !S_ISREG(sb.st_mode);
	uint64_t bytes = known && !is_pipe ? d9p_fit_stated(fd,
	    (uint64_t)sb.st_size) : 0;

	d9_err_clear(&e);
	if (d9p_input_open_fd(&in, fd, &e) < 0)
		return NULL;
	/* decompressed on another core, beside the decoding */
	(void)d9p_input_ahead(in, READ_CHUNK);
	return open_input(in, is_pipe, name, in_dir, bytes, sink, st);
}

struct d9p_stream *
d9p_stream_open_whole(struct d9p_whole *w, const char *name, int in_dir,
    const struct d9p_sink *sink, struct d9p_read_stats *st)
{
	struct d9p_input *in;
	struct d9_err e;
	struct d9p_stream *s;

	d9_err_clear(&e);
	if (d9p_input_open_whole(&in, w, &e) < 0)
		return NULL;
	if ((s = open_input(in, 0, name, in_dir, w->n, sink, st)) != NULL)
		s->view = 1;
	return s;
}

/* Wait for a pipe to have bytes, ticking meanwhile, so that what was
 * read before a pause is shown and a cancel is seen. 0, or -1 cancelled. */
static int
wait_pipe(struct d9p_stream *s, const struct d9p_read_opts *o)
{
	struct d9p_progress *pr = o->progress;

	if (!s->pipe || pr == NULL || pr->tick == NULL ||
	    d9p_input_buffered(s->in) > 0)
		return 0;
	while (d9p_input_wait(s->in, 200) == 0) {
		if (atomic_load(&pr->cancel))
			return -1;
		pr->tick(pr->tick_ctx);
	}
	return 0;
}

/* Drop what arrived of a cut value's tail. */
static void
drop_tail(struct d9p_stream *s)
{
	size_t d;

	if (s->drop_left == 0 || s->wlen <= s->drop_at)
		return;
	d = s->wlen - s->drop_at;
	if (d > s->drop_left)
		d = (size_t)s->drop_left;
	memmove(s->w + s->drop_at, s->w + s->drop_at + d,
	    s->wlen - s->drop_at - d);
	s->wlen -= d;
	s->drop_left -= d;
	s->gap += d;
}

/* The decoder consumed used bytes from the front of the window. */
static void
consume(struct d9p_stream *s, size_t used)
{
	if (s->rw != NULL)	/* the file's bytes, unless a value was cut */
		d9p_rewrite_bytes(s->rw, s->woff, s->gap || s->drop_left ||
		    s->frame_cuts ? NULL : s->w, used >= s->drop_at ?
		    used + s->gap : used);
	if (s->view)
		s->w += used;
	else
		memmove(s->w, s->w + used, s->wlen - used);
	s->wlen -= used;
	if (used >= s->drop_at) {
		s->woff += used + s->gap;
		s->gap = 0;
		s->drop_at = 0;
	} else {
		s->woff += used;
		s->drop_at -= used;
	}
	s->frame_cuts = 0;
	if (s->view)
		d9p_input_done(s->in, s->woff);
}

/* The next chunk of a view, right after the window's bytes. */
static ssize_t
view_chunk(struct d9p_stream *s)
{
	uint8_t *p;
	ssize_t r = d9p_input_view(s->in, &p, READ_CHUNK);

	if (s->wlen == 0 && p != NULL)
		s->w = p;
	return r;
}

/* A view's bytes into a window of our own, before bytes move in it;
 * the input's next bytes are copied after them. -1 out of memory. */
static int
own_window(struct d9p_stream *s)
{
	const uint8_t *p = s->w;
	size_t n = s->wlen;

	s->view = 0;
	s->w = NULL;
	s->wlen = s->wcap = 0;
	if (window_room(s, n + READ_CHUNK) < 0)
		return -1;
	memcpy(s->w, p, n);
	s->wlen = n;
	d9p_input_done(s->in, s->woff + n);
	return 0;
}

/* Read one chunk into the window (s->eof set at the end). */
static int
read_chunk(struct d9p_stream *s, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	struct d9_err e;
	ssize_t r;

	if (wait_pipe(s, o) < 0)
		return -1;

	if (window_room(s, READ_CHUNK) < 0) {
		end_say(s, o, "%s: byte %llu: frame larger than %u MiB",
		    s->name, (unsigned long long)s->woff, MAX_WINDOW >> 20);
		st->failed++;
		cut_short(s);
		return -1;
	}
	d9_err_clear(&e);
	r = s->view ? view_chunk(s) : d9p_input_read(s->in, s->w + s->wlen,
	    READ_CHUNK, &s->cut, &e);
	if (o->progress) {
		uint64_t c = d9p_input_consumed(s->in);

		atomic_fetch_add(&o->progress->bytes_in, c - s->consumed);
		s->consumed = c;
	}
	if (r < 0 && e.code == D9_ERR_CONTAINER) {
		/* the frame the damage cut goes, the next member is read */
		damaged(s, o, st, e.off, e.msg, "skipped to the next member");
		if (s->sink->window != NULL)	/* the bytes break here */
			s->sink->window(s->sink->ctx, NULL, 0, s->woff +
			    s->wlen, 0);
		s->drop_left = 0;
		consume(s, s->wlen);
	} else if (r < 0) {
		end_say(s, o, "%s: byte %llu: %s", s->name,
		    (unsigned long long)e.off, e.msg);
		st->failed++;
		cut_short(s);
		/* decode what arrived before the bad data */
		s->eof = 2;
	} else if (r == 0)
		s->eof = 1;
	if (s->rw != NULL && r > 0)
		d9p_rewrite_read(s->rw, s->w + s->wlen, (size_t)r);
	if (s->rw != NULL && d9p_input_kinds(s->in) != 1u << D9P_C_RAW)
		d9p_rewrite_free(&s->rw);	/* not a raw file */
	s->wlen += (size_t)(r > 0 ? r : 0);
	s->total += (uint64_t)(r > 0 ? r : 0);
	drop_tail(s);
	return 0;
}

/* Cut the value the decoder handed back (see the top of the file), its
 * count now at window position pos; -1 when one frame has too many. */
static int
cut_value(struct d9p_stream *s, size_t pos, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	const struct d9p_elision *el = d9p_decoder_elision(s->dec);
	uint64_t bytes = (uint64_t)el->count * el->unit;
	uint64_t off = s->woff + pos + (pos >= s->drop_at ? s->gap : 0);
	uint8_t *p = s->w + pos;

	if (++s->frame_cuts > FRAME_CUTS_MAX) {
		end_say(s, o, "%s: byte %llu: more than %d values longer than "
		    "%u KiB in one frame; later frames skipped", s->name,
		    (unsigned long long)off, FRAME_CUTS_MAX, KEEP_MAX >> 10);
		st->failed++;
		return -1;
	}
	if (s->ncut++ == 0)
		s->first_cut = off;
	s->last_cut = off;
	s->last_len = bytes;
	if (bytes > s->longest)
		s->longest = bytes;
	p[0] = (uint8_t)el->keep;
	p[1] = (uint8_t)(el->keep >> 8);
	p[2] = (uint8_t)(el->keep >> 16);
	p[3] = (uint8_t)(el->keep >> 24);
	if (el->unit == 8 && el->keep > 0) {
		/* a stack: its outermost frame kept says what was cut
		 * (base/stackcap.h); its bytes are in the window */
		uint64_t mark = d9_stack_cut((uint64_t)el->count - el->keep + 1);

		for (int i = 0; i < 8; i++)
			p[4 + (size_t)(el->keep - 1) * 8 + (size_t)i] =
			    (uint8_t)(mark >> 8 * i);
	}
	s->drop_at = pos + 4 + (size_t)el->keep * el->unit;
	s->drop_left = bytes - (uint64_t)el->keep * el->unit;
	drop_tail(s);
	return 0;
}

/* The window position of decoded offset off (at or after the front). */
static size_t
win_pos(const struct d9p_stream *s, uint64_t off)
{
	uint64_t d = off > s->woff ? off - s->woff : 0;

	if (d < s->drop_at)
		return (size_t)d;
	if (d < s->drop_at + s->gap)
		return s->drop_at;	/* in what was dropped */
	d -= s->gap;
	return d < s->wlen ? (size_t)d : s->wlen;
}

/*
 * A decoder error: 1 go on (a bad frame of a trace: the decoder skips to
 * the next batch from the byte after the bad one, so that no byte is
 * decoded twice by frames that fail), 0 the stream is over (not a
 * trace, or after an input error), -1 out of memory.
 */
static int
decode_error(struct d9p_stream *s, const struct d9_err *e,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	uint64_t ev = d9p_decoder_events(s->dec);

	if (e->code == D9_ERR_NOMEM)
		return -1;
	if (s->eof == 2)
		return 0;	/* a symptom of the damage noted before */
	if (e->code == D9_ERR_BAD_MAGIC && s->in_dir && ev == s->ev0) {
		if (st->skipped < D9P_SKIPPED_TOLD)
			d9p_note(o, "%s: not a dial9 trace, skipped", s->name);
		st->skipped++;
	} else if (!d9p_decoder_started(s->dec)) {
		end_say(s, o, "%s: byte %llu: %s", s->name,
		    (unsigned long long)e->off, e->msg);
		st->failed++;
		cut_short(s);
	} else {
		size_t at = win_pos(s, e->off);

		damaged(s, o, st, e->off, e->msg, "skipped to the next batch");
		s->drop_left = 0;
		consume(s, at < s->wlen ? at + 1 : s->wlen);
		return 1;
	}
	return 0;
}

/* The input ended with rc from the last feed: say how. */
static void
end_note(struct d9p_stream *s, int rc, const struct d9_err *e,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	if (s->eof == 2)
		return;
	if (s->drop_left > 0)
		s->ncut--;	/* no value: its length ran past the end */
	if (s->total == 0 && !s->cut && s->ndamaged == 0) {
		d9p_note(o, "%s: empty input", s->name);
		st->failed++;
	} else if (rc == D9P_MORE) {
		end_say(s, o, "%s: truncated at byte %llu", s->name,
		    (unsigned long long)e->off);
		cut_short(s);
	} else if (s->drop_left > 0) {
		end_say(s, o, "%s: truncated at byte %llu (a value of %llu "
		    "bytes at byte %llu runs past the end)", s->name,
		    (unsigned long long)s->total,
		    (unsigned long long)s->last_len,
		    (unsigned long long)s->last_cut);
		cut_short(s);
	} else if (s->cut) {
		end_say(s, o, "%s: truncated at byte %llu (compressed data "
		    "ends early)", s->name, (unsigned long long)s->woff);
		cut_short(s);
	}
}

/* What the limits cost this input, said once when it is over. */
static void
limit_notes(struct d9p_stream *s, const struct d9p_read_opts *o)
{
	uint64_t dropped = d9p_decoder_pool_dropped(s->dec);

	if (s->ncut > 0 && !s->told)
		d9p_note(o, "%s: byte %llu: %llu value%s longer than %u KiB "
		    "(strings, stacks) cut to %u KiB; the longest had %llu "
		    "bytes", s->name, (unsigned long long)s->first_cut,
		    (unsigned long long)s->ncut, s->ncut > 1 ? "s" : "",
		    KEEP_MAX >> 10, KEEP_MAX >> 10,
		    (unsigned long long)s->longest);
	s->told = 1;
	if (dropped > 0 && !s->told_pools)
		d9p_note(o, "%s: string and stack pools over %llu MiB: %llu "
		    "later entr%s dropped (shown unresolved)", s->name,
		    (unsigned long long)(POOL_MAX >> 20),
		    (unsigned long long)dropped, dropped > 1 ? "ies" : "y");
	s->told_pools = 1;
}

static int pump(struct d9p_stream *, int, const struct d9p_read_opts *,
    struct d9p_read_stats *);

static void
on_header(void *ctx, uint64_t off)
{
	struct d9p_stream *s = ctx;

	if (s->rw != NULL)
		d9p_rewrite_header(s->rw, off);
}

/*
 * A tail stream paused at the end of its file: when the file was cut
 * back below what was read and written again (parse/rewrite.h), read on
 * where its bytes part from what was read, dropping the window (the
 * frame there is gone). What was read stays read: nothing is lost, and
 * nothing new is missed.
 */
static void
reread(struct d9p_stream *s, const struct d9p_read_opts *o)
{
	uint64_t pos = d9p_input_consumed(s->in), at;
	int keep, fd = d9p_input_fd(s->in);

	if (s->rw == NULL || fd < 0 ||
	    d9p_rewrite_check(s->rw, fd, pos, &at, &keep) != 1 ||
	    d9p_input_seek(s->in, at) < 0)
		return;
	d9p_note(o, "%s: byte %llu: cut back below the %llu bytes read and "
	    "written again; read on from there", s->name,
	    (unsigned long long)at, (unsigned long long)pos);
	if (!keep || at != s->woff)
		d9p_decoder_resync(s->dec);
	s->wlen = 0;
	s->woff = s->total = at;
	s->drop_at = 0;
	s->drop_left = s->gap = 0;
	s->frame_cuts = 0;
	s->cut = 0;
}

/* Decoded bytes between two looks at the process's memory. */
#define RSS_STEP	((uint64_t)1 << 20)

/* Whether the process holds three quarters of o->mem_budget (the rest
 * is for finishing what was read: a third more, measured), looked at
 * every RSS_STEP decoded bytes: then the rest of the input and the
 * inputs after it are not read (told once, st->full). */
static int
memory_full(struct d9p_stream *s, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	char held[32], may[32];
	size_t rss;

	if (o->mem_budget == 0 || s->total - s->rss_at < RSS_STEP)
		return 0;
	s->rss_at = s->total;
	rss = d9_statm(D9_STATM_RESIDENT);
	if (rss == 0 || rss <= o->mem_budget / 4 * 3)
		return 0;
	end_say(s, o, "%s: byte %llu: d9top holds %s, %s the %s it may "
	    "use (--memory SIZE, or all): the rest of the input is not read, "
	    "nor any input after it", s->name, (unsigned long long)s->woff,
	    d9_fmt_ibytes(held, sizeof held, (double)rss), rss > o->mem_budget ?
	    "past" : "near", d9_fmt_ibytes(may, sizeof may,
	    (double)o->mem_budget));
	st->full = 1;
	cut_short(s);
	return 1;
}

int
d9p_stream_pump(struct d9p_stream *s, int tail, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	int rc = pump(s, tail, o, st);

	if (rc != 1 || tail == D9P_TAIL_ONCE)
		limit_notes(s, o);
	return rc;
}

static int
pump(struct d9p_stream *s, int tail, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	int rc, again = 0;
	struct d9_err e;
	size_t used;

	if (st->full)
		return 0;	/* memory: told once, nothing more is read */
	if (tail && s->rw == NULL && s->total == 0 && s->eof == 0 &&
	    (s->rw = d9p_rewrite_new()) != NULL)
		d9p_decoder_on_header(s->dec, on_header, s);
	if (s->eof == 1) {
		reread(s, o);
		s->eof = 0;	/* paused at the end: the file may have grown */
	}
	if (s->sink->resume)
		s->sink->resume(s->sink->ctx, s->name);
	d9p_input_rearm(s->in);
	for (;;) {
		int last;

		if (o->progress && atomic_load(&o->progress->cancel))
			return 0;
		/* after a resync or a value cut, the rest of the window is
		 * decoded before more is read: damage that more brings (a
		 * container's) drops what is left of the window, which must
		 * not hold frames of a batch the decoder had not reached
		 * yet, whatever the sizes of the reads */
		if (!again && !s->eof && read_chunk(s, o, st) < 0)
			return 0;
		again = 0;
		last = s->eof != 0 && !(tail && s->eof == 1);
		d9_err_clear(&e);
		d9p_decoder_gap(s->dec, s->drop_at, s->gap);
		if (s->sink->window != NULL)
			s->sink->window(s->sink->ctx, s->w, s->wlen, s->woff,
			    !(s->gap || s->drop_left || s->frame_cuts));
		rc = d9p_decoder_feed(s->dec, s->w, s->wlen, s->woff, last,
		    d9p_input_raw_since(s->in), &used, &e);
		if (used > 0)
			consume(s, used);
		if (memory_full(s, o, st))
			return 0;
		if (o->progress) {
			uint64_t ev = d9p_decoder_events(s->dec);

			atomic_fetch_add(&o->progress->events, ev - s->events);
			s->events = ev;
			if (o->progress->tick)
				o->progress->tick(o->progress->tick_ctx);
		}
		if (rc == D9P_SWITCH) {
			if (d9p_input_pushback(s->in, s->w, s->wlen) < 0) {
				end_say(s, o, "%s: byte %llu: compressed data "
				    "inside compressed data", s->name,
				    (unsigned long long)s->woff);
				st->failed++;
				cut_short(s);
				return 0;
			}
			s->total -= s->wlen;
			s->wlen = 0;
			s->eof = 0;
			continue;
		}
		if (rc == D9P_ELIDE) {
			/* the frames before it are consumed already */
			size_t at = d9p_decoder_elision(s->dec)->pos - used;

			if (s->view && own_window(s) < 0)
				return -1;
			if (cut_value(s, at, o, st) < 0)
				return 0;
			again = 1;
			continue;
		}
		if (rc < 0) {
			int go = decode_error(s, &e, o, st);

			if (go != 1)
				return go;
			again = 1;
			continue;
		}
		if (s->eof) {
			if (!last)
				return 1;
			end_note(s, rc, &e, o, st);
			return 0;
		}
	}
}

int
d9p_stream_rename(struct d9p_stream *s, const char *name)
{
	char *n;

	if (strcmp(name, s->name) == 0)
		return 0;
	if ((n = strdup(name)) == NULL)
		return -1;
	if (s->sink->renamed)
		s->sink->renamed(s->sink->ctx, s->name, n);
	free(s->name);
	s->name = n;
	return 0;
}

void
d9p_stream_close(struct d9p_stream **ps, struct d9p_read_stats *st)
{
	struct d9p_stream *s = *ps;
	uint64_t ev;

	if (s == NULL)
		return;
	*ps = NULL;
	ev = d9p_decoder_events(s->dec);
	st->decoded += s->total;
	st->consumed += d9p_input_consumed(s->in);
	st->events += ev - s->ev0;
	if (ev > s->ev0)
		st->read_ok++;
	d9p_decoder_free(&s->dec);
	d9p_rewrite_free(&s->rw);
	d9p_input_close(&s->in);
	if (!s->view)
		free(s->w);
	free(s->name);
	free(s);
}
