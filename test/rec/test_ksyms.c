/*
 * test_ksyms.c: kernel names for a segment's kernel addresses (rec/ksyms.c).
 * A made-up kallsyms file, out of address order, with a module, data
 * and absolute symbols, a weak one, a CRLF line, junk, a line too long
 * to read and a last one without a newline, whose name is longer than
 * the cut: each address gets the nearest text symbol at or below
 * it, one below every symbol none, and a second call reads the file
 * only for what is new. A file whose addresses are all zero, or none at
 * all, names nothing and is never read again. Then a trace recorded
 * with context-switch sampling: its kernel frames carry the names that
 * /proc/kallsyms gives here, found by a scan of the test's own, or the
 * "[kernel] 0x..." placeholder where the file is not readable or no
 * pass was due yet and no other segment of the boot names the address
 * (d9top's model/core/kshare.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "../skip.h"
#include "rec/rec.h"
#include "rectest.h"

#define K(x)	(0xffffffff00000000ull | (x))

/* dir/name with text; the path (malloc'd). */
static char *
put(const char *dir, const char *name, const char *text)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);
	FILE *f;

	ck_assert_ptr_nonnull(path);
	sprintf(path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

START_TEST(test_ksyms_file)
{
	char *dir = rt_tmpdir(), *path, text[4096], longname[301];
	char overlong[2001];
	const uint64_t need[] = { K(0x80ffffff), K(0x81000010), K(0x81001fff),
	    K(0x81002000), K(0x81003500), K(0x81004001), K(0x81005008),
	    K(0xc0001010) };
	const char *want[] = { NULL, "_stext", "func_a", "helper_b",
	    "helper_b", "weak_fn", NULL, "mod_fn" };
	const uint64_t later[] = { K(0x81001500) };
	struct ksyms *k = NULL;

	memset(longname, 'x', 300);
	longname[300] = '\0';
	memset(overlong, 'y', 2000);	/* a line over 1024: skipped */
	overlong[2000] = '\0';
	snprintf(text, sizeof text,
	    "ffffffffc0001000 t mod_fn\t[mymod]\n"
	    "ffffffff81002000 t helper_b\n"
	    "ffffffff81000000 T _stext\n"
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffff81001000 T func_a\n"
	    "ffffffff81001800 T %s\n"
	    "ffffffff81003000 D some_data\n"
	    "not a line at all\n"
	    "ffffffff81004000 W weak_fn\r\n"
	    "ffffffff81005000 t %s", overlong, longname);	/* no last \n */
	path = put(dir, "kallsyms", text);
	ck_assert_int_eq(d9rec_ksyms_resolve(&k, path, need, 8), 0);
	ck_assert_uint_eq(d9rec_ksyms_passes(k), 1);
	for (size_t i = 0; i < 8; i++) {
		const char *got = d9rec_ksyms_name(k, need[i]);

		ck_assert(d9rec_ksyms_known(k, need[i]));
		if (i == 6) {	/* cut to 255 bytes */
			ck_assert_ptr_nonnull(got);
			ck_assert_uint_eq(strlen(got), 255);
			ck_assert(strncmp(got, longname, 255) == 0);
		} else if (want[i] == NULL)
			ck_assert_ptr_null(got);
		else
			ck_assert_str_eq(got, want[i]);
	}
	ck_assert(!d9rec_ksyms_known(k, later[0]));
	ck_assert_int_eq(d9rec_ksyms_resolve(&k, path, later, 1), 0);
	ck_assert_uint_eq(d9rec_ksyms_passes(k), 2);
	ck_assert_str_eq(d9rec_ksyms_name(k, later[0]), "func_a");
	ck_assert_str_eq(d9rec_ksyms_name(k, need[1]), "_stext");
	d9rec_ksyms_free(&k);
	ck_assert_ptr_null(k);
	free(path);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_ksyms_unusable)
{
	char *dir = rt_tmpdir(), *zero, *none;
	const uint64_t need[] = { K(0x81000010) };
	struct ksyms *k = NULL;

	/* read under kptr_restrict: every address zero */
	zero = put(dir, "zero", "0000000000000000 T _stext\n"
	    "0000000000000000 t helper\n");
	ck_assert_int_eq(d9rec_ksyms_resolve(&k, zero, need, 1), -1);
	ck_assert(d9rec_ksyms_known(k, need[0]));	/* off: not again */
	ck_assert_ptr_null(d9rec_ksyms_name(k, need[0]));
	ck_assert_int_eq(d9rec_ksyms_resolve(&k, zero, need, 1), -1);
	ck_assert_uint_eq(d9rec_ksyms_passes(k), 1);
	d9rec_ksyms_free(&k);
	/* no such file, and a file of no text symbol */
	none = put(dir, "none", "ffffffff81003000 D some_data\n");
	ck_assert_int_eq(d9rec_ksyms_resolve(&k, "/nonexistent/kallsyms",
	    need, 1), -1);
	ck_assert_ptr_null(d9rec_ksyms_name(k, need[0]));
	d9rec_ksyms_free(&k);
	ck_assert_int_eq(d9rec_ksyms_resolve(&k, none, need, 1), -1);
	ck_assert_ptr_null(d9rec_ksyms_name(k, need[0]));
	d9rec_ksyms_free(&k);
	free(zero);
	free(none);
	rt_rmdir(&dir);
}
END_TEST

/* The nearest text symbol of /proc/kallsyms at or below a, by a scan of
 * the whole file, into name; 0 when the file has no usable address. */
static int
live_name(uint64_t a, char *name, size_t len)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long addr, best = 0;
	char type, sym[512], line[1024];

	name[0] = '\0';
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "%llx %c %511s", &addr, &type, sym) == 3 &&
		    strchr("tTwW", type) != NULL && addr != 0 && addr <= a &&
		    addr > best) {
			best = addr;
			snprintf(name, len, "%s", sym);
		}
	fclose(f);
	return best != 0;
}

/* n naps of 100 us: a context switch each. */
static void
naps(int n)
{
	struct timespec nap = { 0, 100000 };

	for (int i = 0; i < n; i++)
		nanosleep(&nap, NULL);
}

/* 1 when segment seg of m is the writer's first file, trace.0. */
static int
first_segment(const struct d9m_model *m, uint32_t seg)
{
	const char *in = d9m_str(m, m->segs.input[seg]), *base;

	base = strrchr(in, '/');
	return strncmp(base != NULL ? base + 1 : in, "trace.0.", 8) == 0;
}

/* How many times the file dir/name (gunzipped, if it is gzip) holds s. */
static size_t
gz_count(const char *dir, const char *name, const char *s)
{
	char path[600], buf[1 << 16];
	size_t n = 0, have = 0, len = strlen(s);
	gzFile z;
	int got;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(z = gzopen(path, "rb"));
	while ((got = gzread(z, buf + have, (unsigned)(sizeof buf - have))) >
	    0) {
		char *p = buf;
		size_t end = have + (size_t)got;

		while ((p = memmem(p, end - (size_t)(p - buf), s, len)) !=
		    NULL) {
			n++;
			p += len;
		}
		have = len - 1;		/* a match across two reads */
		memmove(buf, buf + end - have, have);
	}
	gzclose(z);
	return n;
}

/* Whether a segment of m other than the first names kernel address a. */
static int
named_later(const struct d9m_model *m, uint64_t a)
{
	for (size_t i = 0; i < m->symbols.n; i++)
		if (m->symbols.addr[i] == a &&
		    !first_segment(m, m->symbols.seg[i]) &&
		    strncmp(d9m_str(m, m->symbols.name[i]), "[kernel]", 8) != 0)
			return 1;
	return 0;
}

/*
 * Three segments under context-switch sampling: the first sealed within
 * half a minute of open (no kallsyms pass yet: its file has placeholders),
 * the second once a pass is due, the third at close. In d9top's model
 * every kernel address has the name the test's own scan of
 * /proc/kallsyms gives, the first segment's too where a later one names
 * the same address; the rest keep their placeholder.
 */
START_TEST(test_ksyms_trace)
{
	char *dir = rt_tmpdir(), want[512];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr, first = 0, shared = 0, named = 0, sched = 0;
	const char *on;
	int usable = live_name(~0ull, want, sizeof want);

	rt_opts(&o, dir, NULL);
	o.sched_profile = 1;
	o.sched_sample_period = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, "sleeper", 0);
	naps(100);
	ck_assert_int_eq(d9rec_rotate(w), 0);
	naps(100);
	w->ksyms_after = 0;		/* as if half a minute had passed */
	ck_assert_int_eq(d9rec_rotate(w), 0);
	naps(100);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_ptr_nonnull(on = d9m_meta_get(m, "d9rec.sched_profile"));
	if (strcmp(on, "on") != 0) {
		t_skip("no context-switch sampling: kernel frames not checked");
		d9m_model_free(&m);
		rt_rmdir(&dir);
		return;
	}
	for (size_t i = 0; i < m->symbols.n; i++) {
		uint64_t a = m->symbols.addr[i];
		const char *name = d9m_str(m, m->symbols.name[i]);
		int in_first = first_segment(m, m->symbols.seg[i]);

		if (!(a >> 63))
			continue;
		first += in_first;
		if (!usable || !live_name(a, want, sizeof want) ||
		    (in_first && !named_later(m, a))) {
			ck_assert_msg(strncmp(name, "[kernel] 0x", 11) == 0,
			    "kernel address named %s", name);
			continue;
		}
		ck_assert_str_eq(name, want);
		shared += in_first;
		named += !in_first;
		sched += strcmp(name, "schedule") == 0 ||
		    strcmp(name, "__schedule") == 0;
	}
	if (first == 0)
		t_skip("no kernel frames in the switch samples");
	else if (usable) {
		/* the first file has placeholders; what the other two named
		 * is checked above (an address below every symbol, such as
		 * an entry trampoline, keeps a placeholder there too) */
		ck_assert_uint_gt(gz_count(dir, "trace.0.bin",
		    "[kernel] 0x"), 0);
		ck_assert_uint_gt(named, 0);
		ck_assert_uint_gt(shared, 0);
		ck_assert_uint_ge(sched, 1);
	}
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* A recorder in dir/sub, 100 naps; blind: it cannot read kallsyms. */
static void
record_boot(const char *dir, const char *sub, int blind)
{
	const uint64_t any[] = { 0xffffffff81000000ull };
	char path[600];
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;

	snprintf(path, sizeof path, "%s/%s", dir, sub);
	rt_opts(&o, path, NULL);
	o.sched_profile = 1;
	o.sched_sample_period = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	if (blind)	/* as under kptr_restrict */
		ck_assert_int_eq(d9rec_ksyms_resolve(&w->ksyms,
		    "/nonexistent/kallsyms", any, 1), -1);
	t = d9rec_thread_register(w, "sleeper", 0);
	naps(100);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
}

/* Two recorders read together: one could not name its kernel frames,
 * the other named the same addresses. Names never cross boots. */
START_TEST(test_ksyms_boots)
{
	char *dir = rt_tmpdir(), want[512];
	struct d9m_model *m;
	size_t nerr, blind = 0, seen = 0;

	record_boot(dir, "a", 1);
	record_boot(dir, "b", 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	for (size_t i = 0; i < m->symbols.n; i++) {
		const char *in = d9m_str(m, m->segs.input[m->symbols.seg[i]]);
		const char *name = d9m_str(m, m->symbols.name[i]);

		if (!(m->symbols.addr[i] >> 63))
			continue;
		if (strstr(in, "/a/") != NULL) {
			ck_assert_msg(strncmp(name, "[kernel] 0x", 11) == 0,
			    "a blind recorder's frame named %s", name);
			blind++;
		} else
			seen += strncmp(name, "[kernel]", 8) != 0;
	}
	if (blind == 0 || seen == 0 || !live_name(~0ull, want, sizeof want))
		t_skip("no kernel frames named to share");
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_ksyms(void)
{
	TCase *tc = tcase_create("ksyms");

	tcase_add_test(tc, test_ksyms_file);
	tcase_add_test(tc, test_ksyms_unusable);
	tcase_add_test(tc, test_ksyms_trace);
	tcase_add_test(tc, test_ksyms_boots);
	return tc;
}
