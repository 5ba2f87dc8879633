/*
 * test_resolve.c: d9top naming the addresses a trace leaves unnamed
 * (src/symbolize/resolver.h), end to end through `d9top --json`:
 *
 *  - a dial9-like trace (no maps) of the test program c_o2_v5, its
 *    addresses moved by an ASLR bias, whose symbol table names only some
 *    of them: --binary infers the bias and names the rest, --load-base
 *    gives the same answer, too few named addresses give no bias;
 *  - a libd9rec-like trace (ProcMapsEntry rows, no symbol table): the
 *    recorded path is used when its build id matches and refused, with a
 *    message, when not; a missing file is found through --binary or, as
 *    a separate debug file, through --debug-dir;
 *  - kernel addresses labelled "[kernel] 0x...", or named by --kallsyms;
 *  - a --binary whose DWARF is refused (a corrupt .debug_rnglists list):
 *    its symbol table still names the frames, and d9top says once that
 *    its DWARF is unreadable;
 *  - --export parquet with --binary over two segments: each segment's
 *    stacks are named (a resolver per segment's model), whichever worker
 *    exports it.
 *
 * Every trace has one poll on worker 0 (thread 100) with three on-CPU
 * samples of one callchain, so its frames appear in worstPolls.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "../e2e/minijson.h"
#include "../e2e/run.h"
#include "../fixtures/mktrace.h"
#include "../skip.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "suites.h"
#include "symbolize/elffile.h"
#include "symbolize/resolver.h"
#include "tutil.h"

#define BIAS		((uint64_t)0x55d4c0000000)
#define MAP_BASE	((uint64_t)0x7f1234500000)
#define T0		1000000000ULL
#define S_MAPS		40		/* our schema id for ProcMapsEntry */

/* Callchain of the test program, leaf first. */
static const char *const chain_fns[] = { "op_c", "op_b", "parse_arg",
	"build_and_weigh", "fib", "op_a", "main", "_start" };
#define NCHAIN (sizeof chain_fns / sizeof chain_fns[0])

struct prog {
	const char	*path;
	uint64_t	 addr[NCHAIN];	/* link address inside each function */
	/* a chain function (not the leaf) whose first byte follows padding,
	 * a byte in no symbol; 0 if none */
	size_t		 pad_fn;
	uint64_t	 pad_start;
	char		 id[2 * D9S_BUILD_ID_MAX + 1];
	uint64_t	 exec_off, exec_vaddr, exec_size;
};

/* Some function symbol holds link address a. */
static int
covered(const struct d9s_elffile *f, uint64_t a)
{
	for (size_t k = 0; k < f->syms.n; k++)
		if (a >= f->syms.sym[k].addr && a - f->syms.sym[k].addr <
		    (f->syms.sym[k].size ? f->syms.sym[k].size : 1))
			return 1;
	return 0;
}

static int
load_prog(struct prog *p)
{
	struct d9s_elffile f;
	struct d9_err e;

	memset(p, 0, sizeof *p);
	if ((p->path = prog_path("C_O2_V5")) == NULL) {
		t_skip("C_O2_V5: not built");
		return -1;
	}
	ck_assert_int_eq(d9s_elffile_open(&f, p->path, &e), 0);
	for (size_t i = 0; i < NCHAIN; i++) {
		for (size_t k = 0; k < f.syms.n; k++)
			if (strcmp(f.syms.sym[k].name, chain_fns[i]) == 0 &&
			    f.syms.sym[k].size >= 2)
				/* mid-function: addr - 1 is inside too */
				p->addr[i] = f.syms.sym[k].addr +
				    f.syms.sym[k].size / 2;
		ck_assert_msg(p->addr[i] != 0, "no %s in %s", chain_fns[i],
		    p->path);
	}
	for (size_t i = 1; i < NCHAIN && p->pad_fn == 0; i++)
		for (size_t k = 0; k < f.syms.n; k++)
			if (strcmp(f.syms.sym[k].name, chain_fns[i]) == 0 &&
			    !covered(&f, f.syms.sym[k].addr - 1)) {
				p->pad_fn = i;
				p->pad_start = f.syms.sym[k].addr;
			}
	for (size_t k = 0; k < f.nseg; k++)
		if (f.seg[k].flags & 1) {	/* PF_X */
			p->exec_off = f.seg[k].off;
			p->exec_vaddr = f.seg[k].vaddr;
			p->exec_size = f.seg[k].filesz;
		}
	ck_assert_uint_gt(f.build_id_len, 0);
	d9s_build_id_hex(f.build_id, f.build_id_len, p->id);
	d9s_elffile_close(&f);
	return 0;
}

static void
d9top_env(void)
{
	const char *top = prog_path("D9TOP");

	ck_assert_msg(top != NULL, "D9TOP=path not given");
	setenv("D9TOP", top, 1);
}

/* The poll and its samples; chain holds runtime addresses. */
static void
poll_with_samples(struct mt *m, size_t n, const uint64_t *chain)
{
	mt_unpark(m, T0, 0, 0, 100, 0);
	mt_poll_start(m, T0 + 1000, 0, 1, "src/main.rs:1:1");
	for (int k = 0; k < 3; k++)
		mt_cpu(m, T0 + 2000000 + (uint64_t)k * 1000000, 100, 0, n,
		    chain);
	mt_poll_end(m, T0 + 20000000, 0);
	mt_park(m, T0 + 21000000, 0, 0, 100);
}

/* A dial9-like trace: biased chain, the first nnamed functions (from the
 * root end) named in the symbol table, parse_arg as "[unknown] 0x...". */
static char *
dial9_trace(const struct prog *p, size_t nnamed)
{
	uint64_t chain[NCHAIN];
	char ph[64];
	struct mt m;
	char *path;

	for (size_t i = 0; i < NCHAIN; i++)
		chain[i] = p->addr[i] + BIAS;
	mt_begin(&m);
	poll_with_samples(&m, NCHAIN, chain);
	for (size_t i = NCHAIN; i-- > NCHAIN - nnamed; )
		mt_symbol(&m, chain[i], chain_fns[i], 0);
	snprintf(ph, sizeof ph, "[unknown] 0x%" PRIx64, chain[2]);
	mt_symbol(&m, chain[2], ph, 0);
	path = mt_write(&m);
	tg_free(&m.tg);
	return path;
}

static int
has_frame(const char *json, const char *name)
{
	char q[128];

	snprintf(q, sizeof q, "\"%s\"", name);
	return strstr(json, q) != NULL;
}

START_TEST(test_dial9_bias)
{
	struct prog p;
	struct run_result r0, r1, r2;
	char *trace, hex[32];

	if (load_prog(&p) != 0)
		return;
	d9top_env();
	trace = dial9_trace(&p, 5);

	/* without --binary the three stay unnamed */
	run_d9top(&r0, NULL, "--json '%s'", trace);
	ck_assert_msg(r0.status == 0, "%s", r0.err);
	for (size_t i = 3; i < NCHAIN; i++)
		ck_assert_msg(has_frame(r0.out, chain_fns[i]), "no %s",
		    chain_fns[i]);
	snprintf(hex, sizeof hex, "\"0x%" PRIx64 "\"", p.addr[0] + BIAS);
	ck_assert_msg(strstr(r0.out, hex) != NULL, "no %s in %s", hex, r0.out);
	ck_assert(!has_frame(r0.out, "op_c"));

	/* --binary: bias inferred from the five names, the rest named */
	run_d9top(&r1, NULL, "--json --binary '%s' '%s'", p.path, trace);
	ck_assert_msg(r1.status == 0, "%s", r1.err);
	for (size_t i = 0; i < NCHAIN; i++)
		ck_assert_msg(has_frame(r1.out, chain_fns[i]), "no %s: %s",
		    chain_fns[i], r1.out);
	ck_assert_msg(strstr(r1.out, "0x55d4c") == NULL, "%s", r1.out);
	ck_assert_msg(strstr(r1.err, "load bias 0x55d4c0000000 inferred "
	    "from 5 of 5 named addresses") != NULL, "%s", r1.err);

	/* --load-base: the same frames (PIE: lowest PT_LOAD at 0) */
	run_d9top(&r2, NULL, "--json --binary '%s' --load-base 0x55d4c0000000"
	    " '%s'", p.path, trace);
	ck_assert_msg(r2.status == 0, "%s", r2.err);
	ck_assert_str_eq(r2.out, r1.out);
	ck_assert_msg(strstr(r2.err, "from --load-base") != NULL, "%s",
	    r2.err);
	run_free(&r0);
	run_free(&r1);
	run_free(&r2);
	unlink(trace);
	free(trace);
}
END_TEST

START_TEST(test_unreadable_dwarf)
{
	struct prog p;
	struct run_result r;
	struct tdir d;
	char corrupt[PATH_MAX], want[2 * PATH_MAX], *trace, *img;
	size_t len, size, at;

	if (load_prog(&p) != 0)
		return;
	d9top_env();
	trace = dial9_trace(&p, 5);
	tdir_make(&d);
	img = read_all(p.path, &len);
	/* the first entry of the first list: an unknown kind */
	ck_assert_uint_gt(at = section_at(p.path, ".debug_rnglists", &size),
	    0);
	img[at + 12] = 0x7f;
	write_all(tdir_file(&d, "corrupt", corrupt), img, len);
	run_d9top(&r, NULL, "--json --binary '%s' '%s'", corrupt, trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	for (size_t i = 0; i < NCHAIN; i++)
		ck_assert_msg(has_frame(r.out, chain_fns[i]), "no %s: %s",
		    chain_fns[i], r.out);
	snprintf(want, sizeof want, "DWARF of %s unreadable: names from its "
	    "symbol table only (corrupt .debug_rnglists unit at offset 0)",
	    corrupt);
	ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
	ck_assert_msg(strstr(strstr(r.err, want) + 1, want) == NULL, "%s",
	    r.err);
	run_free(&r);
	free(img);
	tdir_remove(&d);
	unlink(trace);
	free(trace);
}
END_TEST

START_TEST(test_dial9_too_few)
{
	struct prog p;
	struct run_result r;
	char *trace;

	if (load_prog(&p) != 0)
		return;
	d9top_env();
	trace = dial9_trace(&p, 2);
	run_d9top(&r, NULL, "--json --binary '%s' '%s'", p.path, trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "no load bias: only 2 of 2") != NULL,
	    "%s", r.err);
	ck_assert(!has_frame(r.out, "op_c"));
	run_free(&r);
	/* a wrong --load-base names nothing, a bad one is refused */
	run_d9top(&r, NULL, "--json --binary '%s' --load-base 0x1000 '%s'",
	    p.path, trace);
	ck_assert_int_eq(r.status, 0);
	ck_assert(!has_frame(r.out, "op_c"));
	run_free(&r);
	run_d9top(&r, NULL, "--json --load-base 0x1000 '%s'", trace);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--load-base needs --binary"));
	run_free(&r);
	run_d9top(&r, NULL, "--json --binary /nonexistent '%s'", trace);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--binary /nonexistent"));
	run_free(&r);
	unlink(trace);
	free(trace);
}
END_TEST

/* A libd9rec-like trace: one executable mapping of `path` with build id
 * `id`, the chain inside it, no symbol table. */
static char *
maps_trace(const struct prog *p, const char *path, const char *id)
{
	static const struct tg_field f[] = { { "start", 9 }, { "end", 9 },
		{ "file_offset", 9 }, { "path", 4 }, { "build_id", 4 } };
	uint64_t chain[NCHAIN], page = p->exec_off & ~(uint64_t)0xfff;
	uint64_t start = MAP_BASE + (p->exec_vaddr & ~(uint64_t)0xfff);
	uint64_t len = (p->exec_vaddr & 0xfff) + p->exec_size;
	struct mt m;
	char *out;

	for (size_t i = 0; i < NCHAIN; i++)
		chain[i] = p->addr[i] + MAP_BASE;
	mt_begin(&m);
	tg_schema(&m.tg, S_MAPS, "ProcMapsEntry", 1, 5, f);
	poll_with_samples(&m, NCHAIN, chain);
	tg_event(&m.tg, S_MAPS, 0);
	tg_leb(&m.tg, start);
	tg_leb(&m.tg, start + ((len + 0xfff) & ~(uint64_t)0xfff));
	tg_leb(&m.tg, page);
	tg_str32(&m.tg, path);
	tg_str32(&m.tg, id);
	out = mt_write(&m);
	tg_free(&m.tg);
	return out;
}

static void
copy_file(const char *from, const char *to)
{
	size_t n;
	char *b = read_all(from, &n);

	ck_assert_ptr_nonnull(b);
	write_all(to, b, n);
	free(b);
}

static void
assert_named(const char *json)
{
	for (size_t i = 0; i < NCHAIN; i++)
		ck_assert_msg(has_frame(json, chain_fns[i]), "no %s: %s",
		    chain_fns[i], json);
	ck_assert_msg(strstr(json, "0x7f12345") == NULL, "%s", json);
}

START_TEST(test_maps)
{
	struct prog p;
	struct tdir d;
	struct run_result r;
	char app[PATH_MAX], gone[PATH_MAX], label[96], msg[PATH_MAX + 256];
	char *trace;
	const char *fake = "00112233445566778899aabbccddeeff00112233";

	if (load_prog(&p) != 0)
		return;
	d9top_env();
	tdir_make(&d);
	copy_file(p.path, tdir_file(&d, "app", app));

	/* the recorded path, right build id */
	trace = maps_trace(&p, app, p.id);
	run_d9top(&r, NULL, "--json '%s'", trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	assert_named(r.out);
	ck_assert_str_eq(r.err, "");
	run_free(&r);
	/* a --binary no map is of (d9top itself): told it names nothing */
	run_d9top(&r, NULL, "--json --binary '%s' '%s'", getenv("D9TOP"),
	    trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	assert_named(r.out);
	snprintf(msg, sizeof msg, "d9top: %s: no memory map of the trace is "
	    "of it (by build id or name): it names nothing\n",
	    getenv("D9TOP"));
	ck_assert_str_eq(r.err, msg);
	run_free(&r);
	unlink(trace);
	free(trace);

	/* another build id: refused, told once, frames keep the module */
	trace = maps_trace(&p, app, fake);
	run_d9top(&r, NULL, "--json '%s'", trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(msg, sizeof msg, "d9top: %s: build id differs from the "
	    "trace's (%s vs %s), not used\n", app, p.id, fake);
	ck_assert_str_eq(r.err, msg);
	ck_assert_ptr_nonnull(strstr(r.out, "build id differs"));
	snprintf(label, sizeof label, "\"0x%" PRIx64 " (app)\"",
	    p.addr[0] + MAP_BASE);
	ck_assert_msg(strstr(r.out, label) != NULL, "no %s: %s", label,
	    r.out);
	ck_assert(!has_frame(r.out, "op_c"));
	run_free(&r);
	unlink(trace);
	free(trace);

	/* a caller's return address at a function's first byte, after
	 * padding: a stale stack word, named by the address itself, as the
	 * recorder's own table names it (seen in a d9demo recording: a
	 * frame at libd9rec's on_sigprof) */
	{
		struct prog q = p;

		ck_assert_msg(p.pad_fn != 0, "no chain function of %s "
		    "follows padding", p.path);
		q.addr[1] = p.pad_start;
		trace = maps_trace(&q, app, p.id);
		run_d9top(&r, NULL, "--json '%s'", trace);
		ck_assert_msg(r.status == 0, "%s", r.err);
		ck_assert_msg(has_frame(r.out, chain_fns[p.pad_fn]), "%s",
		    r.out);
		ck_assert_msg(strstr(r.out, "0x7f12345") == NULL, "%s",
		    r.out);
		run_free(&r);
		unlink(trace);
		free(trace);
	}

	/* the recorded file is gone: --binary with its build id */
	trace = maps_trace(&p, tdir_file(&d, "gone", gone), p.id);
	run_d9top(&r, NULL, "--json '%s'", trace);
	ck_assert_ptr_nonnull(strstr(r.err, "its addresses stay unnamed"));
	ck_assert(!has_frame(r.out, "op_c"));
	run_free(&r);
	run_d9top(&r, NULL, "--json --binary '%s' '%s'", app, trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	assert_named(r.out);
	ck_assert_str_eq(r.err, "");
	run_free(&r);

	/* no build id recorded: a --binary of the same name */
	{
		char moved[PATH_MAX + 8], *t2;

		snprintf(moved, sizeof moved, "%s/old/app", d.path);
		t2 = maps_trace(&p, moved, "");
		run_d9top(&r, NULL, "--json --binary '%s' '%s'", app, t2);
		ck_assert_msg(r.status == 0, "%s", r.err);
		assert_named(r.out);
		run_free(&r);
		unlink(t2);
		free(t2);
	}

	/* ... or its separate debug file under --debug-dir */
	if (prog_path("OBJCOPY") == NULL)
		t_skip("objcopy is not installed: --debug-dir not tested");
	else {
		char dbg[PATH_MAX + 32], cmd[5 * PATH_MAX];

		snprintf(dbg, sizeof dbg, "%s/.build-id/%.2s", d.path, p.id);
		snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' "
		    "--only-keep-debug '%s' '%s/%s.debug'", dbg,
		    prog_path("OBJCOPY"), app, dbg, p.id + 2);
		ck_assert_int_eq(system(cmd), 0);
		run_d9top(&r, NULL, "--json --debug-dir '%s' '%s'", d.path,
		    trace);
		ck_assert_msg(r.status == 0, "%s", r.err);
		assert_named(r.out);
		run_free(&r);
	}
	unlink(trace);
	free(trace);
	tdir_remove(&d);
}
END_TEST

/* The frames of the worst poll's first CPU stack, comma-joined. */
static void
assert_frames(const char *json, const char *want)
{
	char err[128], got[1024] = "";
	struct mj *doc = mj_parse(json, err, sizeof err);
	const struct mj *f;

	ck_assert_msg(doc != NULL, "%s", err);
	f = mj_get(doc, "worstPolls.0.cpuStacks.0.frames");
	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < f->n; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s",
		    i ? "," : "", f->kids[i].str);
	ck_assert_str_eq(got, want);
	mj_free(doc);
}

START_TEST(test_kernel)
{
	static const char ks[] =
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81001000 T schedule\n"
	    "ffffffff81001800 d some_data\n"
	    "ffffffff81002000 t futex_wait\n"
	    "ffffffff81003000 T do_syscall_64\n"
	    "ffffffffc0001000 t nf_hook\t[nf_tables]\n";
	uint64_t chain[] = { 0xffffffff81001900ULL, 0xffffffff81002001ULL,
		0xffffffff81003010ULL, 0x401000 };
	struct tdir d;
	struct run_result r;
	struct mt m;
	char kpath[PATH_MAX], zpath[PATH_MAX], *trace;

	d9top_env();
	tdir_make(&d);
	write_all(tdir_file(&d, "kallsyms", kpath), ks, sizeof ks - 1);
	write_all(tdir_file(&d, "zero", zpath),
	    "0000000000000000 T schedule\n", 28);
	mt_begin(&m);
	poll_with_samples(&m, 4, chain);
	/* the recorder's placeholder for an unreadable kallsyms */
	mt_symbol(&m, chain[2], "[kernel] 0xffffffff81003010", 0);
	trace = mt_write(&m);
	tg_free(&m.tg);

	run_d9top(&r, NULL, "--json '%s'", trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(has_frame(r.out, "[kernel] 0xffffffff81001900"));
	ck_assert(has_frame(r.out, "[kernel] 0xffffffff81002001"));
	ck_assert(has_frame(r.out, "[kernel] 0xffffffff81003010"));
	ck_assert(has_frame(r.out, "0x401000"));
	run_free(&r);

	/* nearest lower text symbol; the return address looks at addr - 1 */
	run_d9top(&r, NULL, "--json --kallsyms '%s' '%s'", kpath, trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	assert_frames(r.out, "schedule,futex_wait,do_syscall_64,0x401000");
	run_free(&r);

	run_d9top(&r, NULL, "--json --kallsyms '%s' '%s'", zpath, trace);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "kptr_restrict") != NULL, "%s", r.err);
	run_free(&r);
	/* lines that are not kallsyms lines are skipped, and said */
	write_all(tdir_file(&d, "mixed", zpath), "ffffffff81000000 T _stext\n"
	    "ffffffff81001000 T\n\n" "ffffffff81001000 T schedule\n"
	    "<html>\n" "ffffffff81002000 t futex_wait\n"
	    "ffffffff81003000 T do_syscall_64\n", 144);
	run_d9top(&r, NULL, "--json --kallsyms '%s' '%s'", zpath, trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	assert_frames(r.out, "schedule,futex_wait,do_syscall_64,0x401000");
	ck_assert_msg(strstr(r.err, "/mixed: 2 lines are not \"ADDRESS TYPE "
	    "NAME\" (line 2 first), skipped\n") != NULL, "%s", r.err);
	run_free(&r);
	unlink(trace);
	free(trace);
	tdir_remove(&d);
}
END_TEST

/* Whether file path (a Parquet file) holds text, in a page as it is or
 * in one of its zstd frames. */
static int
zstd_frames_hold(const char *path, const char *text)
{
	static const unsigned char magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	FILE *f = fopen(path, "rb");
	unsigned char *p = malloc(1 << 20);
	size_t n = f != NULL && p != NULL ? fread(p, 1, 1 << 20, f) : 0;
	int found = n > 0 && memmem(p, n, text, strlen(text)) != NULL;

	for (size_t i = 0; !found && i + 4 < n; i++) {
		unsigned long long sz;
		size_t got, csz;
		char *out;

		if (memcmp(p + i, magic, 4) != 0 || (sz =
		    ZSTD_getFrameContentSize(p + i, n - i)) > (1u << 24) ||
		    ZSTD_isError(csz = ZSTD_findFrameCompressedSize(p + i,
		    n - i)))
			continue;
		out = malloc(sz + 1);
		got = out != NULL ? ZSTD_decompress(out, sz, p + i, csz) : 0;
		found = !ZSTD_isError(got) && memmem(out, got, text,
		    strlen(text)) != NULL;
		free(out);
	}
	if (f != NULL)
		fclose(f);
	free(p);
	return found;
}

/* Two segments of a dial9-like trace (5 and 6 names in the table: two
 * segments, not copies), exported with --binary by two workers: both
 * `stacks` leaves name op_c (only --binary can), and the load bias is
 * said once. */
START_TEST(test_export_each_segment)
{
	struct run_result r, l;
	struct prog p;
	struct tdir d;
	char *t1, *t2, out[4096], line[4096];
	size_t leaves = 0;
	FILE *fl;

	if (load_prog(&p) != 0)
		return;
	d9top_env();
	tdir_make(&d);
	t1 = dial9_trace(&p, 5);
	t2 = dial9_trace(&p, 6);
	tdir_file(&d, "out", out);
	setenv("D9TOP_EXPORT_WORKERS", "2", 1);
	run_d9top(&r, NULL, "--export parquet '%s' --binary '%s' '%s' '%s'",
	    out, p.path, t1, t2);
	unsetenv("D9TOP_EXPORT_WORKERS");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "exported 2 of 2 inputs") != NULL, "%s",
	    r.err);
	ck_assert_msg(strstr(r.err, "load bias 0x55d4c0000000 inferred") !=
	    NULL && strstr(strstr(r.err, "load bias") + 1, "load bias") ==
	    NULL, "%s", r.err);
	run_prog(&l, "/usr/bin/find", "'%s/stacks' -name '*.parquet'", out);
	ck_assert_int_eq(l.status, 0);
	fl = fmemopen(l.out, strlen(l.out), "r");
	while (fl != NULL && fgets(line, sizeof line, fl) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		ck_assert_msg(zstd_frames_hold(line, "op_c"), "%s: no op_c",
		    line);
		leaves++;
	}
	if (fl != NULL)
		fclose(fl);
	ck_assert_uint_eq(leaves, 2);
	run_free(&l);
	run_free(&r);
	unlink(t1);
	unlink(t2);
	free(t1);
	free(t2);
	tdir_remove(&d);
}
END_TEST

static struct d9m_model *
model_of(const char *path)
{
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(d9m_model_load(m, &path, 1, NULL, NULL, NULL, &st),
	    0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	return m;
}

/* One resolver asked by two models of one libd9rec-like trace, alive at
 * once and in turn (the browser's model read from the traces, then the
 * index's mapping of it, then partial ones while following): each one's
 * addresses are named, not only the first model's; what it says, it
 * says once. */
START_TEST(test_two_models)
{
	struct prog p;
	struct tdir d;
	struct d9m_model *mod[2];
	struct d9m_resolver *r;
	struct d9s_resolver_opts o;
	struct d9_err e;
	char app[PATH_MAX], *trace;
	size_t nnotes;

	if (load_prog(&p) != 0)
		return;
	tdir_make(&d);
	copy_file(p.path, tdir_file(&d, "app", app));
	trace = maps_trace(&p, app, "");
	mod[0] = model_of(trace);
	mod[1] = model_of(trace);
	memset(&o, 0, sizeof o);
	ck_assert_int_eq(d9s_resolver_new(NULL, &o, &r, &e), 0);
	for (int k = 0; k < 4; k++) {
		struct d9m_frame f[8];
		size_t n = d9m_frames_of(mod[k % 2], r, 0, p.addr[0] +
		    MAP_BASE, 0, f, 8), named = 0;

		for (size_t i = 0; i < n; i++)
			named += f[i].name != NULL &&
			    strcmp(f[i].name, chain_fns[0]) == 0;
		ck_assert_msg(named == 1, "model %d (turn %d): %s unnamed",
		    k % 2, k, chain_fns[0]);
	}
	(void)d9s_resolver_notes(r, &nnotes);
	ck_assert_uint_le(nnotes, 1);
	d9s_resolver_free(&r);
	d9m_model_free(&mod[0]);
	d9m_model_free(&mod[1]);
	unlink(trace);
	free(trace);
	tdir_remove(&d);
}
END_TEST

Suite *
suite_resolve(void)
{
	Suite *s = suite_create("resolve");
	TCase *tc = tcase_create("resolve");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_dial9_bias);
	tcase_add_test(tc, test_dial9_too_few);
	tcase_add_test(tc, test_unreadable_dwarf);
	tcase_add_test(tc, test_maps);
	tcase_add_test(tc, test_kernel);
	tcase_add_test(tc, test_export_each_segment);
	tcase_add_test(tc, test_two_models);
	suite_add_tcase(s, tc);
	return s;
}
