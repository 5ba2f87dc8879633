/*
 * pool.h: the string and stack pools of one batch: id -> bytes. Ids are
 * u32 chosen by the writer; a hash map keeps memory proportional to the
 * entries actually defined, whatever ids a hostile trace uses.
 */
#ifndef D9P_POOL_H
#define D9P_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"

struct d9p_pool_entry {
	uint32_t	 id;
	uint32_t	 len;		/* bytes (strings) or frames (stacks) */
	const uint8_t	*p;
	uint32_t	 cache;		/* for the sink; reset on definition */
};

struct d9p_pool {
	struct d9_hmap	 rows;		/* id -> row of e */
	struct d9p_pool_entry *e;	/* in order of first definition */
	size_t		 n, cap;
};

void	 d9p_pool_init(struct d9p_pool *p);
void	 d9p_pool_free(struct d9p_pool *p);
void	 d9p_pool_clear(struct d9p_pool *p);
/* Define (or redefine) id; bytes must outlive the batch. */
int	 d9p_pool_put(struct d9p_pool *p, uint32_t id, const uint8_t *bytes,
	    uint32_t len);
/* The entry of id, or NULL; valid until the next put or clear. */
struct d9p_pool_entry *d9p_pool_get(struct d9p_pool *p, uint32_t id);

#endif
