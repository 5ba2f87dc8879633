/* test_main.c: runs every unit suite; CK_RUN_SUITE picks one. */
#include <check.h>
#include <stdlib.h>

#include "unit.h"

int
main(void)
{
	SRunner *sr = srunner_create(base_suite());
	int failed;

	srunner_add_suite(sr, model_suite());
	srunner_add_suite(sr, analysis_suite());
	srunner_add_suite(sr, window_suite());
	srunner_add_suite(sr, sort_suite());
	srunner_add_suite(sr, engine_suite());
	srunner_add_suite(sr, loss_suite());
	srunner_add_suite(sr, sources_suite());
	srunner_add_suite(sr, events_suite());
	srunner_add_suite(sr, series_suite());
	srunner_add_suite(sr, diff_suite());
	srunner_add_suite(sr, dial95_suite());
	srunner_add_suite(sr, image_suite());
	srunner_add_suite(sr, lives_suite());
	srunner_add_suite(sr, lines_suite());
	srunner_add_suite(sr, ids_suite());
	srunner_add_suite(sr, deep_suite());
	srunner_add_suite(sr, textfmt_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
