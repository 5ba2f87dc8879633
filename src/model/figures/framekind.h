/*
 * framekind.h: what kind of code a frame is (ANALYSIS 8.3): the kernel,
 * libc, an allocator, the runtime and standard library, or the
 * application. The report's stack diagnosis and the poll verdicts
 * (verdict.h) name the first application frame of a stack.
 */
#ifndef D9M_FRAMEKIND_H
#define D9M_FRAMEKIND_H

#include "model/core/frames.h"

enum d9m_frame_kind { D9M_FK_UNKNOWN, D9M_FK_KERNEL, D9M_FK_LIBC,
    D9M_FK_ALLOCATOR, D9M_FK_RUNTIME, D9M_FK_APP };

enum d9m_frame_kind d9m_frame_kind(const struct d9m_frame *f);
/* Whether a kernel frame name is scheduler or system-call plumbing,
 * which says nothing of why a thread waited (8.3). */
int	d9m_is_plumbing(const char *name);
/* Whether s starts with one of the NULL-ended list (none empty). */
int	d9m_name_starts(const char *s, const char *const *list);

#endif
