/*
 * fuzz_top.c: what d9top's headless modes make of a hostile trace. The
 * input's bytes are one segment file, run through d9a_headless() as
 * `d9top --no-cache --json FILE` runs it (the parser, the model, its
 * finish and the analysis of the whole window, with --worst and a wake
 * chain), then again for the report and the Chrome trace, written to
 * /dev/null. Nothing may crash, hang or read out of bounds, whatever
 * the events say (a poll that never started, ids from nowhere, times
 * that go back, stacks that point past their pool).
 *
 * The same file links main.c to replay a corpus as a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/headless.h"
#include "app/opts.h"
#include "put.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One headless run of d9top on path in mode; 0 when it loaded. */
static int
top(const char *mode, const char *path, FILE *null)
{
	char *argv[] = { "d9top", "--no-cache", "--quiet", "--worst", "3",
	    "--chain", "1", (char *)mode, (char *)path, NULL };
	struct d9a_opts o;
	char err[256];
	int rc;

	if (d9a_opts_parse(&o, 9, argv, err, sizeof err) < 0) {
		fprintf(stderr, "fuzz_top: %s\n", err);
		abort();
	}
	rc = d9a_headless(&o, null);
	d9a_opts_free(&o);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const modes[] = { "--json", "--report", "--chrome" };
	char path[] = "/tmp/fuzz_top-XXXXXX";
	FILE *null = fopen("/dev/null", "w");

	if (null == NULL)
		abort();
	fz_put(path, data, size);
	for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
		if (top(modes[k], path, null) != 0)
			break;		/* nothing readable: no other mode reads more */
	fclose(null);
	unlink(path);
	return 0;
}
