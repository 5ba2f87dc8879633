/*
 * stacks.h: the stack ids of one leaf set and its `stacks` table. A
 * stack id is the 128-bit hash (hash128.h) of a stack's symbolized
 * frames, leaf first, inline levels expanded (model/core/frames.h), each
 * name followed by a NUL: the same frames give the same id on every
 * host. An allocation's stack leaves out the allocator hook's frames
 * first (d9m_alloc_frames, as the heap flame graph and the top sites
 * do). Each (stack, segment, kind) is named once; each id is written
 * once in the leaf's `stacks` file.
 */
#ifndef D9X_STACKS_H
#define D9X_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "base/intern.h"
#include "export/bytes.h"
#include "export/leaf.h"
#include "model/core/frames.h"

struct d9x_stacks {
	struct d9_hmap	 memo;		/* stack << 32 | seg << 1 | alloc ->
					 * id number */
	struct d9_arena	 arena;
	struct d9_intern ids;		/* the distinct ids (16 bytes) */
	size_t		*at;		/* per id: where its names begin in
					 * all (resolved once, written from
					 * there) */
	size_t		 cap;
	struct d9m_fmemo fm;		/* each address's frames */
	struct d9m_frame *f;		/* frames of one stack */
	struct d9x_bytes names;		/* of the stack being named */
	struct d9x_bytes all;		/* every id's names, in id order */
};

int	d9x_stacks_init(struct d9x_stacks *s);
void	d9x_stacks_free(struct d9x_stacks *s);
/* The id of stack (of segment seg; alloc: an allocation's) into id.
 * 0, or -1 when out of memory. */
int	d9x_stacks_id(struct d9x_stacks *s, const struct d9x_source *src,
	    uint32_t seg, uint32_t stack, int alloc, uint8_t id[16]);
/* Every id met so far, with its frames, into the leaf (table stacks). */
int	d9x_stacks_write(struct d9x_stacks *s, struct d9x_leaf *l);

#endif
