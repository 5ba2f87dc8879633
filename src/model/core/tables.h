/*
 * tables.h: the descriptor of every column table of struct d9m_model
 * (which columns it has, which one it is sorted by).
 */
#ifndef D9M_TABLES_H
#define D9M_TABLES_H

#include "model/core/model.h"
#include "model/core/table.h"

/* d9m_desc_rt_kept: the runtime events' columns that a finished model
 * keeps for good (model.h, struct d9m_rt). */
extern const struct d9m_tabdesc d9m_desc_rt, d9m_desc_rt_kept,
    d9m_desc_rttags, d9m_desc_taskloc, d9m_desc_parkinfo,
    d9m_desc_wakes, d9m_desc_queue, d9m_desc_tasks, d9m_desc_cpu,
    d9m_desc_dumps, d9m_desc_allocs, d9m_desc_frees, d9m_desc_overflow,
    d9m_desc_spanev, d9m_desc_spanx, d9m_desc_spantags, d9m_desc_metrics,
    d9m_desc_msamples, d9m_desc_custom,
    d9m_desc_symbols, d9m_desc_maps, d9m_desc_clock, d9m_desc_meta,
    d9m_desc_segs, d9m_desc_groups, d9m_desc_wids, d9m_desc_polls,
    d9m_desc_periods, d9m_desc_gaps;

/*
 * The one registry of the model's column tables, in the order an image
 * (src/store/image_walk.c) lists them: X(member of struct d9m_model, its
 * descriptor, the descriptor of what a finished model keeps of it, or
 * NULL when it keeps none of it: model.h). Loaded tables come from the
 * trace; derived ones from d9m_model_finish. A new table is one line
 * here (and its struct in model.h, its descriptor in tables.c).
 */
#define D9M_LOADED_TABLES(X) \
	X(rt, &d9m_desc_rt, &d9m_desc_rt_kept) \
	X(rttags, &d9m_desc_rttags, NULL) \
	X(taskloc, &d9m_desc_taskloc, NULL) \
	X(parkinfo, &d9m_desc_parkinfo, NULL) \
	X(wakes, &d9m_desc_wakes, &d9m_desc_wakes) \
	X(queue, &d9m_desc_queue, &d9m_desc_queue) \
	X(tasks, &d9m_desc_tasks, &d9m_desc_tasks) \
	X(cpu, &d9m_desc_cpu, &d9m_desc_cpu) \
	X(dumps, &d9m_desc_dumps, &d9m_desc_dumps) \
	X(allocs, &d9m_desc_allocs, &d9m_desc_allocs) \
	X(frees, &d9m_desc_frees, &d9m_desc_frees) \
	X(overflow, &d9m_desc_overflow, &d9m_desc_overflow) \
	X(spanev, &d9m_desc_spanev, &d9m_desc_spanev) \
	X(spanx, &d9m_desc_spanx, &d9m_desc_spanx) \
	X(spantags, &d9m_desc_spantags, &d9m_desc_spantags) \
	X(custom, &d9m_desc_custom, &d9m_desc_custom) \
	X(metrics, &d9m_desc_metrics, &d9m_desc_metrics) \
	X(msamples, &d9m_desc_msamples, &d9m_desc_msamples) \
	X(symbols, &d9m_desc_symbols, &d9m_desc_symbols) \
	X(maps, &d9m_desc_maps, &d9m_desc_maps) \
	X(clock, &d9m_desc_clock, &d9m_desc_clock) \
	X(meta, &d9m_desc_meta, &d9m_desc_meta) \
	X(segs, &d9m_desc_segs, &d9m_desc_segs) \
	X(groups, &d9m_desc_groups, &d9m_desc_groups) \
	X(wids, &d9m_desc_wids, &d9m_desc_wids)
#define D9M_DERIVED_TABLES(X) \
	X(polls, &d9m_desc_polls, &d9m_desc_polls) \
	X(parks, &d9m_desc_periods, &d9m_desc_periods) \
	X(actives, &d9m_desc_periods, &d9m_desc_periods) \
	X(gaps, &d9m_desc_gaps, &d9m_desc_gaps)

#define D9M_TABLE_ONE(member, desc, kept)	+ 1
enum {
	D9M_NLOADED = 0 D9M_LOADED_TABLES(D9M_TABLE_ONE),
	/* room for every table: struct d9m_tabref t[D9M_NTABLES] */
	D9M_NTABLES = D9M_NLOADED + 0 D9M_DERIVED_TABLES(D9M_TABLE_ONE)
};

/* A table of m with its descriptor. */
struct d9m_tabref {
	void				*tab;
	const struct d9m_tabdesc	*desc;
};
/* Every loaded (not derived) table of m (D9M_NLOADED of them). */
size_t	d9m_model_tables(struct d9m_model *m,
	    struct d9m_tabref out[D9M_NTABLES]);
/* Every table a finished model keeps, loaded then derived, with the
 * descriptor of what it keeps: what an image holds, in its order. */
size_t	d9m_model_kept_tables(struct d9m_model *m,
	    struct d9m_tabref out[D9M_NTABLES]);

#endif
