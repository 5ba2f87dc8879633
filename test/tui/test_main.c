/*
 * test_main.c: the browser's Check suites. CK_FORK=no for a debugger,
 * CK_RUN_SUITE=views (say) for one suite.
 */
#include <stdlib.h>

#include "fixture.h"

int
main(void)
{
	SRunner *sr = srunner_create(suite_canvas());
	int failed;

	srunner_add_suite(sr, suite_keys());
	srunner_add_suite(sr, suite_views());
	srunner_add_suite(sr, suite_window());
	srunner_add_suite(sr, suite_partial());
	srunner_add_suite(sr, suite_engine());
	srunner_add_suite(sr, suite_baseline());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
