/*
 * test_files.c: files as they come: not ELF, truncated, corrupted
 * (untrusted input must give clear errors, never a crash), a stripped
 * binary with its DWARF behind .gnu_debuglink (beside it, in .debug/, and
 * refused when the CRC is wrong), one found only through --debug-dir's
 * .build-id/xx/rest.debug layout, and compressed debug sections.
 *
 * The crash of issue 10: a DWARF 5 Rust binary whose .debug_rnglists
 * offset table points outside the section made libdwarf 20210528 read
 * there (SIGSEGV in dwarf_rnglists_get_rle_head); d9top --addr2line now
 * says "DWARF of F unreadable: names from its symbol table only (why)"
 * and prints what it prints for the binary without its DWARF. File names
 * in that message are escaped, and cut in the middle when too long.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>
#include <gelf.h>

#include "../e2e/run.h"
#include "app/addr2line.h"
#include "symbolize/elffile.h"
#include "symbolize/kallsyms.h"
#include "symbolize/symbolizer.h"
#include "../skip.h"
#include "suites.h"
#include "tutil.h"

#define NADDR 64

/* Start addresses (and a middle byte) of up to NADDR/2 functions. */
static size_t
func_addrs(const char *bin, uint64_t *a)
{
	struct d9s_elffile f;
	struct d9_err e;
	size_t i, n = 0;

	ck_assert_int_eq(d9s_elffile_open(&f, bin, &e), 0);
	for (i = 0; i < f.syms.n && n + 2 <= NADDR; i++) {
		if (f.syms.sym[i].size == 0)
			continue;
		a[n++] = f.syms.sym[i].addr;
		a[n++] = f.syms.sym[i].addr + f.syms.sym[i].size / 2;
	}
	d9s_elffile_close(&f);
	return n;
}

/* Open path and look up every address: must not crash; returns the
 * add's result. */
static int
poke(const char *path, const uint64_t *a, size_t n, char *msg, size_t cap)
{
	struct d9s_symbolizer *sym;
	const struct d9s_frame *fr;
	struct d9_err e;
	size_t i, nf;
	uint32_t mod;
	int rc;

	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	rc = d9s_symbolizer_add(sym, path, NULL, 0, &mod, &e);
	snprintf(msg, cap, "%s", rc == 0 ? "" : e.msg);
	if (rc == 0) {
		d9s_symbolizer_index(sym, mod, &e);
		for (i = 0; i < n; i++)
			ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, a[i],
			    (int)(i & 1), &fr, &nf, &e), 0);
	}
	d9s_symbolizer_free(&sym);
	return rc;
}

/* --addr2line on path: exit 0, or 1 with "d9top: PATH: why". */
static void
poke_cli(const char *path, const uint64_t *a, size_t n)
{
	char *argv[3 + NADDR], buf[NADDR][24], *errtext;
	FILE *out = fopen("/dev/null", "w"), *err = tmpfile();
	size_t i;
	int rc;

	ck_assert(out != NULL && err != NULL);
	argv[0] = "-e";
	argv[1] = (char *)path;
	for (i = 0; i < n; i++) {
		snprintf(buf[i], sizeof buf[i], "%" PRIx64, a[i]);
		argv[2 + i] = buf[i];
	}
	rc = d9a_addr2line_stream((int)(2 + n), argv, stdin, out, err);
	ck_assert_msg(rc == 0 || rc == 1, "%s: exit %d", path, rc);
	errtext = stream_text(err);
	if (rc == 1)
		ck_assert_msg(strncmp(errtext, "d9top: ", 7) == 0 &&
		    strstr(errtext, path) != NULL, "%s", errtext);
	free(errtext);
	fclose(out);
}

START_TEST(not_elf)
{
	static const char *const bodies[] = { "", "hello, world\n",
	    "\177ELF", "\177ELF\002\001\001\0\0\0\0\0\0\0\0\0\003\0>\0" };
	char path[PATH_MAX], msg[D9_ERR_MSG_MAX];
	uint64_t a[1] = { 0x1000 };
	struct tdir d;
	size_t i;

	tdir_make(&d);
	for (i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		tdir_file(&d, "bad", path);
		write_all(path, bodies[i], i == 3 ? 20 : strlen(bodies[i]));
		ck_assert_int_ne(poke(path, a, 1, msg, sizeof msg), 0);
		ck_assert_msg(strstr(msg, "ELF") != NULL, "%s", msg);
		poke_cli(path, a, 1);
	}
	ck_assert_int_ne(poke(d.path, a, 1, msg, sizeof msg), 0);
	ck_assert_str_eq(msg, "not a regular file");
	tdir_remove(&d);
}
END_TEST

static void
truncations(const char *bin)
{
	char path[PATH_MAX], msg[D9_ERR_MSG_MAX];
	uint64_t a[NADDR];
	size_t n = func_addrs(bin, a), len, cut, i;
	struct tdir d;
	char *img = read_all(bin, &len);

	tdir_make(&d);
	tdir_file(&d, "cut", path);
	for (i = 0; i < 48; i++) {
		/* the headers byte by byte, then spread over the file */
		cut = i < 16 ? i * 5 : i < 24 ? 64 + (i - 16) * 60 :
		    len / 24 * (i - 24) + 1;
		write_all(path, img, cut);
		msg[0] = '\0';
		/* past its ELF header: said cut short, not named from
		 * what is left (libelf finds no section in it) */
		ck_assert_msg(poke(path, a, n, msg, sizeof msg) != 0 ||
		    cut < 64, "cut at %zu: %s", cut, msg);
		ck_assert_msg(cut < 64 || strstr(msg, "cut short") != NULL,
		    "cut at %zu: %s", cut, msg);
		poke_cli(path, a, n);
	}
	free(img);
	tdir_remove(&d);
}

START_TEST(truncated_c) { truncations(prog_path("C_O2_V5")); } END_TEST

/* The file range of the .debug_* sections. */
static void
debug_range(const char *bin, size_t *lo, size_t *hi)
{
	FILE *f = fopen(bin, "rb");
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;

	ck_assert_ptr_nonnull(f);
	elf_version(EV_CURRENT);
	ck_assert_ptr_nonnull(elf = elf_begin(fileno(f), ELF_C_READ, NULL));
	ck_assert_int_eq(elf_getshdrstrndx(elf, &shstr), 0);
	*lo = SIZE_MAX;
	*hi = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
		name = elf_strptr(elf, shstr, sh.sh_name);
		if (name == NULL || strncmp(name, ".debug_", 7) != 0)
			continue;
		if (sh.sh_offset < *lo)
			*lo = sh.sh_offset;
		if (sh.sh_offset + sh.sh_size > *hi)
			*hi = sh.sh_offset + sh.sh_size;
	}
	elf_end(elf);
	fclose(f);
	ck_assert_uint_lt(*lo, *hi);
}

/* Flip bytes in the DWARF sections: a fixed pseudo-random sequence. */
static void
corruptions(const char *bin, int variants, int flips)
{
	char path[PATH_MAX], msg[D9_ERR_MSG_MAX];
	uint64_t a[NADDR], x = 0x9e3779b97f4a7c15ULL;
	size_t n = func_addrs(bin, a), len, lo, hi;
	char *img = read_all(bin, &len), *copy = malloc(len);
	struct tdir d;

	ck_assert_ptr_nonnull(copy);
	debug_range(bin, &lo, &hi);
	tdir_make(&d);
	tdir_file(&d, "corrupt", path);
	for (int v = 0; v < variants; v++) {
		memcpy(copy, img, len);
		for (int k = 0; k < flips; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			copy[lo + x % (hi - lo)] ^= (char)(1 + (x >> 40) % 255);
		}
		write_all(path, copy, len);
		poke(path, a, n, msg, sizeof msg);
	}
	free(copy);
	free(img);
	tdir_remove(&d);
}

START_TEST(corrupt_c) { corruptions(prog_path("C_O2_V5"), 60, 8); } END_TEST
START_TEST(corrupt_c4) { corruptions(prog_path("C_O2_V4"), 60, 8); } END_TEST

/* Every address gives the same frames in both modules. */
static void
same_frames(struct d9s_symbolizer *sym, uint32_t m1, uint32_t m2,
    const uint64_t *a, size_t n)
{
	const struct d9s_frame *f1, *f2;
	struct d9_err e;
	size_t i, k, n1, n2;

	for (i = 0; i < n; i++) {
		ck_assert_int_eq(d9s_symbolizer_lookup(sym, m1, a[i], 0, &f1,
		    &n1, &e), 0);
		ck_assert_int_eq(d9s_symbolizer_lookup(sym, m2, a[i], 0, &f2,
		    &n2, &e), 0);
		ck_assert_uint_eq(n1, n2);
		for (k = 0; k < n1; k++) {
			ck_assert_pstr_eq(f1[k].function, f2[k].function);
			ck_assert_pstr_eq(f1[k].file, f2[k].file);
			ck_assert_uint_eq(f1[k].line, f2[k].line);
		}
	}
}

static int
objcopy(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[] = { (char *)prog_path("OBJCOPY"), (char *)a1, (char *)a2,
	    (char *)a3, (char *)a4, NULL };

	return run_cmd(argv, NULL, NULL);
}

/* Add path to a fresh symbolizer next to the original; 0 when both
 * modules answer alike. debug_dir may be NULL. */
static void
check_split(const char *orig, const char *path, const char *debug_dir,
    const char *want_debug)
{
	struct d9s_symbolizer *sym;
	struct d9s_module_info info;
	struct d9_err e;
	uint64_t a[NADDR];
	size_t n = func_addrs(orig, a);
	uint32_t m1, m2;

	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	if (debug_dir != NULL)
		ck_assert_int_eq(d9s_symbolizer_add_debug_dir(sym, debug_dir,
		    &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, orig, NULL, 0, &m1, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, path, NULL, 0, &m2, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_info(sym, m2, &info, &e), 0);
	ck_assert_msg(info.debug_path != NULL, "%s: %s", path, info.no_debug);
	ck_assert_str_eq(info.debug_path, want_debug);
	ck_assert_int_eq(d9s_symbolizer_index(sym, m2, &e), 0);
	same_frames(sym, m1, m2, a, n);
	d9s_symbolizer_free(&sym);
}

/* 1, the test skipped, when objcopy is not installed. */
static int
no_objcopy(void)
{
	if (prog_path("OBJCOPY") != NULL)
		return 0;
	t_skip("objcopy is not installed");
	return 1;
}

START_TEST(debuglink)
{
	const char *bin = prog_path("C_O2_V5");
	char dbg[PATH_MAX], stripped[PATH_MAX], dotdir[PATH_MAX];
	char moved[PATH_MAX], link[PATH_MAX + 32], msg[D9_ERR_MSG_MAX];
	struct d9s_symbolizer *sym;
	struct d9s_module_info info;
	struct d9_err e;
	struct tdir d;
	uint32_t mod;
	FILE *f;

	if (no_objcopy())
		return;
	tdir_make(&d);
	tdir_file(&d, "prog.debug", dbg);
	tdir_file(&d, "prog", stripped);
	snprintf(link, sizeof link, "--add-gnu-debuglink=%s", dbg);
	ck_assert_int_eq(objcopy("--only-keep-debug", bin, dbg, NULL), 0);
	ck_assert_int_eq(objcopy("--strip-debug", link, bin, stripped), 0);
	check_split(bin, stripped, NULL, dbg);
	/* in .debug/ beside the binary */
	ck_assert_int_eq(mkdir(tdir_file(&d, ".debug", dotdir), 0755), 0);
	ck_assert_int_eq(rename(dbg, tdir_file(&d, ".debug/prog.debug",
	    moved)), 0);
	check_split(bin, stripped, NULL, moved);
	/* a debug file that changed since the link was made is refused */
	ck_assert_ptr_nonnull(f = fopen(moved, "ab"));
	fputc(0, f);
	fclose(f);
	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, stripped, NULL, 0, &mod, &e),
	    0);
	ck_assert_int_eq(d9s_symbolizer_info(sym, mod, &info, &e), 0);
	ck_assert_ptr_null(info.debug_path);
	ck_assert_msg(strstr(info.no_debug, "CRC does not match") != NULL,
	    "%s", info.no_debug);
	ck_assert_int_lt(d9s_symbolizer_index(sym, mod, &e), 0);
	ck_assert_str_eq(e.msg, info.no_debug);
	d9s_symbolizer_free(&sym);
	(void)msg;
	tdir_remove(&d);
}
END_TEST

START_TEST(debug_dir)
{
	const char *bin = prog_path("C_O2_V4");
	char dbg[2 * PATH_MAX], stripped[PATH_MAX], dir[PATH_MAX];
	char sub[PATH_MAX];
	char hex[2 * D9S_BUILD_ID_MAX + 1], file[PATH_MAX + 64];
	char *out1, *out2;
	struct d9s_elffile f;
	struct d9_err e;
	struct tdir d;
	uint64_t a[NADDR];
	size_t n = func_addrs(bin, a), i;

	if (no_objcopy())
		return;
	tdir_make(&d);
	ck_assert_int_eq(d9s_elffile_open(&f, bin, &e), 0);
	d9s_build_id_hex(f.build_id, f.build_id_len, hex);
	d9s_elffile_close(&f);
	ck_assert_int_eq(mkdir(tdir_file(&d, "dbg", dir), 0755), 0);
	ck_assert_int_eq(mkdir(tdir_file(&d, "dbg/.build-id", sub), 0755), 0);
	snprintf(file, sizeof file, "%s/%.2s", sub, hex);
	ck_assert_int_eq(mkdir(file, 0755), 0);
	snprintf(dbg, sizeof dbg, "%s/%s.debug", file, hex + 2);
	ck_assert_int_eq(objcopy("--only-keep-debug", bin, dbg, NULL), 0);
	ck_assert_int_eq(objcopy("--strip-all", bin,
	    tdir_file(&d, "prog", stripped), NULL), 0);
	check_split(bin, stripped, dir, dbg);
	/* the same through --addr2line --debug-dir */
	for (i = 0; i < 2; i++) {
		char *argv[5 + NADDR], buf[NADDR][24];
		FILE *out = tmpfile();
		size_t k;

		ck_assert_ptr_nonnull(out);
		argv[0] = "--debug-dir";
		argv[1] = dir;
		argv[2] = "-e";
		argv[3] = i == 0 ? (char *)bin : stripped;
		for (k = 0; k < n; k++) {
			snprintf(buf[k], sizeof buf[k], "%" PRIx64, a[k]);
			argv[4 + k] = buf[k];
		}
		ck_assert_int_eq(d9a_addr2line_stream((int)(4 + n), argv, stdin,
		    out, stderr), 0);
		*(i == 0 ? &out1 : &out2) = stream_text(out);
	}
	ck_assert_str_eq(out1, out2);
	free(out1);
	free(out2);
	tdir_remove(&d);
}
END_TEST

/* zlib-compressed DWARF reads like plain DWARF; zstd (unreadable for
 * libdwarf 20210528, DEPENDENCIES 4.3) is a clear error, and --addr2line
 * says so once and falls back to the symbol table. */
START_TEST(compressed)
{
	const char *bin = prog_path("C_O2_V4");
	char gz[PATH_MAX], zs[PATH_MAX], *out, *errtext;
	char *argv[] = { "-e", zs, "0" };
	struct d9s_symbolizer *sym;
	struct d9_err e;
	struct tdir d;
	FILE *o, *er;
	uint32_t mod;

	if (no_objcopy())
		return;
	tdir_make(&d);
	ck_assert_int_eq(objcopy("--compress-debug-sections=zlib-gabi", bin,
	    tdir_file(&d, "gz", gz), NULL), 0);
	check_split(bin, gz, NULL, gz);
	if (objcopy("--compress-debug-sections=zstd", bin,
	    tdir_file(&d, "zs", zs), NULL) != 0) {
		t_skip("objcopy cannot write zstd sections: zstd not tested");
		tdir_remove(&d);
		return;
	}
	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_add(sym, zs, NULL, 0, &mod, &e), 0);
	ck_assert_int_eq(d9s_symbolizer_index(sym, mod, &e), -D9_ERR_CONTAINER);
	ck_assert_ptr_nonnull(strstr(e.msg, "compressed with zstd"));
	d9s_symbolizer_free(&sym);
	ck_assert_ptr_nonnull(o = tmpfile());
	ck_assert_ptr_nonnull(er = tmpfile());
	ck_assert_int_eq(d9a_addr2line_stream(3, argv, stdin, o, er), 0);
	out = stream_text(o);
	errtext = stream_text(er);
	ck_assert_str_eq(out, "??\n??:0\n");
	ck_assert_ptr_nonnull(strstr(errtext, "unreadable: names from its "
	    "symbol table only (debug sections compressed with zstd are not "
	    "supported)"));
	free(out);
	free(errtext);
	tdir_remove(&d);
}
END_TEST

/* File offset of the offset table of the first .debug_rnglists unit
 * of img (the file bin) that has one, or 0; *n its entries. */
static size_t
rnglists_table(const char *bin, const char *img, uint32_t *n)
{
	size_t size, off = section_at(bin, ".debug_rnglists", &size), u = 0;

	/* 32-bit units: length, version, sizes, offset_entry_count */
	while (off > 0 && u + 12 <= size) {
		const unsigned char *h = (const unsigned char *)img + off + u;
		uint32_t ulen = h[0] | h[1] << 8 | h[2] << 16 |
		    (uint32_t)h[3] << 24;

		*n = h[8] | h[9] << 8 | h[10] << 16 | (uint32_t)h[11] << 24;
		if (*n > 0)
			return off + u + 12;
		u += 4 + (size_t)ulen;
	}
	return 0;
}

/* Up to NADDR function addresses of bin as "a b c ..." for a shell. */
static void
addr_words(const char *bin, char *out, size_t cap)
{
	uint64_t a[NADDR];
	size_t n = func_addrs(bin, a), o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && o + 20 < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, " %" PRIx64, a[i]);
}

static void
note_into(void *ctx, const char *msg)
{
	char *out = ctx;

	/* the first note is kept, a second one is marked */
	if (out[0] == '\0')
		snprintf(out, D9_ERR_MSG_MAX * 4, "%s", msg);
	else
		strcat(out, "\n(noted twice)");
}

/* The function lines (odd ones) of two --addr2line outputs are the
 * same, the file lines have no line number; how many names are known. */
static size_t
same_names(const char *a, const char *b)
{
	size_t named = 0;

	for (int odd = 1; *a != '\0' && *b != '\0'; odd = !odd) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");

		if (odd) {
			ck_assert_msg(la == lb && memcmp(a, b, la) == 0,
			    "%.*s vs %.*s", (int)la, a, (int)lb, b);
			named += strncmp(a, "??", 2) != 0;
		} else
			ck_assert_msg(la > 2 && memcmp(a + la - 2, ":?", 2) == 0,
			    "%.*s", (int)la, a);
		a += la + (a[la] != '\0');
		b += lb + (b[lb] != '\0');
	}
	ck_assert(*a == '\0' && *b == '\0');
	return named;
}

START_TEST(rnglists_offset)
{
	const char *bin = prog_path("RS_V5");
	char dir[PATH_MAX], corrupt[PATH_MAX], stripped[PATH_MAX];
	char hostile[PATH_MAX], want[2 * PATH_MAX], words[NADDR * 20];
	char note[D9_ERR_MSG_MAX * 4] = "";
	const char *tail = " unreadable: names from its symbol table only "
	    "(corrupt .debug_rnglists unit at offset 0)";
	struct run_result r1, r2, r3;
	struct d9s_symbolizer *sym;
	const struct d9s_frame *fr;
	struct d9_err e;
	struct tdir d;
	size_t len, table, nf, named = 0;
	uint32_t mod, n = 0;
	char *img;

	if (bin == NULL) {
		t_skip("RS_V5: not built (no rustc?)");
		return;
	}
	setenv("D9TOP", prog_path("D9TOP"), 1);
	tdir_make(&d);
	/* every entry of the offset table far outside the section (before
	 * the checks, libdwarf read there: SIGSEGV) */
	img = read_all(bin, &len);
	ck_assert_uint_gt(table = rnglists_table(bin, img, &n), 0);
	for (uint32_t k = 0; k < n; k++)
		memcpy(img + table + 4 * k, "\0\0\xff\x7f", 4);
	write_all(tdir_file(&d, "corrupt", corrupt), img, len);
	ck_assert_int_eq(objcopy("--strip-debug", bin,
	    tdir_file(&d, "stripped", stripped), NULL), 0);
	addr_words(bin, words, sizeof words);

	/* survived, said, and named as without DWARF */
	run_d9top(&r1, NULL, "--addr2line -e '%s'%s", corrupt, words);
	run_d9top(&r2, NULL, "--addr2line -e '%s'%s", stripped, words);
	ck_assert_msg(r1.status == 0, "status %d: %s", r1.status, r1.err);
	ck_assert_int_eq(r2.status, 0);
	snprintf(want, sizeof want, "d9top: DWARF of %s%s\n", corrupt, tail);
	ck_assert_str_eq(r1.err, want);
	named = same_names(r1.out, r2.out);
	ck_assert_uint_gt(named, 2);

	/* a hostile file name reaches the terminal escaped */
	write_all(tdir_file(&d, "bad\033]0;owned\007.bin", hostile), img,
	    len);
	run_d9top(&r3, NULL, "--addr2line -e '%s'%s", hostile, words);
	ck_assert_int_eq(r3.status, 0);
	ck_assert_ptr_null(strchr(r3.err, '\033'));
	ck_assert_ptr_null(strchr(r3.err, '\007'));
	ck_assert_ptr_nonnull(strstr(r3.err, "/bad\\x1b]0;owned\\x07.bin"
	    " unreadable: names from its symbol table only"));

	/* through the symbolizer: noted once, a long path cut in the middle */
	snprintf(dir, sizeof dir, "%s", d.path);
	for (int i = 0; i < 6; i++) {
		size_t end = strlen(dir);

		snprintf(dir + end, sizeof dir - end, "/%0100d", i);
		ck_assert_int_eq(mkdir(dir, 0700), 0);
	}
	snprintf(corrupt, sizeof corrupt, "%s/corrupt", dir);
	write_all(corrupt, img, len);
	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	d9s_symbolizer_on_note(sym, note_into, note);
	ck_assert_int_eq(d9s_symbolizer_add(sym, corrupt, NULL, 0, &mod, &e),
	    0);
	ck_assert_int_eq(d9s_symbolizer_index(sym, mod, &e), -D9_ERR_BAD_VALUE);
	ck_assert_int_eq(d9s_symbolizer_lookup(sym, mod, 0x1000, 0, &fr, &nf,
	    &e), 0);
	ck_assert_int_eq(d9s_symbolizer_index(sym, mod, &e), -D9_ERR_BAD_VALUE);
	ck_assert_msg(strncmp(note, "DWARF of ", 9) == 0 && strlen(note) < 512
	    && strstr(note, "...") != NULL && strlen(note) > strlen(tail) &&
	    strcmp(note + strlen(note) - strlen(tail), tail) == 0, "%s", note);
	d9s_symbolizer_free(&sym);
	free(img);
	run_free(&r1);
	run_free(&r2);
	run_free(&r3);
	tdir_remove(&d);
}
END_TEST

/* Devices and FIFOs where d9top reads a file whole are refused at once:
 * an open of a FIFO would block, /dev/zero never ends. */
START_TEST(special_files)
{
	const char *bin = prog_path("C_O2_V5");
	char fifo[PATH_MAX], dbg[PATH_MAX], stripped[PATH_MAX];
	char link[PATH_MAX + 32];
	struct d9s_symbolizer *sym;
	struct d9s_kallsyms *ks;
	struct d9s_module_info info;
	struct d9_err e;
	struct tdir d;
	uint32_t mod;

	tdir_make(&d);
	ck_assert_int_eq(mkfifo(tdir_file(&d, "fifo", fifo), 0600), 0);
	ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
	ck_assert_int_ne(d9s_symbolizer_add(sym, "/dev/zero", NULL, 0, &mod,
	    &e), 0);
	ck_assert_str_eq(e.msg, "not a regular file");
	ck_assert_int_ne(d9s_symbolizer_add(sym, fifo, NULL, 0, &mod, &e), 0);
	ck_assert_str_eq(e.msg, "not a regular file");
	ck_assert_int_ne(d9s_symbolizer_add_debug_dir(sym, fifo, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, ": not a directory"));
	d9s_symbolizer_free(&sym);
	ck_assert_int_ne(d9s_kallsyms_load(&ks, fifo, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "fifo: not a regular file"));
	ck_assert_int_ne(d9s_kallsyms_load(&ks, "/dev/zero", &e), 0);
	ck_assert_str_eq(e.msg, "/dev/zero: not a regular file");
	/* a .gnu_debuglink that names a FIFO: no debug file, said why */
	if (prog_path("OBJCOPY") == NULL)
		t_skip("objcopy is not installed: the debuglink case not tested");
	else {
		tdir_file(&d, "prog.debug", dbg);
		tdir_file(&d, "prog", stripped);
		snprintf(link, sizeof link, "--add-gnu-debuglink=%s", dbg);
		ck_assert_int_eq(objcopy("--only-keep-debug", bin, dbg, NULL),
		    0);
		ck_assert_int_eq(objcopy("--strip-debug", link, bin, stripped),
		    0);
		ck_assert_int_eq(rename(fifo, dbg), 0);
		ck_assert_int_eq(d9s_symbolizer_new(&sym, &e), 0);
		ck_assert_int_eq(d9s_symbolizer_add(sym, stripped, NULL, 0,
		    &mod, &e), 0);
		ck_assert_int_eq(d9s_symbolizer_info(sym, mod, &info, &e), 0);
		ck_assert_ptr_null(info.debug_path);
		ck_assert_msg(strstr(info.no_debug, "not a regular file") !=
		    NULL, "%s", info.no_debug);
		d9s_symbolizer_free(&sym);
	}
	tdir_remove(&d);
}
END_TEST

/* A binary's names reach --addr2line's output escaped. */
START_TEST(hostile_names)
{
	const char *bin = prog_path("C_O2_V5");
	char path[PATH_MAX], addr[32], *out, *errtext;
	char *argv[] = { "-e", path, addr };
	struct d9s_elffile f;
	struct d9_err e;
	struct tdir d;
	FILE *o, *er;

	if (no_objcopy())
		return;
	ck_assert_int_eq(d9s_elffile_open(&f, bin, &e), 0);
	addr[0] = '\0';
	for (size_t i = 0; i < f.syms.n; i++)
		if (strcmp(f.syms.sym[i].name, "fib") == 0)
			snprintf(addr, sizeof addr, "%#" PRIx64,
			    f.syms.sym[i].addr);
	d9s_elffile_close(&f);
	ck_assert_str_ne(addr, "");
	tdir_make(&d);
	ck_assert_int_eq(objcopy("--strip-debug", "--redefine-sym=fib=fib"
	    "\033]0;PWNED\007\342\200\256x", bin, tdir_file(&d, "bin", path)),
	    0);
	ck_assert_ptr_nonnull(o = tmpfile());
	ck_assert_ptr_nonnull(er = tmpfile());
	ck_assert_int_eq(d9a_addr2line_stream(3, argv, stdin, o, er), 0);
	out = stream_text(o);
	errtext = stream_text(er);
	ck_assert_msg(strncmp(out, "fib\\x1b]0;PWNED\\x07\\u202ex\n", 27) == 0,
	    "%s", out);
	ck_assert_str_eq(errtext, "");
	free(out);
	free(errtext);
	tdir_remove(&d);
}
END_TEST

START_TEST(corrupt_rs)
{
	if (prog_path("RS_V5") == NULL) {
		t_skip("RS_V5: not built (no rustc?)");
		return;
	}
	corruptions(prog_path("RS_V5"), 12, 16);
}
END_TEST

Suite *
suite_files(void)
{
	Suite *s = suite_create("files");
	TCase *tc = tcase_create("files");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, not_elf);
	tcase_add_test(tc, truncated_c);
	tcase_add_test(tc, corrupt_c);
	tcase_add_test(tc, corrupt_c4);
	tcase_add_test(tc, debuglink);
	tcase_add_test(tc, debug_dir);
	tcase_add_test(tc, compressed);
	tcase_add_test(tc, special_files);
	tcase_add_test(tc, hostile_names);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tcase_files_plt());
	return s;
}

TCase *
tcase_files_rust(void)
{
	TCase *tc = tcase_create("files");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, corrupt_rs);
	tcase_add_test(tc, rnglists_offset);
	return tc;
}
