/*
 * test_plt.c: the names of a PLT's entries (symbolize/plt.h) are the
 * ones objdump gives them ("printf@plt", in .plt, .plt.sec and
 * .plt.got), and only those: the lazy resolver's first entry, which
 * objdump labels "<free@plt-0x10>", has none. A CPU sample taken in
 * such an entry is named by it (the demo test once saw one as a bare
 * address).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "symbolize/elffile.h"
#include "symbolize/symbolizer.h"
#include "../skip.h"
#include "suites.h"
#include "tutil.h"

/* The symbolizer's name for the leaf address a of bin. */
static void
symbolized(const char *bin, uint64_t a, const char *want)
{
	struct d9s_symbolizer *sym;
	const struct d9s_frame *fr;
	struct d9_err e;
	size_t nf;
	uint32_t mod;

	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, NULL, 0, &mod, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, a, 0, &fr, &nf, &e),
	    0);
	ck_assert_uint_ge(nf, 1);
	ck_assert_ptr_nonnull(fr[0].function);
	ck_assert_str_eq(fr[0].function, want);
	d9s_symbolizer_free(&sym);
}

/* bin's entries against objdump's labels of the same sections; the
 * symbolizer names a sample in the first of them so. */
static void
plt_like_objdump(const char *bin)
{
	const char *objdump = prog_path("OBJDUMP");
	char cmd[2 * PATH_MAX], line[512], name[256];
	struct d9s_elffile f;
	struct d9_err e;
	unsigned long long a;
	size_t named = 0;
	FILE *p;

	if (bin == NULL || objdump == NULL || *objdump == '\0') {
		t_skip("plt: no objdump or test program");
		return;
	}
	ck_assert_int_eq(d9s_elffile_open(&f, bin, &e), 0);
	snprintf(cmd, sizeof cmd, "'%s' -d -j .plt -j .plt.sec -j .plt.got "
	    "'%s' 2>/dev/null", objdump, bin);
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	while (fgets(line, sizeof line, p) != NULL) {
		const char *ours;

		if (sscanf(line, "%llx <%255[^>]>:", &a, name) != 2)
			continue;
		ours = d9s_plt_find(&f.plt, a);
		if (strchr(name, '-') != NULL || strchr(name, '+') != NULL) {
			ck_assert_ptr_null(ours);	/* not an entry's */
			continue;
		}
		ck_assert_msg(ours != NULL && strcmp(ours, name) == 0,
		    "%s: %llx: objdump %s, ours %s", bin, a, name,
		    ours ? ours : "(none)");
		/* inside the entry too */
		ck_assert_str_eq(d9s_plt_find(&f.plt, a + 5), name);
		if (named++ == 0)
			symbolized(bin, a + 4, name);
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_uint_gt(named, 0);
	ck_assert_uint_eq(named, f.plt.n);	/* none objdump lacks */
	d9s_elffile_close(&f);
}

START_TEST(plt_c) { plt_like_objdump(prog_path("C_O2_V5")); } END_TEST
START_TEST(plt_demo) { plt_like_objdump(prog_path("D9DEMO")); } END_TEST

TCase *
tcase_files_plt(void)
{
	TCase *tc = tcase_create("plt");

	tcase_add_test(tc, plt_c);
	tcase_add_test(tc, plt_demo);
	return tc;
}
