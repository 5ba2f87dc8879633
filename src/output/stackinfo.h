/*
 * stackinfo.h: one-line diagnosis of a grouped stack for the report:
 * where it blocked (first kernel frame that is not scheduler plumbing),
 * through which system call wrapper, and the first application frame
 * (ANALYSIS 8.3, with kernel frames told by address, 15 #11).
 */
#ifndef D9O_STACKINFO_H
#define D9O_STACKINFO_H

#include "output/output.h"

void	d9o_stack_line(const struct d9o_out *o, const char *label,
	    const struct d9m_stack_group *g, int indent);

#endif
