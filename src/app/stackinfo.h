/*
 * stackinfo.h: one-line diagnosis of a grouped stack for the report:
 * where it blocked (first kernel frame that is not scheduler plumbing),
 * through which system call wrapper, and the first application frame
 * (ANALYSIS 8.3, with kernel frames told by address, 15 #11).
 */
#ifndef D9A_STACKINFO_H
#define D9A_STACKINFO_H

#include "app/output.h"

enum d9a_frame_kind { D9A_FK_UNKNOWN, D9A_FK_KERNEL, D9A_FK_LIBC,
    D9A_FK_ALLOCATOR, D9A_FK_RUNTIME, D9A_FK_APP };

enum d9a_frame_kind d9a_frame_kind(const struct d9m_frame *f);
void	d9a_stack_line(const struct d9a_out *o, const char *label,
	    const struct d9m_stack_group *g, int indent);

#endif
