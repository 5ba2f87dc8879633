/*
 * fuzz_top.c: what d9top's headless modes make of a hostile trace. The
 * input's bytes are one segment file, loaded as `d9top --no-cache
 * --json FILE` loads it (app/load.c: the parser, the model, its finish
 * and the analysis of the whole window, with --worst and a wake chain),
 * then written as the JSON, the report and the Chrome trace, to
 * /dev/null. Nothing may crash, hang or read out of bounds, whatever
 * the events say (a poll that never started, ids from nowhere, times
 * that go back, stacks that point past their pool).
 *
 * The same file links main.c to replay a corpus as a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/load.h"
#include "app/opts.h"
#include "output/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One run of d9top with argv and the file last; 0 when it loaded. */
static int
top(const char *mode, const char *path, FILE *null)
{
	char *argv[] = { "d9top", "--no-cache", "--quiet", "--worst", "3",
	    "--chain", "1", (char *)mode, (char *)path, NULL };
	struct d9a_opts o;
	struct d9a_load l;
	struct d9o_out out;
	struct d9a_win w;
	char err[256];
	int rc;

	if (d9a_opts_parse(&o, 9, argv, err, sizeof err) < 0) {
		fprintf(stderr, "fuzz_top: %s\n", err);
		abort();
	}
	w = d9a_win_of(&o);
	rc = d9a_load(&l, &o, (const char *const *)o.paths, o.npaths, &w,
	    o.mode != D9A_CHROME);
	if (rc == 0) {
		memset(&out, 0, sizeof out);
		out.m = l.m;
		out.a = &l.a;
		out.r = l.res;
		out.f = null;
		out.inputs = o.paths;
		out.ninputs = o.npaths;
		out.chain = o.have_chain;
		if (o.mode == D9A_JSON)
			d9o_json(&out);
		else if (o.mode == D9A_CHROME)
			d9o_chrome(&out, &l.ao.win);
		else
			d9o_report(&out);
		d9a_load_free(&l);
	}
	d9a_opts_free(&o);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const modes[] = { "--json", "--report", "--chrome" };
	char path[] = "/tmp/fuzz_top-XXXXXX";
	FILE *null = fopen("/dev/null", "w");
	int fd = mkstemp(path);

	if (fd < 0 || null == NULL)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
		if (top(modes[k], path, null) != 0)
			break;		/* nothing readable: no other mode reads more */
	fclose(null);
	unlink(path);
	return 0;
}
