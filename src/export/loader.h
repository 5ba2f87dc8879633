/*
 * loader.h: the models of the inputs to export, read ahead of the one
 * being folded by threads of their own (one per core, at most
 * D9X_LOADERS): thread t reads the wanted inputs t, t + n, t + 2 n, ...
 * (in the order of the inputs), each into its slot, and waits until it
 * is taken. Memory: a model per thread and the one being folded.
 */
#ifndef D9X_LOADER_H
#define D9X_LOADER_H

#include <pthread.h>
#include <stddef.h>

#include "model/core/model.h"
#include "parse/reader.h"

#define D9X_LOADERS	4

struct d9x_loaded {
	struct d9m_model	*m;	/* NULL when out of memory */
	struct d9p_read_stats	 st;
};

struct d9x_loader;

/* A reading thread and its slot. */
struct d9x_reader {
	struct d9x_loader	*l;
	unsigned		 t;
	pthread_t		 thread;
	int			 running;
	size_t			 at;		/* input of the slot */
	int			 full;
	struct d9x_loaded	 slot;
};

struct d9x_loader {
	const char *const	*paths;	/* of the inputs; "-": stdin */
	const unsigned char	*want;	/* which to read */
	size_t			 n;
	void			(*note)(void *, const char *);
	void			*note_ctx;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 stop;
	struct d9x_reader	 r[D9X_LOADERS];
	unsigned		 nr;		/* threads running */
	size_t			 taken;		/* wanted inputs taken */
};

/* Start reading paths[i] for each want[i] (both kept by reference) on
 * threads threads (1 .. D9X_LOADERS); with none made, d9x_loader_take
 * reads on the caller's thread. */
void	d9x_loader_start(struct d9x_loader *l, const char *const *paths,
	    const unsigned char *want, size_t n, unsigned threads,
	    void (*note)(void *, const char *), void *note_ctx);
/* The model of input i (want[i] set, taken in order): finished, the
 * caller's to free. */
void	d9x_loader_take(struct d9x_loader *l, size_t i,
	    struct d9x_loaded *out);
/* Stop reading and free what was read and not taken. */
void	d9x_loader_stop(struct d9x_loader *l);

#endif
