/*
 * skip.h: a Check test that cannot run (a tool, a test program or a
 * trace is missing) says why with t_skip() and returns: it is counted as
 * skipped, never as passed. The runner's main calls t_skip_init() before
 * running and ends with t_exit_status(): 1 when a test failed, else 77
 * (meson's "skipped") when a test was skipped, else 0.
 *
 * Tests run in forked children (unless CK_FORK=no), so skips are lines
 * appended to a scratch file whose path t_skip_init() puts in the
 * environment (D9_TEST_SKIPS).
 */
#ifndef D9_TEST_SKIP_H
#define D9_TEST_SKIP_H

#include <check.h>

void	t_skip_init(void);
/* Before running: exit 77 unless the three shared traces can be read in
 * $D9_TRACES (or, when it is unset, in fallback, NULL for none), for
 * programs whose every suite reads them. */
void	t_need_traces(const char *fallback);
void	t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int	t_exit_status(SRunner *sr);

#endif
