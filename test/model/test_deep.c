/*
 * test_deep.c: deep stacks (base/stackcap.h). A 10 000-frame stack keeps
 * its 8192 innermost frames, the reader's limit, and its root says what
 * was cut: "[... 1809 frames cut]" is the root of --folded cpu and of
 * the flame tree, under which the frames go down to the leaf in order
 * (before, both kept 256 frames and took the 256th for the root). A
 * stack of 5000 addresses of two inline levels each (10 000 frames) is
 * cut by the model alike, where its 8192 frames are full.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/stackcap.h"
#include "mktrace.h"
#include "model/queries/flame.h"
#include "output/output.h"
#include "suites.h"

#define DEEP	10000

/* A trace with one on-CPU sample of a stack of n addresses, leaf first
 * 0x100000, 0x100010, ... (the first nkernel of them kernel addresses,
 * 0xffffffff81000000, ...); levels > 0: each of the first nlev addresses
 * named "fK" (K its place from the leaf), with that many inline levels
 * ("fK.L", L > 0 innermost). Loaded, its notes (a cut value) allowed. */
static struct d9m_model *
deep_in(size_t n, unsigned levels, size_t nkernel, size_t nlev)
{
	uint64_t *a = malloc(n * sizeof *a);
	const char *paths[1];
	struct d9m_model *m;
	struct mt t;
	char name[32];

	ck_assert_ptr_nonnull(a);
	for (size_t i = 0; i < n; i++)
		a[i] = (i < nkernel ? 0xffffffff81000000ull : 0x100000) +
		    16 * i;
	mt_begin(&t);
	mt_unpark(&t, 1000, 0, 0, 7, 0);
	mt_poll_start(&t, 2000, 0, 1, "src/main.rs:1:1");
	mt_cpu(&t, 3000, 7, 0, n, a);
	mt_poll_end(&t, 4000, 0);
	for (size_t i = 0; i < n && i < nlev && levels > 0; i++)
		for (unsigned l = 0; l < levels; l++) {
			snprintf(name, sizeof name, l ? "f%zu.%u" : "f%zu", i,
			    l);
			mt_symbol(&t, a[i], name, l);
		}
	paths[0] = mt_write(&t);
	m = mt_load(paths, 1);
	unlink(paths[0]);
	free((char *)paths[0]);
	tg_free(&t.tg);
	free(a);
	return m;
}

static struct d9m_model *
deep(size_t n, unsigned levels)
{
	return deep_in(n, levels, 0, SIZE_MAX);
}

/* --folded cpu of the whole trace. */
static char *
folded(const struct d9m_model *m)
{
	struct d9m_window all = D9M_WHOLE;
	struct d9o_out o;
	char *text = NULL;
	size_t len = 0;

	memset(&o, 0, sizeof o);
	o.m = m;
	ck_assert_ptr_nonnull(o.f = open_memstream(&text, &len));
	ck_assert_int_eq(d9o_folded(&o, "cpu", &all), 0);
	fclose(o.f);
	return text;
}

/* The frames of the one line of text (names hold no ';'). */
static size_t
count_frames(const char *text)
{
	size_t n = 1;

	for (const char *p = text; *p; p++)
		n += *p == ';';
	return n;
}

START_TEST(cut_by_the_reader)
{
	struct d9m_model *m = deep(DEEP, 0);
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_flame *f;
	char *text, leaf[32];
	uint32_t node;
	size_t nf;
	const uint8_t *p = d9m_stack(m, m->cpu.stack[0], &nf);

	/* the reader said so, and kept the marker in the outermost */
	ck_assert_uint_ge(m->nerrors, 1);
	ck_assert_uint_eq(nf, D9_STACK_MAX);
	ck_assert_uint_eq(d9p_le64(p + 8 * (nf - 1)), d9_stack_cut(1809));
	text = folded(m);
	ck_assert_msg(strncmp(text, "[... 1809 frames cut];0x11ffe0;0x11ffd0;",
	    40) == 0, "%.80s", text);
	snprintf(leaf, sizeof leaf, ";0x100010;0x100000 1\n");
	ck_assert_str_eq(text + strlen(text) - strlen(leaf), leaf);
	ck_assert_uint_eq(count_frames(text), D9_STACK_MAX);
	free(text);
	/* the flame tree: one chain from the marked cut down to the leaf */
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &q));
	ck_assert_uint_eq(f->n, 1 + D9_STACK_MAX);
	ck_assert_uint_eq(f->nodes[0].nkids, 1);
	node = f->kids[f->nodes[0].kid0];
	ck_assert_str_eq(d9m_flame_name(f, node), "[... 1809 frames cut]");
	ck_assert_str_eq(d9m_flame_name(f, f->kids[f->nodes[node].kid0]),
	    "0x11ffe0");
	ck_assert_str_eq(d9m_flame_name(f, (uint32_t)f->n - 1), "0x100000");
	ck_assert_uint_eq(f->nodes[f->n - 1].depth, D9_STACK_MAX);
	d9m_flame_free(&f);
	d9m_model_free(&m);
}
END_TEST

START_TEST(cut_by_the_model)
{
	struct d9m_model *m = deep(5000, 2);
	struct d9m_frame *fr = d9m_frames_alloc();
	size_t n;
	char *text;

	ck_assert_uint_eq(m->nerrors, 0);
	ck_assert_ptr_nonnull(fr);
	n = d9m_stack_frames(m, NULL, m->cpu.seg[0], m->cpu.stack[0], fr,
	    D9_STACK_MAX);
	ck_assert_uint_eq(n, D9_STACK_MAX);
	ck_assert_str_eq(d9m_frame_name(&fr[0]), "f0.1");
	ck_assert_str_eq(d9m_frame_name(&fr[1]), "f0");
	ck_assert_str_eq(d9m_frame_name(&fr[n - 2]), "f4095.1");
	/* f4095 and the 904 addresses above it */
	ck_assert_str_eq(d9m_frame_name(&fr[n - 1]), "[... 905 frames cut]");
	/* a smaller max asks for the innermost frames: no mark */
	ck_assert_uint_eq(d9m_stack_frames(m, NULL, m->cpu.seg[0],
	    m->cpu.stack[0], fr, 3), 3);
	ck_assert_str_eq(d9m_frame_name(&fr[2]), "f1.1");
	free(fr);
	text = folded(m);
	ck_assert_msg(strncmp(text, "[... 905 frames cut];f4095.1;f4094;",
	    35) == 0, "%.80s", text);
	free(text);
	d9m_model_free(&m);
}
END_TEST

/* The leaf of the sample's stack by d9m_stack_leaf, named, and as the
 * whole stack's frames give it. */
static void
leaf_both(const struct d9m_model *m, int user, char *got, char *whole)
{
	struct d9m_frame *fr = d9m_frames_alloc();
	size_t n, j;

	ck_assert_ptr_nonnull(fr);
	j = d9m_stack_leaf(m, NULL, m->cpu.seg[0], m->cpu.stack[0], user, fr);
	ck_assert_uint_ne(j, SIZE_MAX);
	snprintf(got, 64, "%s", d9m_frame_name(&fr[j]));
	n = d9m_stack_frames(m, NULL, m->cpu.seg[0], m->cpu.stack[0], fr,
	    D9_STACK_MAX);
	for (j = 0; user && j < n && fr[j].kernel; j++)
		;
	snprintf(whole, 64, "%s", d9m_frame_name(&fr[user && j < n ? j : 0]));
	free(fr);
}

/* The leaf a stack is counted under (--json's cpuLeaves, offCpuLeaves):
 * the innermost frame, or the innermost outside the kernel, found
 * without naming the whole stack, as the whole stack would give it. */
START_TEST(leaf_without_the_whole_stack)
{
#define N	SIZE_MAX
	static const struct {
		size_t		 n, nkernel;
		unsigned	 levels;
		size_t		 nlev;
		int		 user;
		const char	*leaf;
	} c[] = {
		{ 5000, 0, 2, N, 0, "f0.1" }, { 5000, 0, 2, N, 1, "f0.1" },
		/* three kernel addresses, two frames each: the seventh */
		{ 50, 3, 2, N, 1, "f3.1" }, { 50, 3, 2, N, 0, "f0.1" },
		/* all in the kernel: the innermost; past the model's cut,
		 * the mark of what it leaves out (no kernel frame) */
		{ 20, 20, 0, N, 1, "0xffffffff81000000" },
		{ 5000, 5000, 2, N, 1, "[... 905 frames cut]" },
		/* the first user frame where the model's cut marks the
		 * frames it leaves out (the mark is no kernel frame): 4095
		 * kernel addresses of two frames and one of one before it */
		{ 5000, 4096, 2, 4095, 1, "[... 904 frames cut]" },
		/* the reader's mark, its last address, likewise */
		{ D9_STACK_MAX + 5, D9_STACK_MAX - 1, 0, N, 1,
		    "[... 6 frames cut]" },
	};
	char got[64], whole[64];

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		struct d9m_model *m = deep_in(c[i].n, c[i].levels,
		    c[i].nkernel, c[i].nlev);

		leaf_both(m, c[i].user, got, whole);
		ck_assert_msg(strcmp(got, c[i].leaf) == 0 &&
		    strcmp(whole, got) == 0, "case %zu: %s, whole %s", i, got,
		    whole);
		d9m_model_free(&m);
	}
#undef N
}
END_TEST

Suite *
deep_suite(void)
{
	Suite *s = suite_create("deep");
	TCase *tc = tcase_create("deep");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, cut_by_the_reader);
	tcase_add_test(tc, cut_by_the_model);
	tcase_add_test(tc, leaf_without_the_whole_stack);
	suite_add_tcase(s, tc);
	return s;
}
