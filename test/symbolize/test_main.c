/*
 * test_main.c: runs the symbolizer suites. Usage:
 *
 *	test-symbolize SUITE[,SUITE...] [KEY=PATH...]
 *
 * Each KEY=PATH (a test binary built by meson, or a tool) is put in the
 * environment as D9S_TEST_KEY for the tests to find (tutil.h
 * prog_path()); an empty PATH means "not available".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

static const struct {
	const char	*name;
	Suite		*(*make)(void);
} suites[] = {
	{ "compare",	suite_compare },
	{ "unit",	suite_unit },
	{ "files",	suite_files },
	{ "isolate",	suite_isolate },
	{ "resolve",	suite_resolve },
	{ "demo",	suite_demo },
};

int
main(int argc, char **argv)
{
	SRunner *sr = NULL;
	char key[128];
	size_t i;
	int j, failed;

	if (argc < 2) {
		fprintf(stderr, "usage: test-symbolize SUITE[,SUITE] "
		    "[KEY=PATH...]\n");
		return 2;
	}
	for (j = 2; j < argc; j++) {
		const char *eq = strchr(argv[j], '=');

		if (eq == NULL || eq - argv[j] > 100)
			continue;
		snprintf(key, sizeof key, "D9S_TEST_%.*s", (int)(eq - argv[j]),
		    argv[j]);
		setenv(key, eq + 1, 1);
	}
	for (i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		if (strstr(argv[1], suites[i].name) == NULL)
			continue;
		if (sr == NULL)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (sr == NULL) {
		fprintf(stderr, "test-symbolize: no suite in '%s'\n", argv[1]);
		return 2;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
