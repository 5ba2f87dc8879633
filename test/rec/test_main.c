/*
 * test_main.c: the libd9rec suite ('rec'): round trips through
 * src/parse + src/model, segment files, robustness, loss, and d9demo +
 * d9top end to end.
 */
#include <stdlib.h>

#include "rectest.h"

int
main(void)
{
	Suite *s = suite_create("rec");
	SRunner *sr;
	int failed;

	suite_add_tcase(s, rt_tcase_roundtrip());
	suite_add_tcase(s, rt_tcase_files());
	suite_add_tcase(s, rt_tcase_robust());
	suite_add_tcase(s, rt_tcase_loss());
	suite_add_tcase(s, rt_tcase_e2e());
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
