/*
 * test_unit.c: the demangler table of DEPENDENCIES 7, the symbolizer
 * facade on the C test program (frames, return addresses, kernel
 * addresses, caching, file offsets, build id checks), addr2line's frames
 * as a library call (symbolize/addr2line.h) and the --addr2line command
 * line (app/addr2line.h: exit codes, messages, stdin).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "app/addr2line.h"
#include "base/demangle.h"
#include "symbolize/addr2line.h"
#include "symbolize/elffile.h"
#include "symbolize/symbolizer.h"
#include "suites.h"
#include "tutil.h"

static const struct {
	const char	*in;
	const char	*out;		/* NULL: not mangled */
} demangle_table[] = {
	{ "_ZN3app4burn17h58aa186e317f491bE", "app::burn" },
	{ "_RNvCscAEuU5ehQ2G_3app4burn", "app::burn" },
	{ "_RNvMNtNtNtCsjrHSEGnQ3l9_3std4sync4mpmc5wakerNtB2_5Waker6notify",
	  "<std::sync::mpmc::waker::Waker>::notify" },
	{ "_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$"
	  "..$u7b$$u7b$closure$u7d$$u7d$$GT$17h2a3e8e1ed8d2f1a5E",
	  "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>" },
	{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
	  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
	{ "_Z3fooi.cold", "foo(int) [clone .cold]" },
	{ "_ZN3app4burn17h58aa186e317f491bE.llvm.1234567890", "app::burn" },
	{ "main", NULL },
	/* bfd_demangle's extras: version suffix and leading dots kept */
	{ "_Z3fooi@GLIBC_2.2.5", "foo(int)@GLIBC_2.2.5" },
	{ "._Z3fooi", ".foo(int)" },
	{ "", NULL },
};

START_TEST(demangle)
{
	size_t i;

	for (i = 0; i < sizeof demangle_table / sizeof demangle_table[0];
	    i++) {
		char *got = d9_demangle(demangle_table[i].in);

		if (demangle_table[i].out == NULL)
			ck_assert_msg(got == NULL, "%s -> %s",
			    demangle_table[i].in, got);
		else
			ck_assert_msg(got != NULL &&
			    strcmp(got, demangle_table[i].out) == 0,
			    "%s -> %s", demangle_table[i].in, got);
		free(got);
	}
	ck_assert_ptr_null(d9_demangle(NULL));
}
END_TEST

/* Address of the function symbol name in bin. */
static uint64_t
sym_addr(const char *bin, const char *name)
{
	struct d9s_elffile f;
	struct d9_err e;
	uint64_t a = 0;
	size_t i;

	ck_assert_int_eq(d9s_elffile_open(&f, bin, &e), 0);
	for (i = 0; i < f.syms.n; i++)
		if (strcmp(f.syms.sym[i].name, name) == 0)
			a = f.syms.sym[i].addr;
	d9s_elffile_close(&f);
	ck_assert_msg(a != 0, "no symbol %s in %s", name, bin);
	return a;
}

START_TEST(facade_lookup)
{
	const char *bin = prog_path("C_O2_V4");
	const struct d9s_frame *fr, *fr2;
	struct d9s_symbolizer *sym;
	struct d9s_module_info info;
	struct d9_err e;
	uint64_t fib = sym_addr(bin, "fib"), addr;
	size_t n, n2;
	uint32_t mod;

	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, NULL, 0, &mod, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_index(sym, mod, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, fib, 0, &fr, &n, &e),
	    0);
	ck_assert_uint_ge(n, 1);
	ck_assert_str_eq(fr[0].function, "fib");
	ck_assert_ptr_nonnull(strstr(fr[0].file, "prog/inline.c"));
	ck_assert_uint_eq(fr[0].line, 57);
	/* cached: the same frames come back */
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, fib, 0, &fr2, &n2,
	    &e), 0);
	ck_assert_ptr_eq(fr, fr2);
	ck_assert_uint_eq(n, n2);
	/* a return address is looked up one byte earlier */
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, fib + 1, 1, &fr2, &n2,
	    &e), 0);
	ck_assert_ptr_eq(fr, fr2);
	/* kernel addresses are not ours */
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, 0xffffffff81000000ULL,
	    0, &fr2, &n2, &e), 0);
	ck_assert_uint_eq(n2, 0);
	/* outside every section: nothing known */
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, 0x7fff0000, 0, &fr2,
	    &n2, &e), 0);
	ck_assert_uint_eq(n2, 0);
	/* bad module id */
	ck_assert_int_lt(d9s_symbolizer_lookup(sym, mod + 1, fib, 0, &fr2, &n2,
	    &e), 0);
	/* gcc/ld put text at the same file offset as its address */
	ck_assert_int_eq(d9s_symbolizer_file_addr(sym, mod, fib, &addr, &e), 0);
	ck_assert_uint_eq(addr, fib);
	ck_assert_int_lt(d9s_symbolizer_file_addr(sym, mod, 1ULL << 40, &addr,
	    &e), 0);
	ck_assert_int_eq(d9s_symbolizer_info(sym, mod, &info, &e), 0);
	ck_assert_str_eq(info.debug_path, bin);
	ck_assert_uint_eq(info.build_id_len, 20);
	d9s_symbolizer_free(&sym);
	ck_assert_ptr_null(sym);
	d9s_symbolizer_free(&sym);
}
END_TEST

/* An inline chain: mix3 inlined into op_a (-O2), innermost first. */
START_TEST(facade_inline)
{
	const char *bin = prog_path("C_O2_V5");
	const struct d9s_frame *fr;
	struct d9s_symbolizer *sym;
	struct d9_err e;
	size_t n;
	uint32_t mod;

	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, NULL, 0, &mod, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, sym_addr(bin, "op_a"),
	    0, &fr, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(fr[0].function, "mix3");
	ck_assert_ptr_nonnull(strstr(fr[0].file, "prog/inc/helpers.h"));
	ck_assert(fr[0].flags & D9S_FRAME_INLINED);
	ck_assert_str_eq(fr[1].function, "op_a");
	ck_assert_ptr_nonnull(strstr(fr[1].file, "prog/inline.c"));
	ck_assert_uint_eq(fr[1].line, 76);
	ck_assert(!(fr[1].flags & D9S_FRAME_INLINED));
	d9s_symbolizer_free(&sym);
}
END_TEST

/* addr2line's answers without the command line: the inline chain of
 * op_a, then an address no section holds (binutils' "??", "??:0"). */
START_TEST(a2l_frames)
{
	const char *bin = prog_path("C_O2_V5");
	struct d9s_a2l a;
	struct d9s_a2l_answer ans = { 0 };
	struct d9_err e;
	char why[256];

	ck_assert_int_eq(d9s_a2l_open(&a, bin, NULL, 0, &e, why, sizeof why),
	    0);
	ck_assert_str_eq(why, "");
	ck_assert_int_eq(d9s_a2l_elf32(&a), 0);
	ck_assert_int_eq(d9s_a2l_resolve(&a, sym_addr(bin, "op_a"), &ans), 0);
	ck_assert_uint_eq(ans.n, 2);
	ck_assert_str_eq(ans.f[0].function, "mix3");
	ck_assert_ptr_nonnull(strstr(ans.f[0].file, "prog/inc/helpers.h"));
	ck_assert_str_eq(ans.f[1].function, "op_a");
	ck_assert_uint_eq(ans.f[1].line, 76);
	ck_assert_uint_eq(ans.f[1].discriminator, ans.f[0].discriminator);
	ck_assert_int_eq(d9s_a2l_resolve(&a, 0x7fff0000, &ans), 0);
	ck_assert_uint_eq(ans.n, 0);
	d9s_a2l_answer_free(&ans);
	d9s_a2l_close(&a);
	ck_assert_int_eq(d9s_a2l_open(&a, "/nonexistent/a.out", NULL, 0, &e,
	    why, sizeof why), -1);
}
END_TEST

START_TEST(build_id_check)
{
	const char *bin = prog_path("C_O2_V4");
	struct d9s_symbolizer *sym;
	struct d9s_module_info info;
	struct d9_err e;
	uint8_t id[D9S_BUILD_ID_MAX];
	size_t len;
	uint32_t mod, mod2;

	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, NULL, 0, &mod, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_info(sym, mod, &info, &e), 0);
	len = info.build_id_len;
	memcpy(id, info.build_id, len);
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, id, len, &mod2, &e), 0);
	ck_assert_uint_eq(mod2, mod + 1);
	id[len - 1] ^= 0xff;
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, id, len, &mod2, &e),
	    -D9_ERR_BAD_VALUE);
	ck_assert_msg(strstr(e.msg, "build id mismatch: file has ") != NULL,
	    "%s", e.msg);
	ck_assert_int_eq(d9s_symbolizer_add(sym, bin, id, 4, &mod2, &e),
	    -D9_ERR_BAD_VALUE);
	d9s_symbolizer_free(&sym);
}
END_TEST

/* Run --addr2line with argv; its stdout and stderr land in out/err. */
static int
cli(int argc, char **argv, const char *stdin_text, char **out, char **err)
{
	FILE *in = tmpfile(), *o = tmpfile(), *er = tmpfile();
	int rc;

	ck_assert(in != NULL && o != NULL && er != NULL);
	fputs(stdin_text, in);
	rewind(in);
	rc = d9a_addr2line_stream(argc, argv, in, o, er);
	*out = stream_text(o);
	*err = stream_text(er);
	fclose(in);
	return rc;
}

START_TEST(cli_usage)
{
	const char *bin = prog_path("C_O2_V4");
	char addr[32], addr0x[40], *out, *err, *out2, *err2;

	snprintf(addr, sizeof addr, "%" PRIx64, sym_addr(bin, "fib"));
	snprintf(addr0x, sizeof addr0x, "0x%s", addr);
	{
		char *argv[] = { "-e", (char *)bin, addr, "0x0" };

		ck_assert_int_eq(cli(4, argv, "", &out, &err), 0);
		ck_assert_ptr_nonnull(strstr(out, "fib\n"));
		ck_assert_ptr_nonnull(strstr(out,
		    "prog/inline.c:57\n??\n??:0\n"));
		ck_assert_str_eq(err, "");
		free(err);
	}
	{
		/* stdin, with 0x prefixes, gives the same answers */
		char *argv[] = { "-f", "-i", "-C", "--exe", (char *)bin };
		char text[64];

		snprintf(text, sizeof text, "%s\n0\n", addr0x);
		ck_assert_int_eq(cli(5, argv, text, &out2, &err2), 0);
		ck_assert_str_eq(out, out2);
		free(out);
		free(out2);
		free(err2);
	}
	{
		char *argv[] = { "-e", "/nonexistent/bin", addr };

		ck_assert_int_eq(cli(3, argv, "", &out, &err), 1);
		ck_assert_str_eq(err, "d9top: /nonexistent/bin: No such file "
		    "or directory\n");
		free(out);
		free(err);
	}
	{
		char *argv[] = { "-q", "-e", (char *)bin };

		ck_assert_int_eq(cli(3, argv, "", &out, &err), 2);
		ck_assert_ptr_nonnull(strstr(err, "usage: d9top --addr2line"));
		free(out);
		free(err);
	}
	{
		char *argv[] = { "-e" };

		ck_assert_int_eq(cli(1, argv, "", &out, &err), 2);
		free(out);
		free(err);
	}
}
END_TEST

Suite *
suite_unit(void)
{
	Suite *s = suite_create("unit");
	TCase *tc = tcase_create("unit");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, demangle);
	tcase_add_test(tc, facade_lookup);
	tcase_add_test(tc, facade_inline);
	tcase_add_test(tc, a2l_frames);
	tcase_add_test(tc, build_id_check);
	tcase_add_test(tc, cli_usage);
	suite_add_tcase(s, tc);
	return s;
}
