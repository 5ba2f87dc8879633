/*
 * loader.h: the inputs to export, read ahead of the segment being
 * folded by threads of their own (one per core, at most D9X_LOADERS),
 * each input as its events stream in (split.h): thread t reads the
 * wanted inputs t, t + n, t + 2 n, ... (in the order of the inputs) and
 * hands over each segment's model, then the input's end, one at a time
 * through its slot, waiting until the slot is taken. Memory: a segment's
 * model per thread and the one being folded, whatever the inputs hold.
 */
#ifndef D9X_LOADER_H
#define D9X_LOADER_H

#include <pthread.h>
#include <stddef.h>

#include "export/split.h"
#include "model/core/model.h"
#include "parse/reader.h"

#define D9X_LOADERS	4

/* What a slot holds: a segment of input `at`, or the input's end. */
struct d9x_loaded {
	size_t			 at;
	int			 end;	/* st says how the reading went */
	int			 rc;	/* at the end: 0, -1 out of memory */
	struct d9m_model	*m;	/* a segment; NULL when out of memory */
	uint64_t		 events;
	int			 have_id;	/* id is the segment's */
	struct d9p_segid	 id;
	struct d9p_read_stats	 st;
};

struct d9x_loader;

/* A reading thread and its slot. */
struct d9x_reader {
	struct d9x_loader	*l;
	unsigned		 t;
	pthread_t		 thread;
	int			 running;
	int			 full;
	struct d9x_loaded	 slot;
	struct d9x_split_hint	 hint;	/* the tables of its last model */
};

struct d9x_loader {
	const char *const	*paths;	/* of the inputs; "-": stdin */
	const int		*fds;	/* each one's open pipe or device,
					 * -1 (d9x_split_read); NULL: none */
	const unsigned char	*want;	/* which to read */
	size_t			 n;
	struct d9p_read_opts	 ro;	/* note and stream_only */
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 stop;
	struct d9x_reader	 r[D9X_LOADERS];
	unsigned		 nr;		/* threads running */
	size_t			 taken;		/* wanted inputs finished */
};

/* Start reading paths[i] for each want[i] (all three kept by reference;
 * fds: NULL, or each one's open pipe or device, -1 for none:
 * d9x_split_read) on threads threads (1 .. D9X_LOADERS). 0, or -1 when
 * no thread could be made (the caller reads on its own thread:
 * d9x_split_read). */
int	d9x_loader_start(struct d9x_loader *l, const char *const *paths,
	    const int *fds, const unsigned char *want, size_t n,
	    unsigned threads, const struct d9p_read_opts *ro);
/* The next of input i (want[i] set, the inputs taken in order): a
 * segment (the caller's to free) or, last, the input's end. */
void	d9x_loader_take(struct d9x_loader *l, size_t i,
	    struct d9x_loaded *out);
/* Stop reading and free what was read and not taken. */
void	d9x_loader_stop(struct d9x_loader *l);

#endif
