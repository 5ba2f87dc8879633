/*
 * observer.c: see observer.h. Each distinct (stack, segment) of the
 * window's samples (twin segments as one) is resolved once; what it
 * says (the recorder's frame in it, or none) is kept by key in a map.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/vec.h"
#include "model/core/twins.h"
#include "model/figures/analysis.h"
#include "model/figures/observer.h"
#include "model/queries/samples.h"
#include "model/queries/window.h"

int
d9m_is_recorder_frame(const char *name)
{
	static const char *const parts[] = { "dial9_tokio_telemetry::",
		"dial9::", "dial9_trace_format::", "perf_self_profile::",
		"memory_profiling::hook::" };
	/* dial9's futures that wrap every task's poll, and its global
	 * allocator that every allocation passes through: the program's
	 * code runs under them, the recorder's own (the hooks) is named */
	static const char *const wrappers[] = { "::traced::TracedFuture",
		"::traced::WakeTraced", "::task_dumped::TaskDumped",
		"memory_profiling::allocator::Dial9Allocator" };

	/* libd9rec's functions and hooks (d9rec_alloc_hook); not the
	 * malloc, __rust_alloc and the like an allocation passes through,
	 * whose samples are the allocator's work for the program */
	if (name == NULL)
		return 0;
	if (strncmp(name, "d9rec_", 6) == 0)
		return 1;
	for (size_t i = 0; i < sizeof wrappers / sizeof wrappers[0]; i++)
		if (strstr(name, wrappers[i]) != NULL)
			return 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(name, parts[i]) != NULL)
			return 1;
	return 0;
}

long
d9m_recorder_frame(const struct d9m_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d9m_is_recorder_frame(f[i].name))
			return (long)i;
	return -1;
}

/* What a distinct stack says: the recorder's frame name (a string of
 * the model or the resolver), or NULL. */
struct said {
	const char	*frame;
};

/* d9m_recorder_frame with what each name is remembered by its pointer
 * (names are interned: a frame's name recurs in thousands of stacks) */
static long
recorder_frame_memo(struct d9_hmap *memo, const struct d9m_frame *f,
    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t key = (uint64_t)(uintptr_t)f[i].name;
		uint32_t is = d9_hmap_get(memo, key);

		if (is == D9_NONE) {
			is = (uint32_t)d9m_is_recorder_frame(f[i].name);
			if (d9_hmap_put(memo, key, is) < 0)
				return -2;
		}
		if (is)
			return (long)i;
	}
	return -1;
}

struct tally {
	const char	*frame;
	size_t		 n;
};

/* Count one recorder sample under frame (few distinct frames). */
static int
tally(struct tally **t, size_t *n, size_t *cap, const char *frame)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*t)[i].frame, frame) == 0) {
			(*t)[i].n++;
			return 0;
		}
	if (d9_grow(t, cap, *n + 1, sizeof **t) < 0)
		return -1;
	(*t)[(*n)++] = (struct tally){ frame, 1 };
	return 0;
}

int
d9m_an_observer(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct d9m_observer *ob = &a->observer;
	struct d9m_frame *f = malloc(D9M_OBS_FRAMES * sizeof *f);
	struct said *said = NULL;
	struct tally *top = NULL;
	size_t nsaid = 0, capsaid = 0, ntop = 0, captop = 0, i0, i1;
	size_t on = 0, off = 0;
	struct d9_hmap seen, names;
	struct d9m_fmemo memo;
	int rc = -1;

	d9m_fmemo_init(&memo);
	d9_hmap_init(&seen);
	d9_hmap_init(&names);
	if (f == NULL)
		goto out;
	d9m_window_rows(m->cpu.ts, m->cpu.n, &o->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		enum d9m_cpu_class c = d9m_cpu_class(m, i);
		uint64_t key = (uint64_t)m->cpu.stack[i] << 32 |
		    d9m_twin_of(m, m->cpu.seg[i]);
		uint32_t row;

		if (c == D9M_OTHER_CPU)
			continue;
		on += c == D9M_ON_CPU;
		off += c == D9M_OFF_CPU;
		if ((row = d9_hmap_get(&seen, key)) == D9_NONE) {
			size_t n = d9m_stack_frames_memo(m, o->resolver,
			    &memo, m->cpu.seg[i], m->cpu.stack[i], f,
			    D9M_OBS_FRAMES);
			long k = recorder_frame_memo(&names, f, n);

			if (k < -1 || d9_grow(&said, &capsaid, nsaid + 1,
			    sizeof *said) < 0 || d9_hmap_put(&seen, key,
			    (uint32_t)nsaid) < 0)
				goto out;
			said[nsaid].frame = k >= 0 ? d9m_frame_name(&f[k]) :
			    NULL;
			row = (uint32_t)nsaid++;
		}
		if (said[row].frame == NULL)
			continue;
		if (c == D9M_ON_CPU)
			ob->cpu_samples++;
		else
			ob->off_cpu_samples++;
		if (tally(&top, &ntop, &captop, said[row].frame) < 0)
			goto out;
	}
	ob->cpu_share = on ? (double)ob->cpu_samples / (double)on : 0;
	ob->off_cpu_share = off ? (double)ob->off_cpu_samples / (double)off :
	    0;
	for (size_t k = 0; k < ntop; k++)
		if (top[k].n > ob->top_n || (top[k].n == ob->top_n &&
		    strcmp(top[k].frame, ob->top_frame) < 0)) {
			snprintf(ob->top_frame, sizeof ob->top_frame, "%s",
			    top[k].frame);
			ob->top_n = top[k].n;
		}
	rc = 0;
out:
	d9m_fmemo_free(&memo);
	d9_hmap_free(&seen);
	d9_hmap_free(&names);
	free(said);
	free(top);
	free(f);
	return rc;
}
