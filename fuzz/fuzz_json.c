/*
 * fuzz_json.c: what d9top makes of a hostile --json file, the one input
 * besides traces, binaries and index entries that users hand it (--diff
 * OLD NEW, --baseline FILE). The bytes are parsed (base/json.h), read as
 * one side of a comparison, and checked against a fixed set of --check
 * rules (absolute and relative, keys with brackets and indexes, units);
 * then the file is compared with itself as `d9top --diff FILE FILE`
 * does, as text and as --json, written to /dev/null. Nothing may crash, hang or read out
 * of bounds, and a file that is not a --json output is refused.
 *
 * The same file links main.c to replay a corpus as a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/compare.h"
#include "app/opts.h"
#include "base/json.h"
#include "model/figures/diff.h"
#include "output/check.h"
#include "output/output.h"
#include "put.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Rules that reach every kind of key the checker knows. */
static const char *const rules[] = {
	"longPolls < 5, durationMs <= +10%, schedDelay.p99 < 1ms",
	"pollByLoc[src/main.rs:1:1].p99 < +2ms, worstPolls[0].durNs >= 0",
	"memory.estimatedTotalBytes < 1GB, spans.x.count != -3",
	"utilization.0 > 0.5, taskLeak.alive == +0"
};

/* d9top --diff with argv[0 .. n) on the file; its output to null. */
static void
diff(char **argv, int n, FILE *null)
{
	struct d9a_opts o;
	char err[256];

	if (d9a_opts_parse(&o, n, argv, err, sizeof err) < 0) {
		fprintf(stderr, "fuzz_json: %s\n", err);
		abort();
	}
	(void)d9a_diff_main(&o, null);
	d9a_opts_free(&o);
}

/* The parsed document as a side of --diff and under the rules. */
static void
read_back(const struct d9_json *doc, FILE *null)
{
	struct d9o_rules r = { NULL, 0 };
	struct d9m_side s;
	char err[256];

	d9m_side_init(&s);
	(void)d9o_side_from_json(doc->root, &s, err, sizeof err);
	d9m_side_free(&s);
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		if (d9o_rules_parse(&r, &rules[i], 1, 1, err, sizeof err) < 0)
			abort();	/* the rules above are well formed */
		if (d9o_rules_valid(&r, doc->root, err, sizeof err) == 0)
			(void)d9o_rules_check(&r, doc->root, doc->root, null);
		d9o_rules_free(&r);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_json-XXXXXX";
	char *text[] = { "d9top", "--quiet", "--diff", path, path, NULL };
	char *json[] = { "d9top", "--quiet", "--json", "--diff", path, path,
	    NULL };
	FILE *null = fopen("/dev/null", "w");
	struct d9_json doc;
	struct d9_err e;

	if (null == NULL)
		abort();
	fz_put(path, data, size);
	if (d9_json_parse(&doc, (const char *)data, size, &e) == 0)
		read_back(&doc, null);
	d9_json_free(&doc);
	diff(text, 5, null);
	diff(json, 6, null);
	fclose(null);
	unlink(path);
	return 0;
}
