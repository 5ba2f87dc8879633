/*
 * crash.h: the signals that end d9top, beside the terminal. While the
 * browser owns the terminal, the "quit" signals (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT and Ctrl-\, SIGPIPE, SIGUSR1, SIGALRM, SIGXCPU, ..., every
 * signal whose default action ends a process but the faults) are blocked
 * and taken by the loop, which closes the terminal and then ends the
 * process by the same signal. A fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT, SIGTRAP, SIGSYS), or any of the others should it arrive
 * unblocked, is caught here instead: out of the alternate screen, cursor
 * shown, mouse reporting off, the terminal modes saved before curses
 * started. Then the signal is raised again, so the exit status and a
 * core dump are what they would be.
 */
#ifndef D9T_CRASH_H
#define D9T_CRASH_H

#include <signal.h>

/* Save fd's terminal modes and catch every signal that ends d9top. */
void	d9t_crash_arm(int fd);
/* Leave those signals to their previous handlers. */
void	d9t_crash_disarm(void);
/* The quit signals, for the loop to block and wait for. */
void	d9t_crash_quit_set(sigset_t *set);

#endif
