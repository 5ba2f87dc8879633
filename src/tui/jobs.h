/*
 * jobs.h: the derived data views show for the current window (seven
 * kinds: the analysis, three flame trees, spans, the task section alone,
 * the points of interest alone; enum d9t_job), computed off the UI thread so a
 * key press never waits for a whole-trace pass. One request slot per
 * kind: a newer request replaces a queued one. The UI thread owns every
 * result it was handed and is the only one that frees them; until the
 * wanted result arrives it keeps showing the previous one ("updating").
 * With sync set everything is computed in the caller (tests, benches).
 */
#ifndef D9T_JOBS_H
#define D9T_JOBS_H

#include <stdint.h>

#include "model/figures/analysis.h"
#include "model/queries/flame.h"
#include "model/queries/lanes.h"
#include "model/queries/query.h"
#include "model/queries/spanset.h"

/* TASKS: only the task section of the analysis (view 2 needs no more). */
/* POIS: the points of interest alone (poi.h). */
/* Each kind has a twin slot (kind + D9T_J_KINDS) for the same result of
 * the baseline window (`b`), so the two never replace each other. */
enum d9t_job { D9T_J_ANALYSIS, D9T_J_CPU, D9T_J_OFF, D9T_J_ALLOC, D9T_J_SPANS,
	D9T_J_TASKS, D9T_J_POIS, D9T_J_KINDS,
	D9T_J_COUNT = 2 * D9T_J_KINDS };
#define D9T_J_BASE(k)	((enum d9t_job)((k) + D9T_J_KINDS))

/* A request: the model's query (query.h: window, task and location
 * filters; flags D9M_Q_INPOLL for the off-CPU tree, D9M_Q_COUNT and
 * D9M_Q_LIVE for the allocation tree, D9M_Q_DUMPS for the off-CPU tree's
 * task dumps, D9M_Q_INVERT for every tree; text: the spans' field filter
 * or the frames a tree hides), its kind set by the job, and how many
 * worst polls the analysis lists. */
struct d9t_req {
	struct d9m_query q;
	size_t		 worst;
};

struct d9t_jobs;

struct d9t_jobs *d9t_jobs_new(const struct d9m_model *m,
	    const struct d9m_lanes *ix, const struct d9m_resolver *r, int sync);
void	 d9t_jobs_free(struct d9t_jobs **j);
/* The result of kind k for q, or NULL while it is computed (then *stale,
 * if not NULL, gets the newest result of that kind, maybe NULL). */
void	*d9t_jobs_get(struct d9t_jobs *j, enum d9t_job k,
	    const struct d9t_req *q, void **stale);
/* Which result of kind k d9t_jobs_get gave last (its own or stale): a
 * new one has another number, though it may be at the old one's address
 * (the UI thread's). */
uint64_t d9t_jobs_gen(const struct d9t_jobs *j, enum d9t_job k);
/* Stop taking requests: the worker ends after what it computes now. */
void	 d9t_jobs_stop(struct d9t_jobs *j);
/* Whether a computation is under way (d9t_jobs_free() would wait). */
int	 d9t_jobs_busy(struct d9t_jobs *j);
/* 1 when a result arrived since the last call (the UI redraws). */
int	 d9t_jobs_poll(struct d9t_jobs *j);

#endif
