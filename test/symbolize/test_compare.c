/*
 * test_compare.c: `--addr2line` against binutils `addr2line -f -i -C -a`
 * on the test programs built by meson (C -O0/-O2, DWARF 4/5; Rust
 * DWARF 4/5). Addresses are sampled inside every function symbol.
 *
 * DWARF 4 output must match binutils 2.40 byte for byte. On DWARF 5,
 * binutils 2.40 is wrong in two known ways (DEPENDENCIES 4.3 bug 2 and
 * 4.5): it starts the line program's file register at entry 0, so rows
 * before the first DW_LNS_set_file show the file-0 name (gcc -O0 lists
 * inline.c there, rustc the "app.rs/@/app.<hash>-cgu.00" pseudo name),
 * and on rustc output it drops an inline level. Where we differ from
 * binutils on DWARF 5, llvm-symbolizer (an independent DWARF reader) must
 * agree with us frame by frame on file and line (its Rust names keep the
 * hashes, so names are not compared there).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "app/addr2line.h"
#include "symbolize/elffile.h"
#include "../skip.h"
#include "suites.h"
#include "tutil.h"

#define TARGET_ADDRS	6000	/* per binary, at most */

struct sample {
	uint64_t	*a;
	size_t		 n;
};

static int
u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Addresses inside every sized code symbol, every step-th byte. */
static void
sample_addrs(const char *bin, struct sample *s)
{
	struct d9s_elffile f;
	struct d9_err e;
	uint64_t total = 0, step, off;
	size_t i, k = 0;

	ck_assert_msg(d9s_elffile_open(&f, bin, &e) == 0, "%s: %s", bin, e.msg);
	for (i = 0; i < f.syms.n; i++)
		total += f.syms.sym[i].size;
	step = total / TARGET_ADDRS + 1;
	ck_assert_ptr_nonnull(s->a = malloc((total / step + f.syms.n + 1) *
	    sizeof *s->a));
	for (i = 0; i < f.syms.n; i++)
		for (off = 0; off < f.syms.sym[i].size; off += step)
			s->a[k++] = f.syms.sym[i].addr + off;
	qsort(s->a, k, sizeof *s->a, u64_cmp);
	s->n = 0;
	for (i = 0; i < k; i++)
		if (s->n == 0 || s->a[s->n - 1] != s->a[i])
			s->a[s->n++] = s->a[i];
	d9s_elffile_close(&f);
}

/* llvm-symbolizer wants the 0x, binutils takes either */
static void
write_addrs(const char *path, const uint64_t *a, size_t n)
{
	FILE *f = fopen(path, "w");
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		fprintf(f, "%#" PRIx64 "\n", a[i]);
	ck_assert_int_eq(fclose(f), 0);
}

static void
run_ours(const char *bin, const char *in_path, const char *out_path)
{
	char *argv[] = { "-a", "-e", (char *)bin };
	FILE *in = fopen(in_path, "r"), *out = fopen(out_path, "w");

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(d9a_addr2line_stream(3, argv, in, out, stderr), 0);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
}

/* File and line of one "file:line[ (discriminator N)]" line. */
static void
split_loc(const char *loc, size_t len, char *file, size_t cap, long *line)
{
	const char *colon, *end = loc + len;
	const char *disc = strstr(loc, " (discriminator ");

	if (disc != NULL && disc < end)
		end = disc;
	for (colon = end; colon > loc && colon[-1] != ':'; colon--)
		;
	ck_assert_msg(colon > loc, "no file:line in '%.*s'", (int)len, loc);
	snprintf(file, cap, "%.*s", (int)(colon - 1 - loc), loc);
	*line = *colon == '?' ? 0 : strtol(colon, NULL, 10);
}

/* The (file, line) list of a block: ours ("f\nloc\n"...) or llvm's
 * ("f\nfile:line:col\n"...); llvm_style drops the column first. */
static size_t
locs(const char *text, int llvm_style, char files[][512], long *lines,
    size_t cap)
{
	size_t n = 0;
	int odd = 0;

	while (*text != '\0' && *text != '\n' && n < cap) {
		const char *nl = strchr(text, '\n');
		size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);

		if (odd) {
			size_t loc_len = len;

			if (llvm_style) {
				while (loc_len > 0 && text[loc_len - 1] != ':')
					loc_len--;
				ck_assert_uint_gt(loc_len, 0);
				loc_len--;
			}
			split_loc(text, loc_len, files[n], sizeof files[n],
			    &lines[n]);
			n++;
		}
		odd = !odd;
		text += len + (nl != NULL);
	}
	return n;
}

/* Which of the addresses where we differ from binutils llvm-symbolizer
 * confirms; returns how many it does not. */
static size_t
check_with_llvm(const struct tdir *d, const char *bin, const uint64_t *a,
    size_t n, const struct a2l_out *ours)
{
	char fo[16][512], fl[16][512];
	char in[PATH_MAX], out[PATH_MAX], obj[PATH_MAX + 8], *buf, *p;
	const char *llvm = prog_path("LLVM_SYMBOLIZER");
	long lo[16], ll[16];
	size_t i, bad = 0, no, nl;

	ck_assert_msg(llvm != NULL, "binutils differs on %zu addresses of %s "
	    "and llvm-symbolizer is not installed to check them", n, bin);
	write_addrs(tdir_file(d, "diff.txt", in), a, n);
	snprintf(obj, sizeof obj, "--obj=%s", bin);
	{
		char *argv[] = { (char *)llvm, obj, "--inlining", "--demangle",
		    NULL };

		ck_assert_int_eq(run_cmd(argv, in, tdir_file(d, "llvm.txt",
		    out)), 0);
	}
	p = buf = read_all(out, NULL);
	for (i = 0; i < n; i++) {
		char *end = strstr(p, "\n\n");

		ck_assert_ptr_nonnull(end);
		end[1] = '\0';
		ck_assert_ptr_nonnull(a2l_find(ours, a[i]));
		no = locs(a2l_find(ours, a[i]), 0, fo, lo, 16);
		nl = locs(p, 1, fl, ll, 16);
		p = end + 2;
		if (no == nl) {
			size_t k;

			for (k = 0; k < no; k++)
				if (strcmp(fo[k], fl[k]) != 0 || lo[k] != ll[k])
					break;
			if (k == no)
				continue;
		}
		if (bad++ < 3)
			fprintf(stderr, "%s %#" PRIx64 ": llvm-symbolizer "
			    "disagrees too (%zu frames, ours %zu; first "
			    "%s:%ld, ours %s:%ld)\n", bin, a[i], nl, no, fl[0],
			    ll[0], fo[0], lo[0]);
	}
	free(buf);
	return bad;
}

static void
compare(const char *key, int dwarf5, size_t min_addrs)
{
	const char *bin = prog_path(key);
	char addrs[PATH_MAX], bout[PATH_MAX], mout[PATH_MAX];
	struct a2l_out b, m;
	struct sample s;
	struct tdir d;
	uint64_t *diff;
	size_t i, ndiff = 0;

	if (bin == NULL) {
		t_skip("%s: not built (no rustc?)", key);
		return;
	}
	tdir_make(&d);
	sample_addrs(bin, &s);
	ck_assert_uint_ge(s.n, min_addrs);
	write_addrs(tdir_file(&d, "addrs.txt", addrs), s.a, s.n);
	{
		char *argv[] = { "addr2line", "-a", "-f", "-i", "-C", "-e",
		    (char *)bin, NULL };

		ck_assert_int_eq(run_cmd(argv, addrs, tdir_file(&d, "b.txt",
		    bout)), 0);
	}
	run_ours(bin, addrs, tdir_file(&d, "m.txt", mout));
	a2l_parse(&b, bout);
	a2l_parse(&m, mout);
	ck_assert_uint_eq(b.n, s.n);
	ck_assert_uint_eq(m.n, s.n);
	ck_assert_ptr_nonnull(diff = malloc(s.n * sizeof *diff));
	for (i = 0; i < s.n; i++) {
		if (strcmp(b.b[i].text, m.b[i].text) == 0)
			continue;
		if (!dwarf5 && ndiff < 3)
			fprintf(stderr, "%s %#" PRIx64 ":\nbinutils:\n%s\n"
			    "ours:\n%s\n", key, s.a[i], b.b[i].text,
			    m.b[i].text);
		diff[ndiff++] = s.a[i];
	}
	if (!dwarf5)
		ck_assert_msg(ndiff == 0, "%s: %zu of %zu addresses differ "
		    "from binutils", key, ndiff, s.n);
	else if (ndiff > 0)
		ck_assert_uint_eq(check_with_llvm(&d, bin, diff, ndiff, &m), 0);
	printf("%s: %zu addresses, %zu as binutils, %zu where binutils 2.40 "
	    "is wrong and llvm-symbolizer agrees with us\n", key, s.n,
	    s.n - ndiff, ndiff);
	free(diff);
	free(s.a);
	a2l_free(&b);
	a2l_free(&m);
	tdir_remove(&d);
}

START_TEST(c_o0_v4) { compare("C_O0_V4", 0, 500); } END_TEST
START_TEST(c_o0_v5) { compare("C_O0_V5", 1, 500); } END_TEST
START_TEST(c_o2_v4) { compare("C_O2_V4", 0, 500); } END_TEST
START_TEST(c_o2_v5) { compare("C_O2_V5", 1, 500); } END_TEST
START_TEST(rs_v4) { compare("RS_V4", 0, 3000); } END_TEST
START_TEST(rs_v5) { compare("RS_V5", 1, 3000); } END_TEST

Suite *
suite_compare(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("binutils");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, c_o0_v4);
	tcase_add_test(tc, c_o0_v5);
	tcase_add_test(tc, c_o2_v4);
	tcase_add_test(tc, c_o2_v5);
	suite_add_tcase(s, tc);
	return s;
}

/* The programs rustc builds: skipped as a whole without it. */
Suite *
suite_rust(void)
{
	Suite *s = suite_create("rust");
	TCase *tc = tcase_create("binutils");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, rs_v4);
	tcase_add_test(tc, rs_v5);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tcase_files_rust());
	return s;
}
