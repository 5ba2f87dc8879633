/*
 * test_main.c: the libd9rec suite ('rec'): round trips through
 * src/parse + src/model, segment files, robustness, loss, retention,
 * d9demo + d9top end to end, context-switch sampling, and signal
 * handlers that record. Where the kernel refuses perf events, the CPU
 * sample checks cannot run: the fallback is still checked and the run
 * exits 77 (skipped) unless a test failed.
 */
#include <stdlib.h>

#include "../skip.h"
#include "rectest.h"

int
main(void)
{
	Suite *s = suite_create("rec");
	SRunner *sr;
	int status;

	suite_add_tcase(s, rt_tcase_roundtrip());
	suite_add_tcase(s, rt_tcase_files());
	suite_add_tcase(s, rt_tcase_gzip());
	suite_add_tcase(s, rt_tcase_robust());
	suite_add_tcase(s, rt_tcase_loss());
	suite_add_tcase(s, rt_tcase_retain());
	suite_add_tcase(s, rt_tcase_disk());
	suite_add_tcase(s, rt_tcase_e2e());
	suite_add_tcase(s, rt_tcase_sched());
	suite_add_tcase(s, rt_tcase_ksyms());
	suite_add_tcase(s, rt_tcase_cost());
	suite_add_tcase(s, rt_tcase_random());
	suite_add_tcase(s, rt_tcase_signal());
	suite_add_tcase(s, rt_tcase_owner());
	sr = srunner_create(s);
	t_skip_init();
	srunner_run_all(sr, CK_NORMAL);
	status = t_exit_status(sr);
	srunner_free(sr);
	return status;
}
