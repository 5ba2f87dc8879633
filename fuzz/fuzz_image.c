/*
 * fuzz_image.c: what d9top makes of a forged index entry (store/image.h).
 * The checksum of an entry is no secret, so the fuzzer's bytes are an
 * entry's body (everything after its header: the scalars, the section
 * table, the sections) and the target writes the header that makes them
 * an entry of its key, checksum and all (d9i_image_reseal), maps it as
 * d9top would, and when it is taken runs the analysis of the whole
 * window (with --worst and a wake chain), the JSON, the report, the
 * folded stacks, the Chrome trace (to /dev/null), the analysis and JSON
 * of a window in the middle, and the browser's lookups of every lane. Nothing may crash, hang or read out of bounds:
 * what opening checks must be all that the rest relies on.
 *
 * The same file links main.c to replay a corpus as a test; mkimage.c
 * writes the seeds (entries of small traces, their headers cut off).
 * With FUZZ_IMAGE_WHY set, it says why an input is refused; with
 * FUZZ_IMAGE_TAKEN set, a refused input fails (the seeds' test: a seed
 * refused by its first section tests nothing past it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/figures/analysis.h"
#include "store/image.h"
#include "model/queries/lanes.h"
#include "output/output.h"
#include "symbolize/resolver.h"

#define KEY	0xd9f022ull
#define HEAD	D9I_IMAGE_HEAD

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the browser asks of the lanes (model/queries/lanes.h), for every lane. */
static void
lanes(const struct d9m_model *m, const struct d9m_lanes *x)
{
	uint64_t a = m->min_ts, b = m->max_ts, mid = a / 2 + b / 2;

	for (uint32_t w = 0; w < m->nworkers; w++) {
		(void)d9m_busy(m, x, w, a, b + 1);
		(void)d9m_busy(m, x, w, mid, b);
		(void)d9m_longest(m, x, w, a, b + 1);
		(void)d9m_longest(m, x, w, a, mid);
		(void)d9m_first_poll(m, w, mid);
	}
	(void)d9m_active_at(x, mid);
}

/* The analysis of window w and what the outputs make of it; all of
 * them with every: else only the JSON. */
static void
outputs(const struct d9m_model *m, struct d9m_resolver *r,
    struct d9m_window w, int every, FILE *null)
{
	struct d9m_analysis_opts ao = { .win = w, .worst = 3, .chain_task = 1,
	    .resolver = r };
	struct d9m_analysis a;
	struct d9o_out o = { .m = m, .a = &a, .r = r, .f = null, .chain = 1 };
	static const char *const kinds[] = { "cpu", "offcpu", "alloc" };

	if (d9m_analyze(m, &ao, &a) == 0) {
		d9o_json(&o);
		for (size_t k = 0; every && k < sizeof kinds / sizeof kinds[0];
		    k++)
			if (d9o_folded(&o, kinds[k], &ao.win) < 0)
				break;	/* out of memory: nothing to fuzz */
		if (every)
			d9o_report(&o);
		d9m_analysis_free(&a);
	}
	if (every)
		d9o_chrome(&o, &ao.win);
}

/* The whole trace, then its middle half (a --window: rows are found by
 * time). */
static void
windows(const struct d9m_model *m, FILE *null)
{
	struct d9s_resolver_opts ro = { 0 };
	struct d9m_resolver *r;
	struct d9_err e;
	uint64_t q = m->max_ts >= m->min_ts ? (m->max_ts - m->min_ts) / 4 : 0;

	if (d9s_resolver_new(NULL, &ro, &r, &e) != 0)
		return;
	outputs(m, r, D9M_WHOLE, 1, null);
	if (q > 0)
		outputs(m, r, (struct d9m_window){ m->min_ts + q,
		    m->max_ts - q }, 0, null);
	d9s_resolver_free(&r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct d9m_model *m;
	struct d9m_lanes *x;
	char why[128];
	uint8_t *img = malloc(HEAD + size);
	FILE *null = fopen("/dev/null", "w");
	int fd = memfd_create("fuzz_image", MFD_CLOEXEC);

	if (img == NULL || null == NULL || fd < 0)
		abort();
	memcpy(img + HEAD, data, size);
	if (d9i_image_reseal(img, HEAD + size, KEY) < 0 ||
	    write(fd, img, HEAD + size) != (ssize_t)(HEAD + size))
		abort();
	free(img);
	if (d9i_image_open(fd, KEY, &m, &x, why, sizeof why) != 0) {
		if (getenv("FUZZ_IMAGE_WHY") != NULL ||
		    getenv("FUZZ_IMAGE_TAKEN") != NULL)
			fprintf(stderr, "fuzz_image: refused: %s\n", why);
		if (getenv("FUZZ_IMAGE_TAKEN") != NULL)
			exit(1);	/* a seed of another layout */
	} else {
		lanes(m, x);
		windows(m, null);
		d9m_lanes_free(&x);
		d9m_model_free(&m);
	}
	close(fd);
	fclose(null);
	return 0;
}
