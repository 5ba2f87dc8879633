/*
 * rmtree.h: removing a test's scratch directory with everything under
 * it (files and directories alike, links not followed), so that a suite
 * leaves nothing behind in /tmp.
 */
#ifndef D9_TEST_RMTREE_H
#define D9_TEST_RMTREE_H

/* 0, or -1 when something under path could not be removed. */
int	t_rmtree(const char *path);

#endif
