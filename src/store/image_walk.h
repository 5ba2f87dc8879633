/*
 * image_walk.h: the one walk over a model that says what an image
 * (image.h) holds, in order, for counting, writing and loading alike, and
 * the primitives it is made of. Only image.c uses it.
 */
#ifndef D9I_IMAGE_WALK_H
#define D9I_IMAGE_WALK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sum.h"
#include "store/image_check.h"
#include "model/queries/lanes.h"
#include "model/core/model.h"
#include "model/core/tables.h"

#define D9I_IMG_ALIGN	64	/* every section starts at a multiple */
#define D9I_IMG_STRIPE	((uint64_t)4 << 20)	/* a multiple of the page */
#define D9I_IMG_WBUF	(256u << 10)	/* small writes gathered */

struct d9i_img_sect {
	uint64_t	 off, bytes;
};

/* D9I_IW_WRITE with fd -1: only measure */
enum { D9I_IW_COUNT, D9I_IW_WRITE, D9I_IW_LOAD };

/* One walk over the model. COUNT numbers the scalars and sections; WRITE
 * gathers the scalars and writes sections to fd; LOAD reads them back. */
struct d9i_iwalk {
	int		 mode;
	struct d9m_model *m;
	struct d9m_lanes *lanes;	/* the browser's lookups, with m */
	uint64_t	*scal;
	size_t		 nscal, nsect;
	struct d9i_img_sect	*sect;
	/* D9I_IW_WRITE */
	int		 fd;
	uint64_t	 at;		/* file offset of the next section
					 * (LOAD: where the last one ended) */
	uint64_t	 body;		/* file offset of the first section */
	struct d9_sum	 sum[2];	/* the stripes */
	uint8_t		*buf;		/* small writes gathered */
	size_t		 nbuf;
	const _Atomic int *cancel;	/* stop writing when set */
	/* D9I_IW_LOAD */
	const uint8_t	*base;
	size_t		 size;
	int		 bad;
	const char	*why;
	/* what the sections' values must be (image_check.h), in file
	 * order: the sections must come in it, apart, after the head */
	struct d9i_icheck *checks;
	size_t		 nchecks, capchecks;
};

/* The u64 figures of m (tables' sizes, counts), then its arrays. */
void	d9i_iwalk_scalars(struct d9i_iwalk *w, struct d9m_model *m);
void	d9i_iwalk_arrays(struct d9i_iwalk *w, struct d9m_model *m);
/* Write out what WRITE gathered. */
void	d9i_iwalk_flush(struct d9i_iwalk *w);
/* The tables with descriptors: what was loaded, then the timelines. */
size_t	d9i_iwalk_tables(struct d9m_model *m, struct d9m_tabref *t);
/* How many scalars and sections an image has (from an empty model). */
int	d9i_iwalk_count(size_t *nscal, size_t *nsect);

#endif
