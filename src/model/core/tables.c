/* tables.c: column lists of the model's tables (see table.h). */
#include "model/core/tables.h"

#define TAB(var, T, sorted, ...) \
	static const struct d9m_col var##_cols[] = { __VA_ARGS__ }; \
	const struct d9m_tabdesc var = { #T, var##_cols, \
	    sizeof var##_cols / sizeof var##_cols[0], sorted }
#define C(T, f) D9M_COL(struct T, f)
#define BY(T, f) offsetof(struct T, f)
#define UNSORTED SIZE_MAX

TAB(d9m_desc_rt, d9m_rt, BY(d9m_rt, ts), C(d9m_rt, ts), C(d9m_rt, tag),
    C(d9m_rt, a));
TAB(d9m_desc_rt_kept, d9m_rt, BY(d9m_rt, ts), C(d9m_rt, ts), C(d9m_rt, lq));
TAB(d9m_desc_rttags, d9m_rttags, UNSORTED, C(d9m_rttags, kind),
    C(d9m_rttags, lq), C(d9m_rttags, worker));
TAB(d9m_desc_taskloc, d9m_taskloc, UNSORTED, C(d9m_taskloc, task),
    C(d9m_taskloc, loc));
TAB(d9m_desc_parkinfo, d9m_parkinfo, UNSORTED, C(d9m_parkinfo, cpu_ns),
    C(d9m_parkinfo, sched_wait), C(d9m_parkinfo, tid));
TAB(d9m_desc_wakes, d9m_wakes, BY(d9m_wakes, ts), C(d9m_wakes, ts),
    C(d9m_wakes, waker), C(d9m_wakes, woken), C(d9m_wakes, worker));
TAB(d9m_desc_queue, d9m_queue, BY(d9m_queue, ts), C(d9m_queue, ts),
    C(d9m_queue, global), C(d9m_queue, runtime), C(d9m_queue, alive));
TAB(d9m_desc_tasks, d9m_tasks, UNSORTED, C(d9m_tasks, id),
    C(d9m_tasks, loc), C(d9m_tasks, spawn_ts), C(d9m_tasks, term_ts),
    C(d9m_tasks, spawn_worker), C(d9m_tasks, flags), C(d9m_tasks, group));
TAB(d9m_desc_cpu, d9m_cpu, BY(d9m_cpu, ts), C(d9m_cpu, ts), C(d9m_cpu, tid),
    C(d9m_cpu, wire_worker), C(d9m_cpu, source), C(d9m_cpu, stack),
    C(d9m_cpu, cpu), C(d9m_cpu, seg));
TAB(d9m_desc_dumps, d9m_dumps, BY(d9m_dumps, ts), C(d9m_dumps, ts),
    C(d9m_dumps, task), C(d9m_dumps, stack), C(d9m_dumps, seg));
TAB(d9m_desc_allocs, d9m_allocs, BY(d9m_allocs, ts), C(d9m_allocs, ts),
    C(d9m_allocs, size), C(d9m_allocs, addr), C(d9m_allocs, tid),
    C(d9m_allocs, stack), C(d9m_allocs, seg));
TAB(d9m_desc_frees, d9m_frees, BY(d9m_frees, ts), C(d9m_frees, ts),
    C(d9m_frees, addr), C(d9m_frees, size), C(d9m_frees, alloc_ts),
    C(d9m_frees, tid));
TAB(d9m_desc_overflow, d9m_overflow, BY(d9m_overflow, ts),
    C(d9m_overflow, ts), C(d9m_overflow, allocs), C(d9m_overflow, frees),
    C(d9m_overflow, seg));
TAB(d9m_desc_spanev, d9m_spanev, BY(d9m_spanev, ts), C(d9m_spanev, ts),
    C(d9m_spanev, tag), C(d9m_spanev, id));
TAB(d9m_desc_spantags, d9m_spantags, UNSORTED, C(d9m_spantags, kind),
    C(d9m_spantags, legacy), C(d9m_spantags, worker), C(d9m_spantags, name),
    C(d9m_spantags, fields));
TAB(d9m_desc_spanx, d9m_spanx, UNSORTED, C(d9m_spanx, inst),
    C(d9m_spanx, tid), C(d9m_spanx, start), C(d9m_spanx, parent));
TAB(d9m_desc_metrics, d9m_metrics, UNSORTED, C(d9m_metrics, name),
    C(d9m_metrics, kind), C(d9m_metrics, unit));
TAB(d9m_desc_msamples, d9m_msamples, BY(d9m_msamples, ts),
    C(d9m_msamples, ts), C(d9m_msamples, metric), C(d9m_msamples, value));
TAB(d9m_desc_custom, d9m_custom, BY(d9m_custom, ts), C(d9m_custom, ts),
    C(d9m_custom, name), C(d9m_custom, fields), C(d9m_custom, seg));
TAB(d9m_desc_symbols, d9m_symbols, UNSORTED, C(d9m_symbols, seg),
    C(d9m_symbols, addr), C(d9m_symbols, depth), C(d9m_symbols, name),
    C(d9m_symbols, file), C(d9m_symbols, line));
TAB(d9m_desc_maps, d9m_maps, UNSORTED, C(d9m_maps, seg), C(d9m_maps, start),
    C(d9m_maps, end), C(d9m_maps, off), C(d9m_maps, path),
    C(d9m_maps, build_id));
TAB(d9m_desc_clock, d9m_clock, BY(d9m_clock, mono), C(d9m_clock, mono),
    C(d9m_clock, real), C(d9m_clock, seg));
TAB(d9m_desc_meta, d9m_meta, UNSORTED, C(d9m_meta, seg), C(d9m_meta, key),
    C(d9m_meta, val));
TAB(d9m_desc_segs, d9m_segs, UNSORTED, C(d9m_segs, input),
    C(d9m_segs, cut), C(d9m_segs, group));
TAB(d9m_desc_groups, d9m_groups, UNSORTED, C(d9m_groups, service),
    C(d9m_groups, host), C(d9m_groups, boot), C(d9m_groups, wall),
    C(d9m_groups, has_wall), C(d9m_groups, shift), C(d9m_groups, aligned),
    C(d9m_groups, first));
TAB(d9m_desc_wids, d9m_wids, UNSORTED, C(d9m_wids, own),
    C(d9m_wids, group));
TAB(d9m_desc_polls, d9m_polls, UNSORTED, C(d9m_polls, start),
    C(d9m_polls, end), C(d9m_polls, task), C(d9m_polls, loc),
    C(d9m_polls, lq), C(d9m_polls, flags));
TAB(d9m_desc_periods, d9m_periods, UNSORTED, C(d9m_periods, start),
    C(d9m_periods, end), C(d9m_periods, worker), C(d9m_periods, sched_wait),
    C(d9m_periods, ratio));
TAB(d9m_desc_gaps, d9m_gaps, UNSORTED, C(d9m_gaps, worker),
    C(d9m_gaps, from_tid), C(d9m_gaps, to_tid), C(d9m_gaps, start),
    C(d9m_gaps, end));

/* The registry's lists are what the buffers of D9M_NTABLES hold: a
 * table added to one list grows the count with it. */
#define REF(member, desc, kept)	{ &m->member, desc },
#define KEPT(member, desc, kept) \
	if ((kept) != NULL) \
		out[n++] = (struct d9m_tabref){ &m->member, kept };

size_t
d9m_model_tables(struct d9m_model *m, struct d9m_tabref out[D9M_NTABLES])
{
	const struct d9m_tabref all[] = { D9M_LOADED_TABLES(REF) };
	size_t n = sizeof all / sizeof all[0];

	_Static_assert(sizeof all / sizeof all[0] == D9M_NLOADED,
	    "one registry of loaded tables");
	for (size_t i = 0; i < n; i++)
		out[i] = all[i];
	return n;
}

size_t
d9m_model_kept_tables(struct d9m_model *m, struct d9m_tabref out[D9M_NTABLES])
{
	size_t n = 0;

	D9M_LOADED_TABLES(KEPT)
	D9M_DERIVED_TABLES(KEPT)
	return n;
}
