/*
 * par.h: independent jobs shared by two threads (the caller's and one
 * more), each taking the next job not yet taken, so list the longest
 * first. The jobs must not write what another job reads or writes.
 */
#ifndef D9M_PAR_H
#define D9M_PAR_H

#include <pthread.h>
#include <stddef.h>

struct d9m_job {
	int	(*run)(void *arg);	/* 0, or -1 when it failed */
	void	*arg;
};

/* Run jobs[0 .. n) and wait for them all: 0, or -1 when one failed. On
 * the caller's thread alone when no thread can be started. */
int	d9m_par_run(const struct d9m_job *jobs, size_t n);

/*
 * A gate: one job opens it once (what it made is there, or it failed),
 * a later job of the same d9m_par_run waits for it. The jobs are taken
 * in their order, so the one that opens it has been taken by then (on
 * one thread alone, it has run): list the opener first, and open the
 * gate on every way out of it.
 */
struct d9m_gate {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 state;		/* 0 closed, 1 open, -1 failed */
};

void	d9m_gate_init(struct d9m_gate *g);
void	d9m_gate_destroy(struct d9m_gate *g);
/* Open g with ok (1) or failed (-1); only the first opening counts. */
void	d9m_gate_open(struct d9m_gate *g, int state);
/* Wait until g is open: 0, or -1 when its opener failed. */
int	d9m_gate_wait(struct d9m_gate *g);

#endif
