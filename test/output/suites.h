/* suites.h: the suites of test-output (test/output: src/output). */
#ifndef D9_OUTPUT_SUITES_H
#define D9_OUTPUT_SUITES_H

#include <check.h>

Suite	*lines_suite(void);
Suite	*textfmt_suite(void);

#endif
