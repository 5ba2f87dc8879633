/*
 * observer.h: the observer effect (ANALYSIS 21). A recorder that samples
 * stacks can be the cause it reports: a sample is the recorder's when a
 * frame of its stack is (dial9's crates, its allocation hooks, libd9rec's
 * d9rec_ functions: its malloc shim's work is d9rec_alloc_hook), other
 * than the futures dial9 wraps every task's poll in and dial9's global
 * allocator, which every allocation passes through (the program's code
 * runs under them; a malloc, __rust_alloc or the like is the
 * allocator's work for the program, never the recorder's). The analysis counts them, on and
 * off CPU, their shares of the window's samples and the recorder frame
 * most of them are in; the verdicts say when a poll's samples are
 * mostly the recorder's.
 */
#ifndef D9M_OBSERVER_H
#define D9M_OBSERVER_H

#include <stddef.h>

#include "model/core/frames.h"

struct d9m_model;
struct d9m_analysis;
struct d9m_analysis_opts;

/* Whether a frame name is the recorder's own code (not a wrapper). */
int	d9m_is_recorder_frame(const char *name);
/* The first (leafmost) of the n frames that is the recorder's, or -1. */
long	d9m_recorder_frame(const struct d9m_frame *f, size_t n);
/* a->observer over the window. 0, or -1 when out of memory. */
int	d9m_an_observer(const struct d9m_model *m,
	    const struct d9m_analysis_opts *o, struct d9m_analysis *a);

#endif
