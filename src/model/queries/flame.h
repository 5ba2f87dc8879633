/*
 * flame.h: flame trees (ANALYSIS 9) as collapsible trees: root first,
 * children by weight, built for one window and filter: on-CPU and
 * off-CPU samples (samples.h; off-CPU optionally only inside polls) and
 * allocations (estimated bytes or count with each segment's rate,
 * allocator hooks stripped; optionally only those live at the window's
 * end), and task dumps (what idle tasks awaited, each weighted by the
 * idle gap it describes, samples.h). The same weights as the analysis (analysis.h), so a tree's total
 * is the figure the report and JSON give. Inverted, a tree starts from
 * the leaf frames and each node's children are its callers (what perf
 * report calls callers). Names are interned per tree.
 */
#ifndef D9M_FLAME_H
#define D9M_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/intern.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "model/queries/hide.h"
#include "model/queries/query.h"
#include "model/queries/window.h"

/* A tree's query (query.h): win, task, loc, kind, flags D9M_Q_INPOLL
 * (off-CPU: only samples in polls), D9M_Q_COUNT (allocations and task
 * dumps: weigh by count, not bytes or idle time), D9M_Q_LIVE
 * (allocations: only never freed), D9M_Q_INVERT (from the leaf: who
 * calls it); text: the frames hidden (hide.h's pattern, "": none). */
_Static_assert(D9M_QUERY_TEXT >= D9M_HIDE_MAX, "a hide pattern fits");
enum d9m_flame_kind { D9M_F_CPU, D9M_F_OFF, D9M_F_ALLOC, D9M_F_DUMP };

struct d9m_fnode {
	uint32_t	name;		/* id in names */
	uint32_t	parent;		/* D9_NONE for the root */
	uint32_t	kid0, nkids;	/* children in kids[], heaviest first */
	double		w;
	uint32_t	depth;
	uint32_t	file;		/* source file id in names, D9_NONE */
	uint32_t	line;		/* 0 when unknown */
	uint8_t		open;
};

struct d9m_flame {
	struct d9m_query req;
	struct d9m_fnode *nodes;	/* node 0 is the root */
	size_t		 n, cap;
	uint32_t	*kids;
	struct d9_arena	 arena;
	struct d9_intern names;
	size_t		 samples;	/* events that went in */
	struct d9_hmap	 children;	/* build: (parent, name) -> node */
};

struct d9m_flame *d9m_flame_build(const struct d9m_model *m,
	    const struct d9m_resolver *r, const struct d9m_query *q);
void	 d9m_flame_free(struct d9m_flame **f);
const char *d9m_flame_name(const struct d9m_flame *f, uint32_t node);
/* Whether an allocation tree for q takes allocation row i by its task
 * and spawn location filters (the poll running on its thread). */
int	 d9m_flame_takes_alloc(const struct d9m_model *m,
	    const struct d9m_query *q, size_t i);
/* Whether the frames of (seg, stack) go through node (f's own order,
 * names and rules): the samples a node's weight counts. buf: room for
 * the frames (D9_STACK_MAX, d9m_frames_alloc). */
int	 d9m_flame_under(const struct d9m_flame *f, const struct d9m_model *m,
	    const struct d9m_resolver *r, uint32_t seg, uint32_t stack,
	    uint32_t node, struct d9m_frame *buf);
/* The node of f at the path names[0..n) of another tree of the same
 * samples (root end first, as the tree's own order) that hid other
 * frames: each name in turn is the shallowest node of that name under
 * the one found before; a name not found (a frame hidden now) is
 * skipped. 0 (the root) when none is found; *last: whether the last
 * name was found. */
uint32_t d9m_flame_find_path(const struct d9m_flame *f,
	    const char *const *names, size_t n, int *last);
/* "file:line" of a node's frame (the first sample's), "" when unknown. */
void	 d9m_flame_where(const struct d9m_flame *f, uint32_t node, char *out,
	    size_t cap);

#endif
