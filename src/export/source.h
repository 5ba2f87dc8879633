/*
 * source.h: what one leaf set of --export parquet comes from: a source
 * group (ANALYSIS 23, model/core/groups.h) of the model of one input, with
 * the names its rows carry (source_key, boot, service, date, host) and
 * the clock its times are written on. FLEET.md: times are wall-clock
 * nanoseconds (the trace's clock sync, else its legacy wall-clock
 * metadata), monotonic where the trace has neither.
 */
#ifndef D9X_SOURCE_H
#define D9X_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/frames.h"
#include "model/core/model.h"

#define D9X_NAME_MAX	128	/* partition values are cut there */

struct d9x_source {
	const struct d9m_model	 *m;
	const struct d9m_resolver *r;
	uint32_t	 g;		/* the source group */
	uint32_t	 seg0;		/* its first segment, D9_NONE */
	int64_t		 off;		/* model time + off = written time */
	int		 wall;		/* off is to the wall clock */
	char		 key[33];	/* the leaf files' name, hex */
	char		 boot[D9X_NAME_MAX], service[D9X_NAME_MAX],
			 host[D9X_NAME_MAX], date[16];
};

/* The source of group g of m, whose input is named by base (16 bytes:
 * its identity, export.c). */
void	d9x_source_make(struct d9x_source *s, const struct d9m_model *m,
	    const struct d9m_resolver *r, uint32_t g, const uint8_t base[16]);

/* The key of group g of the input named by base: 32 hex digits. */
void	d9x_source_key(const uint8_t base[16], uint32_t g, char out[33]);
/* Whether s begins with a key as d9x_source_key writes it (32 lowercase
 * hex digits). */
int	d9x_is_key(const char *s);

/* A model time as written. */
static inline int64_t
d9x_ns(const struct d9x_source *s, uint64_t ts)
{
	return (int64_t)ts + s->off;
}

/* Whether rows of segment seg, task row t, worker slot w are the
 * source's. */
int	d9x_seg_in(const struct d9x_source *s, uint32_t seg);
int	d9x_task_in(const struct d9x_source *s, uint32_t t);
int	d9x_slot_in(const struct d9x_source *s, size_t w);
/* The group of a model worker id (ids.h); a name scoped to its group
 * ("g:name" for g > 0) and the name without the scope. */
uint32_t d9x_worker_group(const struct d9x_source *s, uint32_t id);
uint32_t d9x_name_group(const struct d9x_source *s, uint32_t name,
	    const char **bare);
/* The trace's task id of task row t (0 for D9_NONE). */
uint64_t d9x_task_id(const struct d9x_source *s, uint32_t t);

#endif
