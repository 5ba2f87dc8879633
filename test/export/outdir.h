/*
 * outdir.h: the export tests of OUTDIR itself (test_outdir.c): one run at
 * a time, and only into a directory that is the user's alone; and what
 * the export tests share to look at an OUTDIR.
 */
#ifndef D9X_TEST_OUTDIR_H
#define D9X_TEST_OUTDIR_H

#include <check.h>
#include <stddef.h>

/* Files in dir (no subfolders), dot files left out. */
size_t	files_in(const char *dir);
/* Every file under a is under b with the same bytes, but hidden ones
 * (.lock, .cut, .whole, a .tmp) and, when loose is set, those whose path
 * holds it, which need only be there (the segments table names the
 * input each segment was read from): how many. */
size_t	same_tree(const char *a, const char *b, const char *loose);
/* Add the tests of OUTDIR to tc (they read $D9_TRACES). */
void	outdir_tests(TCase *tc);

#endif
