/* test_main.c: runs src/base's suites; CK_RUN_SUITE picks one. */
#include "runsuites.h"
#include "suites.h"

int
main(void)
{
	static const suite_fn mk[] = { base_suite, avail_suite };

	return run_suites(mk, sizeof mk / sizeof mk[0]);
}
