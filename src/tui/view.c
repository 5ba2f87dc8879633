/*
 * view.c: the one list of views, in enum d9t_view order (keys.h).
 */
#include "tui/view.h"

static const struct d9t_view_ops *const views[D9T_V_COUNT] = {
	[D9T_V_TIMELINE] = &d9t_view_timeline,
	[D9T_V_TASKS] = &d9t_view_tasks,
	[D9T_V_CPU] = &d9t_view_cpu,
	[D9T_V_OFFCPU] = &d9t_view_offcpu,
	[D9T_V_ALLOC] = &d9t_view_alloc,
	[D9T_V_SPANS] = &d9t_view_spans,
	[D9T_V_REPORT] = &d9t_view_report,
	[D9T_V_EVENTS] = &d9t_view_events,
	[D9T_V_DETAIL] = &d9t_view_detail,
	[D9T_V_CHAIN] = &d9t_view_chain,
	[D9T_V_HELP] = &d9t_view_help,
	[D9T_V_SLOW] = &d9t_view_slow,
	[D9T_V_POI] = &d9t_view_poi,
	[D9T_V_LOCTASKS] = &d9t_view_loc_tasks,
	[D9T_V_TASK] = &d9t_view_task,
};

const struct d9t_view_ops *const *
d9t_views(void)
{
	return views;
}
