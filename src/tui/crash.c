/*
 * crash.c: see crash.h. Every signal whose default action ends the
 * process is listed here, next to the terminal's setup and teardown
 * (htop's CRT_installSignalHandlers): the faults, and the "quit" signals
 * the browser's loop blocks and waits for, so that they end it like q.
 *
 * A signal handler gets no argument of ours, so the saved state is the
 * one file-scope variable of the program (htop's CRT_handleSIGSEGV does
 * the same). The handler only calls async-signal-safe functions: write,
 * tcsetattr, sigaction, raise.
 */
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tui/crash.h"
#include "tui/tui.h"

/* Faults: they cannot wait for the loop. */
static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
    SIGTRAP, SIGSYS };
/* The others that end a process by default (real-time signals too). */
static const int quits[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE,
    SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};
#define NFAULTS	(sizeof faults / sizeof faults[0])
#define NQUITS	(sizeof quits / sizeof quits[0])

static struct {
	int			 fd;
	int			 have_tio;
	struct termios		 tio;
	struct sigaction	 old[NSIG];
	int			 armed;
} crash;

/* The i-th signal that ends a process by default; 0 after the last. */
static int
ending(size_t i, int with_faults)
{
	if (!with_faults)
		i += NFAULTS;
	if (i < NFAULTS)
		return faults[i];
	if (i < NFAULTS + NQUITS)
		return quits[i - NFAULTS];
	i -= NFAULTS + NQUITS;
	return SIGRTMIN + (int)i <= SIGRTMAX ? SIGRTMIN + (int)i : 0;
}

static void
on_fatal(int sig)
{
	/* cancel a sequence cut in the middle (CAN), then: normal screen,
	 * attributes off, cursor on, no mouse reports, keypad in normal
	 * mode */
	static const char reset[] = "\030\033[?1049l\033[0m\033[?25h"
	    "\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?1l\033>\r\n";
	static const char msg[] = "d9top: fatal signal; the terminal was "
	    "restored\n";
	ssize_t r;

	r = write(crash.fd, reset, sizeof reset - 1);
	if (crash.have_tio)
		tcsetattr(crash.fd, TCSANOW, &crash.tio);
	r = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)r;
	d9t_crash_disarm();
	/* whatever was there before, the signal now ends the process */
	signal(sig, SIG_DFL);
	raise(sig);
}

void
d9t_crash_arm(int fd)
{
	struct sigaction sa;
	int sig;

	if (crash.armed)
		return;
	crash.fd = fd;
	crash.have_tio = tcgetattr(fd, &crash.tio) == 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; (sig = ending(i, 1)) != 0; i++)
		sigaction(sig, &sa, &crash.old[sig]);
	crash.armed = 1;
}

void
d9t_crash_disarm(void)
{
	int sig;

	if (!crash.armed)
		return;
	crash.armed = 0;
	for (size_t i = 0; (sig = ending(i, 1)) != 0; i++)
		sigaction(sig, &crash.old[sig], NULL);
}

void
d9t_crash_quit_set(sigset_t *set)
{
	int sig;

	sigemptyset(set);
	for (size_t i = 0; (sig = ending(i, 0)) != 0; i++)
		sigaddset(set, sig);
}

void
d9t_exit_signal(int status)
{
	sigset_t one;
	int sig = status - 128;

	if (sig <= 0 || sig >= NSIG)
		return;
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}
