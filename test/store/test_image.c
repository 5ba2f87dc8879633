/*
 * test_image.c: a model written as an image (store/image.h) and mapped
 * back. The planted trace (every verdict class, spans, allocations,
 * parks, wakes, a symbol table) gives an image of exactly the size
 * d9i_image_size says; the mapped model has the same tables, strings,
 * stacks, lanes and analysis figures as the one written; new strings and
 * errors can still be added to it; an image is refused (-1, with a
 * reason, each tested) under another key, cut at any of a spread of
 * lengths, with a byte changed anywhere in a spread of positions, or of
 * another format version.
 */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sum.h"
#include "model/figures/analysis.h"
#include "store/image.h"
#include "model/queries/lanes.h"
#include "mktrace.h"
#include "planted.h"
#include "suites.h"

#define KEY	0x1234abcdull

/* The planted model, and its image in a temporary file (fd open). */
static struct d9m_model *
planted_image(int *fd, off_t *size)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_lanes *x;
	char path[] = "/tmp/d9img-XXXXXX";
	struct stat sb;

	mt_planted(&t);
	m = mt_finish(&t);
	ck_assert_ptr_nonnull(m);
	x = d9m_lanes_build(m);
	ck_assert_ptr_nonnull(x);
	*fd = mkstemp(path);
	ck_assert_int_ge(*fd, 0);
	unlink(path);
	ck_assert_int_eq(d9i_image_write(m, x, *fd, KEY, NULL), 0);
	ck_assert_int_eq(fstat(*fd, &sb), 0);
	ck_assert_uint_eq((uint64_t)sb.st_size, d9i_image_size(m, x));
	*size = sb.st_size;
	d9m_lanes_free(&x);
	return m;
}

static void
same_cols(const struct d9m_model *a, const struct d9m_model *b)
{
	ck_assert_uint_eq(a->rt.n, b->rt.n);
	ck_assert_mem_eq(a->rt.ts, b->rt.ts, a->rt.n * sizeof *a->rt.ts);
	ck_assert_uint_eq(a->polls.n, b->polls.n);
	ck_assert_mem_eq(a->polls.end, b->polls.end,
	    a->polls.n * sizeof *a->polls.end);
	ck_assert_mem_eq(a->poll_sched, b->poll_sched,
	    a->polls.n * sizeof *a->poll_sched);
	ck_assert_uint_eq(a->cpu.n, b->cpu.n);
	ck_assert_mem_eq(a->cpu.poll, b->cpu.poll, a->cpu.n * sizeof *a->cpu.poll);
	ck_assert_uint_eq(a->spans.n, b->spans.n);
	ck_assert_uint_eq(a->strs.n, b->strs.n);
	for (uint32_t i = 0; i < a->strs.n; i++)
		ck_assert_str_eq(d9m_str(a, i), d9m_str(b, i));
	ck_assert_uint_eq(a->stacks.n, b->stacks.n);
	ck_assert_uint_eq(a->nworkers, b->nworkers);
	ck_assert_uint_eq(a->min_ts, b->min_ts);
	ck_assert_uint_eq(a->tasks.n, b->tasks.n);
	for (size_t i = 0; i < a->tasks.n; i++)
		ck_assert_uint_eq(d9m_task_find(b, a->tasks.id[i]),
		    d9m_task_find(a, a->tasks.id[i]));
	ck_assert_uint_eq(d9_intern_find(&b->strs, "crunch", 6),
	    d9_intern_find(&a->strs, "crunch", 6));
}

START_TEST(round_trip)
{
	int fd;
	off_t size;
	struct d9m_model *m = planted_image(&fd, &size), *b;
	struct d9m_lanes *x, *lx = d9m_lanes_build(m);
	struct d9m_analysis_opts o = { .win = D9M_WHOLE, .worst = 10 };
	struct d9m_analysis aa, ab;
	char why[128];

	ck_assert_int_eq(d9i_image_open(fd, KEY, &b, &x, why, sizeof why), 0);
	ck_assert(d9i_image_is(b));
	same_cols(m, b);
	ck_assert_uint_eq(x->nlong, lx->nlong);
	ck_assert_mem_eq(x->by_dur, lx->by_dur, m->polls.n * sizeof *x->by_dur);
	ck_assert_uint_eq(d9m_busy(b, x, 0, 0, UINT64_MAX),
	    d9m_busy(m, lx, 0, 0, UINT64_MAX));
	ck_assert_int_eq(d9m_analyze(m, &o, &aa), 0);
	ck_assert_int_eq(d9m_analyze(b, &o, &ab), 0);
	ck_assert_uint_eq(aa.long_polls, ab.long_polls);
	ck_assert_uint_eq(aa.event_count, ab.event_count);
	d9m_analysis_free(&aa);
	d9m_analysis_free(&ab);
	/* what may still change on a mapped model */
	ck_assert_uint_ne(d9_intern(&b->strs, "new after mapping", 17), D9_NONE);
	ck_assert_int_eq(d9m_model_add_error(b, "late"), 0);
	ck_assert_int_eq(d9m_model_finish(b), 0);
	d9m_lanes_free(&x);
	d9m_lanes_free(&lx);
	d9m_model_free(&b);
	d9m_model_free(&m);
	close(fd);
}
END_TEST

START_TEST(refused)
{
	int fd;
	off_t size;
	struct d9m_model *m = planted_image(&fd, &size), *b;
	struct d9m_lanes *x;
	char why[128];
	uint8_t *all = malloc((size_t)size);

	ck_assert_ptr_nonnull(all);
	ck_assert_int_eq(pread(fd, all, (size_t)size, 0), size);
	ck_assert_int_eq(d9i_image_open(fd, KEY + 1, &b, &x, why, sizeof why),
	    -1);
	ck_assert_str_eq(why, "made from other inputs");
	for (int i = 1; i <= 16; i++) {
		off_t at = size * i / 17;
		uint8_t c = all[at] ^ 0x40;

		ck_assert_int_eq(pwrite(fd, &c, 1, at), 1);
		ck_assert_int_eq(d9i_image_open(fd, KEY, &b, &x, why,
		    sizeof why), -1);
		ck_assert_str_eq(why, "damaged (its checksum does not match)");
		ck_assert_ptr_null(b);
		ck_assert_int_eq(pwrite(fd, &all[at], 1, at), 1);
		ck_assert_int_eq(ftruncate(fd, at), 0);
		ck_assert_int_eq(d9i_image_open(fd, KEY, &b, &x, why,
		    sizeof why), -1);
		ck_assert_str_eq(why, "cut short or of another shape");
		ck_assert_int_eq(pwrite(fd, all + at, (size_t)(size - at), at),
		    size - at);
	}
	{
		/* another format version, its header checksum made good:
		 * the header is 9 u64 (magic, version, ..., hsum last) */
		uint64_t h[9];

		memcpy(h, all, sizeof h);
		h[1]++;
		h[8] = 0;
		h[8] = d9_sum_of(h, sizeof h);
		ck_assert_int_eq(pwrite(fd, h, sizeof h, 0), (ssize_t)sizeof h);
		ck_assert_int_eq(d9i_image_open(fd, KEY, &b, &x, why,
		    sizeof why), -1);
		ck_assert_str_eq(why, "written by another version of d9top");
		ck_assert_int_eq(pwrite(fd, all, sizeof h, 0), (ssize_t)sizeof h);
	}
	ck_assert_int_eq(d9i_image_open(fd, KEY, &b, &x, why, sizeof why), 0);
	d9m_lanes_free(&x);
	d9m_model_free(&b);
	free(all);
	d9m_model_free(&m);
	close(fd);
}
END_TEST

Suite *
image_suite(void)
{
	Suite *s = suite_create("image");
	TCase *tc = tcase_create("image");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}
