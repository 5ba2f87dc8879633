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
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/headless.h"
#include "app/opts.h"
#include "app/tally.h"
#include "put.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One headless run of d9top on path in mode (the wake chain and worst
 * polls for the modes that list them); 0 when it loaded. */
static int
top(const char *mode, const char *path, int null)
{
	char *argv[] = { "d9top", "--no-cache", "--quiet", (char *)mode,
	    (char *)path, "--worst", "3", "--chain", "1", NULL };
	int argc = strcmp(mode, "--chrome") == 0 ? 5 : 9;
	struct d9a_tally t;
	struct d9a_opts o;
	char err[256];
	FILE *f;
	int rc;

	if (d9a_opts_parse(&o, argc, argv, err, sizeof err) < 0 ||
	    (f = d9a_tally_open(&t, null, NULL, NULL)) == NULL) {
		fprintf(stderr, "fuzz_top: %s\n", err);
		abort();
	}
	rc = d9a_headless(&o, f, &t);
	fclose(f);
	d9a_opts_free(&o);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const modes[] = { "--json", "--report", "--chrome" };
	char path[] = "/tmp/fuzz_top-XXXXXX";
	int null = open("/dev/null", O_WRONLY);

	if (null == -1)
		abort();
	fz_put(path, data, size);
	for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
		if (top(modes[k], path, null) != 0)
			break;		/* nothing readable: no other mode reads more */
	close(null);
	unlink(path);
	return 0;
}
