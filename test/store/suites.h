/* suites.h: the suites of test-store (test/store: src/store; the
 * files of an entry, test_files.c, are a program of their own). */
#ifndef D9_STORE_SUITES_H
#define D9_STORE_SUITES_H

#include <check.h>

Suite	*image_suite(void);

#endif
