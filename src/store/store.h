/*
 * store.h: the one way inputs are opened (DESIGN.md, src/store): the
 * program (src/app), the browser (src/tui/loader.c) and --follow all call
 * d9i_open. Inputs the index holds are mapped from their entry (image.h,
 * cache.h); others are read and finished, and d9i_keep writes their entry
 * for the next time.
 *
 * The store owns finding, checking, writing, extending and evicting
 * entries and the mapping's pages: a mapped model gives its pages back
 * and unmaps through its backing (model.h), so the model's core and
 * analyses never call into the store.
 *
 * Map of src/store:
 *	store.c		d9i_open, d9i_follow, d9i_keep, d9i_remap: what an
 *			open set of inputs goes through
 *	cache.c		the index directory: keys, locks, finding, writing,
 *			evicting entries
 *	files.c		the files an entry was made from, kept beside it,
 *			and how today's differ (grown, replaced, ...)
 *	image.c		an entry's file: header, checksums, mapping
 *	image_walk.c	the one walk over a model that lists an image's
 *			sections (write and map alike)
 *	image_check.c	what mapping checks of the columns' values
 */
#ifndef D9I_STORE_H
#define D9I_STORE_H

#include <stdatomic.h>
#include <stddef.h>

#include "model/queries/lanes.h"
#include "model/core/model.h"
#include "parse/follow.h"
#include "store/cache.h"

struct d9i_opts {
	const struct d9i_where *where;	/* the index; NULL: none */
	int		 follow;	/* keep reading (never indexed) */
	int		 stream_only;	/* every input streams (d9p_read_opts') */
	uint64_t	 mem_budget;	/* the model's most (d9p_read_opts'),
					 * 0: none; a read that left files out
					 * is not indexed */
	/* optional: progress, ticks between chunks and cancel */
	struct d9p_progress *prog;
	void		(*note)(void *ctx, const char *msg);	/* input */
	void		*note_ctx;
	/* optional: the inputs are read, finishing starts (ctx: note_ctx) */
	void		(*read_done)(void *ctx);
	/* optional: the inputs changed since the index's entry of the same
	 * paths was made (a directory that gained segments, lost its
	 * oldest, had its .active segment sealed ...: files.h): that
	 * entry, mapped, is handed over (the callee owns m and lanes, and
	 * p says how they differ) before the inputs are read again, for a
	 * browser to show meanwhile (ctx: note_ctx) */
	void		(*prior)(void *ctx, struct d9m_model *m,
			    struct d9m_lanes *lanes, const struct d9i_prior *p);
	/* optional: the same news without the entry (how they changed),
	 * before they are read again, for saying why that takes long */
	void		(*changed)(void *ctx, const struct d9i_prior *p);
};

/* An open set of inputs. */
struct d9i_store {
	struct d9i_cache	 cache;
	struct d9i_key		 key;
	/* 0: mapped from its entry; 1: read, and its entry may be
	 * written (d9i_keep); -1: cannot be indexed */
	int			 keyed;
	const char *const	*paths;
	size_t			 npaths;
	struct d9m_model	*m;	/* the caller may take it (NULL it) */
	struct d9m_lanes	*lanes;	/* with a mapped m: free it first */
	struct d9p_read_stats	 st;
	struct d9p_follow	*f;	/* following */
	/* read (keyed 1): how the files differ from those of the entry
	 * the index held for the same paths (files.h; D9I_NONE: none) */
	struct d9i_prior	 prior;
};

/*
 * Open paths (kept by the caller until d9i_close): s->m finished,
 * mapped from the index or read from the traces (a mapped model's
 * stored messages are said again through o->note); with o->follow, what
 * is there so far, not finished (d9i_follow reads more). Inputs that changed
 * since their entry was made are read again whole; o->prior, when set,
 * gets that entry first. 0, or -1 when
 * out of memory (s->m may hold what was read). Why the index directory
 * is not used, when it is not, is said through o->note first.
 */
int	d9i_open(struct d9i_store *s, const char *const *paths,
	    size_t npaths, const struct d9i_opts *o);
/* Following: read what arrived since (parse/follow.h). */
int	d9i_follow(struct d9i_store *s, struct d9p_progress *prog);
/* Whether following can bring nothing more (d9p_follow_ended). */
int	d9i_follow_ended(const struct d9i_store *s);
/* Whether s's model may be written to the index (read here, not from
 * stdin nor a live directory, something read, no file left out for
 * memory). */
int	d9i_keepable(const struct d9i_store *s);
/* Claim the writing of s's entry: a descriptor holding the lock (it goes
 * with a fork), or -1 when not keepable or another d9top writes it. */
int	d9i_claim(struct d9i_store *s);
/* The claim given up unused (lock -1: none). */
void	d9i_unclaim(struct d9i_store *s, int lock);
/* Write s's entry holding lock (d9i_claim's), then let the lock go: 0,
 * or -1. */
int	d9i_write(struct d9i_store *s, const struct d9m_model *m,
	    const struct d9m_lanes *lanes, int lock, const _Atomic int *cancel);
/* Claim and write s's entry (m: s's model, or the model taken from it; lanes NULL:
 * made while writing) unless another d9top is writing it: 0, or -1.
 * cancel, when set, stops the write. */
int	d9i_keep(struct d9i_store *s, const struct d9m_model *m,
	    const struct d9m_lanes *lanes, const _Atomic int *cancel);
/* The entry just written, mapped: 0 with *m and *lanes, else -1. */
int	d9i_remap(const struct d9i_store *s, struct d9m_model **m,
	    struct d9m_lanes **lanes);
/* Free what s holds (its model and lanes if still there). */
void	d9i_close(struct d9i_store *s);

#endif
