/*
 * stackinfo.h: one-line diagnosis of a grouped stack for the report:
 * where it blocked (first kernel frame that is not scheduler plumbing),
 * through which system call wrapper, and the first application frame
 * (ANALYSIS 8.3, with kernel frames told by address, 15 #11).
 */
#ifndef D9O_STACKINFO_H
#define D9O_STACKINFO_H

#include "output/output.h"

enum d9o_frame_kind { D9O_FK_UNKNOWN, D9O_FK_KERNEL, D9O_FK_LIBC,
    D9O_FK_ALLOCATOR, D9O_FK_RUNTIME, D9O_FK_APP };

enum d9o_frame_kind d9o_frame_kind(const struct d9m_frame *f);
void	d9o_stack_line(const struct d9o_out *o, const char *label,
	    const struct d9m_stack_group *g, int indent);

#endif
