/*
 * loader.h: the models of the inputs to export, read on a thread of
 * their own, one ahead of the one being folded: the next input is
 * decoded while the current one is written (two models at most).
 */
#ifndef D9X_LOADER_H
#define D9X_LOADER_H

#include <pthread.h>
#include <stddef.h>

#include "model/model.h"
#include "parse/reader.h"

struct d9x_loaded {
	struct d9m_model	*m;	/* NULL when out of memory */
	struct d9p_read_stats	 st;
};

struct d9x_loader {
	const char *const	*paths;	/* of the inputs; "-": stdin */
	const unsigned char	*want;	/* which to read */
	size_t			 n;
	void			(*note)(void *, const char *);
	void			*note_ctx;
	pthread_t		 thread;
	int			 running;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	size_t			 at;		/* input of the slot */
	int			 full, stop;
	struct d9x_loaded	 slot;
};

/* Start reading paths[i] for each want[i] (both kept by reference). 0,
 * or -1 when no thread could be made (then d9x_loader_take reads on the
 * caller's). */
int	d9x_loader_start(struct d9x_loader *l, const char *const *paths,
	    const unsigned char *want, size_t n,
	    void (*note)(void *, const char *), void *note_ctx);
/* The model of input i (want[i] set, taken in order): finished, the
 * caller's to free. */
void	d9x_loader_take(struct d9x_loader *l, size_t i,
	    struct d9x_loaded *out);
/* Stop reading and free what was read and not taken. */
void	d9x_loader_stop(struct d9x_loader *l);

#endif
