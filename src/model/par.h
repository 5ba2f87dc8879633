/*
 * par.h: independent jobs shared by two threads (the caller's and one
 * more), each taking the next job not yet taken, so list the longest
 * first. The jobs must not write what another job reads or writes.
 */
#ifndef D9M_PAR_H
#define D9M_PAR_H

#include <stddef.h>

struct d9m_job {
	int	(*run)(void *arg);	/* 0, or -1 when it failed */
	void	*arg;
};

/* Run jobs[0 .. n) and wait for them all: 0, or -1 when one failed. On
 * the caller's thread alone when no thread can be started. */
int	d9m_par_run(const struct d9m_job *jobs, size_t n);

#endif
