/*
 * byname.h: stacks grouped by what is shown of them. Two stacks whose
 * frames carry the same names (function and inline chain, leaf first)
 * are one stack to a person, whatever their addresses (another call
 * site in the same function, another segment's copy of the code), so
 * every list of stacks (the poll detail, flame trees, the report, JSON,
 * --folded) merges them. A merged group keeps the (stack, segment) it
 * first met as the one whose frames are shown.
 */
#ifndef D9M_BYNAME_H
#define D9M_BYNAME_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/frames.h"
#include "model/queries/samples.h"

/* A dense id per distinct name stack (0, 1, ... in order of first
 * meeting: the first pair of a new name gets the next id) for each of
 * the n (stack, segment) pairs, into id. */
int	d9m_name_ids(const struct d9m_model *m, const struct d9m_resolver *r,
	    int alloc, const uint32_t *stack, const uint32_t *seg, size_t n,
	    uint32_t *id);
/* The same for n items of any struct (stride bytes apart, the stack and
 * segment ids at those offsets): the ids, malloc'd, or NULL. */
uint32_t *d9m_name_ids_of(const struct d9m_model *m,
	    const struct d9m_resolver *r, int alloc, const void *items,
	    size_t n, size_t stride, size_t stack_at, size_t seg_at);
/* Merge the groups of v[0 .. *n) whose frames have the same names (with
 * alloc, without the allocator-hook frames), in place: weights and
 * counts are added, the first of each name stays, order is kept. */
int	d9m_merge_by_name(const struct d9m_model *m,
	    const struct d9m_resolver *r, int alloc, struct d9m_wstack *v,
	    size_t *n);

struct d9m_stack_group {
	uint32_t	stack;		/* stack id */
	uint32_t	seg;		/* segment its symbols come from */
	size_t		count;
	char		*label;		/* the first rows' names (labels.h) */
};

/* Stack groups of a set of CPU sample rows, merged by what their frames
 * are named (above; names through r), count descending; a group's
 * count adds its rows' d9m_cpu_weight (samples.h). */
int	d9m_group_stacks(const struct d9m_model *m,
	    const struct d9m_resolver *r, const uint32_t *rows, size_t n,
	    struct d9m_stack_group **out, size_t *nout);

#endif
