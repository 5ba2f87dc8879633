/*
 * crash.h: the terminal back to normal when d9top dies of a fault
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) while the browser owns it:
 * out of the alternate screen, cursor shown, mouse reporting off, the
 * terminal modes saved before curses started. Then the signal is raised
 * again, so the exit status and a core dump are what they would be.
 */
#ifndef D9T_CRASH_H
#define D9T_CRASH_H

/* Save fd's terminal modes and catch the fatal signals. */
void	d9t_crash_arm(int fd);
/* Leave the fatal signals to their previous handlers. */
void	d9t_crash_disarm(void);

#endif
