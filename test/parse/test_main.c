/*
 * test_main.c: runs every parser suite. CK_FORK=no for a debugger,
 * CK_RUN_SUITE=decoder (say) for one suite.
 */
#include <stdlib.h>

#include "suites.h"

int
main(void)
{
	SRunner *sr = srunner_create(suite_buf());
	int failed;

	srunner_add_suite(sr, suite_pool());
	srunner_add_suite(sr, suite_decoder());
	srunner_add_suite(sr, suite_bad());
	srunner_add_suite(sr, suite_input());
	srunner_add_suite(sr, suite_reader());
	srunner_add_suite(sr, suite_trace());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
