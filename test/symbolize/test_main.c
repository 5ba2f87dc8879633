/*
 * test_main.c: runs the symbolizer suites. Usage:
 *
 *	test-symbolize SUITE[,SUITE...] [KEY=PATH...]
 *
 * Each KEY=PATH (a test binary built by meson, or a tool) is put in the
 * environment as D9S_TEST_KEY for the tests to find (tutil.h
 * prog_path()); an empty PATH means "not available", and the tests that
 * need it are skipped: the exit status is then 77 unless a test failed.
 * The Rust programs' tests are a suite of their own ("rust"), so that
 * without rustc only they are reported as skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../skip.h"
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
	{ "rust",	suite_rust },
};

int
main(int argc, char **argv)
{
	SRunner *sr = NULL;
	char key[128];
	size_t i;
	int j, status;

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
	t_skip_init();
	srunner_run_all(sr, CK_NORMAL);
	status = t_exit_status(sr);
	srunner_free(sr);
	return status;
}
