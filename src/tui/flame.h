/*
 * flame.h: flame trees (ANALYSIS 9) as collapsible trees: root first,
 * children by weight, built for one window and filter. CPU (source 0),
 * off-CPU (source 1, optionally only inside polls) and allocations
 * (estimated bytes or count, ANALYSIS 7; allocator hooks stripped;
 * optionally only those never freed). Names are interned per tree.
 */
#ifndef D9T_FLAME_H
#define D9T_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/intern.h"
#include "model/frames.h"
#include "model/model.h"
#include "tui/index.h"

enum d9t_flame_kind { D9T_F_CPU, D9T_F_OFF, D9T_F_ALLOC };

struct d9t_flame_req {
	enum d9t_flame_kind kind;
	uint64_t	lo, hi;
	uint32_t	task;		/* task row, D9_NONE: any */
	uint32_t	loc;		/* spawn location id, D9_NONE: any */
	int		inpoll;		/* off-CPU: only samples in polls */
	int		count;		/* alloc: weigh by count, not bytes */
	int		liveset;	/* alloc: only never freed */
};

struct d9t_fnode {
	uint32_t	name;		/* id in names */
	uint32_t	parent;		/* D9_NONE for the root */
	uint32_t	kid0, nkids;	/* children in kids[], heaviest first */
	double		w;
	uint32_t	depth;
	uint8_t		open;
};

struct d9t_flame {
	struct d9t_flame_req req;
	struct d9t_fnode *nodes;	/* node 0 is the root */
	size_t		 n, cap;
	uint32_t	*kids;
	struct d9_arena	 arena;
	struct d9_intern names;
	size_t		 samples;	/* events that went in */
	uint32_t	*slots;		/* build: (parent, name) -> node + 1 */
	size_t		 nslots;
};

struct d9t_flame *d9t_flame_build(const struct d9m_model *m,
	    const struct d9t_index *ix, const struct d9m_resolver *r,
	    const struct d9t_flame_req *q);
void	 d9t_flame_free(struct d9t_flame **f);
const char *d9t_flame_name(const struct d9t_flame *f, uint32_t node);
/* Task and location of the poll running on tid's worker at ts. */
uint32_t d9t_poll_of_tid(const struct d9m_model *m, uint32_t tid,
	    uint64_t ts);

#endif
