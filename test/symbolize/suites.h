/* suites.h: the Check suites of test-symbolize (test_main.c runs them). */
#ifndef D9S_SUITES_H
#define D9S_SUITES_H

#include <check.h>

Suite	*suite_compare(void);
Suite	*suite_unit(void);
Suite	*suite_files(void);
Suite	*suite_isolate(void);
Suite	*suite_resolve(void);
Suite	*suite_demo(void);
Suite	*suite_rust(void);		/* test_compare.c */
TCase	*tcase_files_rust(void);	/* test_files.c, in suite_rust */
TCase	*tcase_files_plt(void);		/* test_plt.c, in suite_files */

#endif
