/*
 * stackcap.h: how deep a stack d9top keeps: one limit for the reader and
 * for every walk of a stack's frames. The reader keeps the D9_STACK_MAX
 * innermost frames of a deeper stack (parse/stream.c) and puts in the
 * last of them a marker that says how many it cut; the model shows the
 * marker as the root frame "[... N frames cut]", and marks a cut of its
 * own the same way (inline levels can make more frames than addresses,
 * model/core/frames.h).
 */
#ifndef D9_STACKCAP_H
#define D9_STACKCAP_H

#include <stdint.h>

#define D9_STACK_MAX		8192u

/* The marker: the tag in the top 16 bits (no machine's return address:
 * not canonical on x86-64 or arm64, top bit clear so that it is no
 * kernel address either), the frames cut below. */
#define D9_STACK_CUT_TAG	0x59c7000000000000ull
#define D9_STACK_CUT_MASK	0xffff000000000000ull

static inline uint64_t
d9_stack_cut(uint64_t frames_cut)
{
	return D9_STACK_CUT_TAG | (frames_cut & ~D9_STACK_CUT_MASK);
}

/* Whether addr is the marker; *cut: the frames it stands for. */
static inline int
d9_stack_is_cut(uint64_t addr, uint64_t *cut)
{
	if ((addr & D9_STACK_CUT_MASK) != D9_STACK_CUT_TAG)
		return 0;
	*cut = addr & ~D9_STACK_CUT_MASK;
	return 1;
}

#endif
