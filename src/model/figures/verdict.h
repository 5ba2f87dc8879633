/*
 * verdict.h: why a poll was slow (ANALYSIS 17). Every CPU sample inside
 * the poll is classified: on CPU, preempted (CPU contention), waiting on
 * a lock, sleeping, waiting for I/O, in a page fault, or blocked some
 * other way; the poll's verdict is the class with the most samples (ties
 * in that order), or cpu where the trace states its rate and at least
 * half the on-CPU samples due came (off-CPU samples count switches, not
 * time: many short preemptions of a poll on CPU all along are not why it
 * was slow), with its share, the reason most of its samples name
 * (the frame that decided their class) and the hottest application frame
 * among them. A poll without samples is "unknown".
 */
#ifndef D9M_VERDICT_H
#define D9M_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "model/core/frames.h"
#include "model/core/model.h"

enum d9m_vclass {
	D9M_V_CPU, D9M_V_PREEMPTED, D9M_V_LOCK, D9M_V_SLEEP, D9M_V_IO,
	D9M_V_FAULT, D9M_V_BLOCKED, D9M_V_UNKNOWN,
	D9M_V_OFF_CPU,		/* no on-CPU sample where the rate says about
				 * `expected` would have come (17.1) */
	D9M_V_COUNT
};

/* How much a verdict rests on (ANALYSIS 17.1). */
enum d9m_confidence { D9M_CONF_LOW, D9M_CONF_MEDIUM, D9M_CONF_HIGH };

struct d9m_verdict {
	enum d9m_vclass	 kind;
	size_t		 samples, of;	/* the class's samples, the poll's */
	const char	*why;		/* "futex", "read", "page fault"...;
					 * static, or NULL */
	char		 where[256];	/* hottest application frame, "" */
	size_t		 where_n;	/* samples under it */
	int		 unsampled;	/* no sample, and switches were not
					 * sampled then (d9m_sched_off) */
	double		 expected;	/* on-CPU samples the poll would carry
					 * on CPU all along; < 0: the trace
					 * states no rate */
	enum d9m_vclass	 off_kind;	/* off-cpu: its off-CPU samples'
					 * class, D9M_V_UNKNOWN: none */
	enum d9m_confidence confidence;
	int		 recorder;	/* most of the class's samples are in
					 * the recorder's frames (ANALYSIS 21) */
};

/* "cpu", "lock", ... as JSON names them. */
const char	*d9m_vclass_name(enum d9m_vclass c);
/* "low", "medium", "high". */
const char	*d9m_confidence_name(enum d9m_confidence c);
struct d9m_vmemo;
/* Class of CPU sample row i (names through r and the memo k, its frames
 * into k->f); *why: what decided it. */
enum d9m_vclass	 d9m_sample_class(const struct d9m_model *m,
		    const struct d9m_resolver *r, struct d9m_vmemo *k,
		    size_t i, const char **why);
/* Class of a stack of the off-CPU kind, by its frames (leaf first); the
 * same through k, whose memo of names holds what each frame name's
 * address says (the names must stay where they are while k lives: the
 * model's and the resolver's do). */
enum d9m_vclass	 d9m_stack_class(const struct d9m_frame *f, size_t n,
		    const char **why);
enum d9m_vclass	 d9m_stack_class_memo(struct d9m_vmemo *k,
		    const struct d9m_frame *f, size_t n, const char **why);
/* Whether a class is a poll blocking its worker (lock, sleep, io, fault,
 * blocked; not cpu, not preemption). */
int		 d9m_vclass_blocks(enum d9m_vclass c);
/* The verdict of poll p. */
int		 d9m_poll_verdict(const struct d9m_model *m,
		    const struct d9m_resolver *r, uint32_t p,
		    struct d9m_verdict *v);
/* The kind alone of many polls' verdicts (an export's): each distinct
 * off-CPU (segment, stack) classified once for all of them. */
struct d9m_vmemo {
	struct d9_hmap		 cls;	/* (stack << 32 | segment) -> class */
	struct d9_hmap		 names;	/* a name's address -> the patterns
					 * it matches (verdict.c) */
	struct d9m_fmemo	 fm;	/* each address's frames */
	struct d9m_frame	*f;
};
int		 d9m_vmemo_init(struct d9m_vmemo *k);	/* 0 or -1 */
void		 d9m_vmemo_free(struct d9m_vmemo *k);
/* d9m_poll_verdict(m, r, p).kind into *kind: 0, or -1 (out of memory). */
int		 d9m_poll_kind(const struct d9m_model *m,
		    const struct d9m_resolver *r, uint32_t p,
		    struct d9m_vmemo *k, enum d9m_vclass *kind);
/* The stack most of poll p's samples share: count of of them, its leaf
 * and its first application frame ("" when none, or when the leaf is
 * it). 0 (count 0: no sample), or -1 when out of memory. */
struct d9m_top_stack {
	size_t		 count, of;
	char		 leaf[160], app[160];
};
int		 d9m_poll_top_stack(const struct d9m_model *m,
		    const struct d9m_resolver *r, uint32_t p,
		    struct d9m_top_stack *t);
/* One line: "lock: 12 of 14 samples waiting in futex, under f". */
void		 d9m_verdict_text(const struct d9m_verdict *v, char *out,
		    size_t cap);

#endif
