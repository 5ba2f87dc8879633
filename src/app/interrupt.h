/*
 * interrupt.h: ^C (SIGINT), SIGTERM and SIGHUP during work that must not
 * be cut anywhere (--export: a leaf half written, the held leaf of an
 * input read in part). The signals are blocked in every thread and one
 * thread of its own waits for them: the first sets a flag the work looks
 * at (it stops at its next step and tidies up) and says so on stderr;
 * the same signal again, or the work not done a few seconds later (a
 * read blocked on a pipe whose writer hangs), ends the process at once
 * as the signal would have. A signal the process was started ignoring
 * (nohup, a background job) stays ignored.
 */
#ifndef D9A_INTERRUPT_H
#define D9A_INTERRUPT_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#define D9A_INTERRUPT_GRACE	5	/* s from the first signal to the
					 * end at the latest */

struct d9a_interrupt {
	_Atomic int	 sig;		/* the first signal that came,
					 * 0: none */
	sigset_t	 set;		/* the signals waited for */
	sigset_t	 old;		/* the mask before */
	pthread_t	 thread;
	int		 running;
	const char	*what;		/* the work, for the message */
};

/* Block the signals (before any other thread starts: they inherit the
 * mask) and wait for them on a thread of their own; what names the work
 * in the message ("export"). Without a thread they stay as they were. */
void	d9a_interrupt_start(struct d9a_interrupt *in, const char *what);
/* The flag the work looks at (d9x_opts.cancel). */
const _Atomic int *d9a_interrupt_flag(struct d9a_interrupt *in);
/* The work is over: the waiting stops. 0, the mask as before; or the
 * signal that came (it stays blocked: the caller says what was done,
 * then d9a_interrupt_die). */
int	d9a_interrupt_end(struct d9a_interrupt *in);
/* End the process by sig, as its default action does. */
void	d9a_interrupt_die(int sig) __attribute__((noreturn));

#endif
