/* suites.h: the suites of test-base (test/base: src/base). */
#ifndef D9_BASE_SUITES_H
#define D9_BASE_SUITES_H

#include <check.h>

Suite	*base_suite(void);
Suite	*avail_suite(void);

#endif
