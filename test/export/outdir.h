/*
 * outdir.h: the export tests of OUTDIR itself (test_outdir.c): one run at
 * a time, and only into a directory that is the user's alone.
 */
#ifndef D9X_TEST_OUTDIR_H
#define D9X_TEST_OUTDIR_H

#include <check.h>
#include <stddef.h>

/* Files in dir (no subfolders), dot files left out. */
size_t	files_in(const char *dir);
/* Add the tests of OUTDIR to tc (they read $D9_TRACES). */
void	outdir_tests(TCase *tc);

#endif
