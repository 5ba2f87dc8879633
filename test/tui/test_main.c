/*
 * test_main.c: the browser's Check suites. CK_FORK=no for a debugger,
 * CK_RUN_SUITE=views (say) for one suite. Skipped (77) without the
 * shared traces, which most suites read.
 */
#include <stdlib.h>

#include "../skip.h"
#include "fixture.h"

int
main(void)
{
	SRunner *sr;
	int status;

	t_need_traces(NULL);
	sr = srunner_create(suite_canvas());

	srunner_add_suite(sr, suite_keys());
	srunner_add_suite(sr, suite_views());
	srunner_add_suite(sr, suite_window());
	srunner_add_suite(sr, suite_partial());
	srunner_add_suite(sr, suite_engine());
	srunner_add_suite(sr, suite_baseline());
	srunner_add_suite(sr, suite_events());
	srunner_add_suite(sr, suite_dial95());
	srunner_add_suite(sr, suite_consistency());
	srunner_add_suite(sr, suite_fit());
	srunner_add_suite(sr, suite_why());
	t_skip_init();
	srunner_run_all(sr, CK_ENV);
	status = t_exit_status(sr);
	srunner_free(sr);
	return status;
}
