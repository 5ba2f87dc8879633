/*
 * runs.h: the export tests of runs that meet each other in one OUTDIR
 * (test_runs.c): a file of many segments after its first one alone,
 * and a run stopped between segments, then ended by the next.
 */
#ifndef D9X_TEST_RUNS_H
#define D9X_TEST_RUNS_H

#include <check.h>

/* Add them to tc (they read $D9_TRACES). */
void	runs_tests(TCase *tc);

#endif
