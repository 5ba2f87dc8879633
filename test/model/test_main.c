/* test_main.c: runs the model's suites (test/model); CK_RUN_SUITE picks
 * one. */
#include "runsuites.h"
#include "suites.h"

int
main(void)
{
	static const suite_fn mk[] = { model_suite, analysis_suite,
	    window_suite, sort_suite, engine_suite, loss_suite, sources_suite,
	    events_suite, series_suite, diff_suite, dial95_suite, lives_suite,
	    ids_suite, deep_suite, spantags_suite, stackgroups_suite };

	return run_suites(mk, sizeof mk / sizeof mk[0]);
}
