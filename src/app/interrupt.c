/*
 * interrupt.c: see interrupt.h. Every thread has the signals blocked;
 * the waiting one takes them with sigwait, so no handler runs and
 * nothing is shared with one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/interrupt.h"
#include "base/io.h"

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

void
d9a_interrupt_die(int sig)
{
	sigset_t one;

	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);	/* not reached: the default action ends it */
}

static void *
waiter(void *arg)
{
	struct d9a_interrupt *in = arg;
	struct timespec grace = { D9A_INTERRUPT_GRACE, 0 };
	char msg[256];
	int sig, n;

	while (sigwait(&in->set, &sig) != 0)
		continue;
	atomic_store(&in->sig, sig);
	n = snprintf(msg, sizeof msg, "d9top: %s interrupted (SIG%s): "
	    "stopping at the end of the segment being read, removing what is "
	    "half written (the signal again: at once)\n", in->what,
	    sigabbrev_np(sig) != NULL ? sigabbrev_np(sig) : "?");
	if (n > 0)	/* one write, not mixed with the progress */
		(void)d9_write_all(STDERR_FILENO, msg, (size_t)n < sizeof msg ?
		    (size_t)n : sizeof msg - 1);
	/* again, or the work not over in time: at once */
	(void)sigtimedwait(&in->set, NULL, &grace);
	d9a_interrupt_die(sig);
}

void
d9a_interrupt_start(struct d9a_interrupt *in, const char *what)
{
	memset(in, 0, sizeof *in);
	in->what = what;
	sigemptyset(&in->set);
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
		struct sigaction sa;

		if (sigaction(caught[i], NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_IGN)
			sigaddset(&in->set, caught[i]);
	}
	/* all ignored: nothing to wait for */
	if (sigisemptyset(&in->set) ||
	    pthread_sigmask(SIG_BLOCK, &in->set, &in->old) != 0)
		return;
	if (pthread_create(&in->thread, NULL, waiter, in) != 0) {
		pthread_sigmask(SIG_SETMASK, &in->old, NULL);
		return;
	}
	in->running = 1;
}

const _Atomic int *
d9a_interrupt_flag(struct d9a_interrupt *in)
{
	return &in->sig;
}

int
d9a_interrupt_end(struct d9a_interrupt *in)
{
	int sig;

	if (!in->running)
		return 0;
	pthread_cancel(in->thread);	/* sigwait and sigtimedwait are
					 * cancellation points */
	pthread_join(in->thread, NULL);
	in->running = 0;
	if ((sig = atomic_load(&in->sig)) == 0)
		pthread_sigmask(SIG_SETMASK, &in->old, NULL);
	return sig;
}
