/*
 * spares.h: anonymous mappings a read hands back to be filled again. A
 * prefetch worker (prefetch.h) decompresses a file into a mapping; when
 * the reader is done with it (d9p_whole_free) the mapping goes back here,
 * pages and all, and the worker's next file is decompressed into it.
 * Fresh pages cost a fault and zeroing each (on 58 segments, 700 MB of
 * 2 MiB pages zeroed on the worker, which the reader waited for a second
 * of); a spare's pages are already there. Thread-safe; a mapping that
 * finds no room (more than D9P_SPARES_MAX held, or larger than
 * D9P_SPARE_BIG) is unmapped.
 */
#ifndef D9P_SPARES_H
#define D9P_SPARES_H

#include <stddef.h>
#include <stdint.h>

#define D9P_SPARES_MAX	3		/* mappings held */
#define D9P_SPARE_BIG	(64u << 20)	/* larger ones are not kept */

struct d9p_spares;

struct d9p_spares *d9p_spares_new(void);
/* Unmap what is held and free sp. */
void	d9p_spares_free(struct d9p_spares **sp);
/* The smallest mapping held of want bytes or more, else the largest:
 * 0 and *p, *map set, or -1 (them untouched) when none is held. */
int	d9p_spares_take(struct d9p_spares *sp, size_t want, uint8_t **p,
	    size_t *map);
/* Keep the mapping [p, p + map) (or unmap it when there is no room). */
void	d9p_spares_give(struct d9p_spares *sp, uint8_t *p, size_t map);

#endif
