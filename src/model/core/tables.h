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

/* Every loaded (not derived) table of m with its descriptor. */
struct d9m_tabref {
	void				*tab;
	const struct d9m_tabdesc	*desc;
};
size_t	d9m_model_tables(struct d9m_model *m, struct d9m_tabref *out,
	    size_t max);

#endif
