/*
 * crash.c: see crash.h. A signal handler gets no argument of ours, so the
 * saved state is the one file-scope variable of the program (htop's
 * CRT_handleSIGSEGV does the same). The handler only calls
 * async-signal-safe functions: write, tcsetattr, sigaction, raise.
 */
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tui/crash.h"

static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NFATAL	(sizeof fatal / sizeof fatal[0])

static struct {
	int			 fd;
	int			 have_tio;
	struct termios		 tio;
	struct sigaction	 old[NFATAL];
	int			 armed;
} crash;

static void
on_fatal(int sig)
{
	/* normal screen, attributes off, cursor on, no mouse reports,
	 * keypad in normal mode */
	static const char reset[] = "\033[?1049l\033[0m\033[?25h\033[?1000l"
	    "\033[?1002l\033[?1003l\033[?1006l\033[?1l\033>\r\n";
	static const char msg[] = "d9top: fatal signal; the terminal was "
	    "restored\n";
	ssize_t r;

	r = write(crash.fd, reset, sizeof reset - 1);
	if (crash.have_tio)
		tcsetattr(crash.fd, TCSANOW, &crash.tio);
	r = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)r;
	d9t_crash_disarm();
	raise(sig);
}

void
d9t_crash_arm(int fd)
{
	struct sigaction sa;

	if (crash.armed)
		return;
	crash.fd = fd;
	crash.have_tio = tcgetattr(fd, &crash.tio) == 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &sa, &crash.old[i]);
	crash.armed = 1;
}

void
d9t_crash_disarm(void)
{
	if (!crash.armed)
		return;
	crash.armed = 0;
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &crash.old[i], NULL);
}
