/*
 * test_demo.c: libd9rec's d9demo recorded with its symbol table (A) and
 * with D9REC_SYMBOLS=0 (B: memory maps only, names from our resolver).
 *
 * Two recordings sample different instants (one may catch a
 * clock_gettime the other misses), so the exact comparison is made on
 * one recording: A, and A with its SymbolTableEntry schema renamed (A':
 * the same samples, the table ignored, every name from the maps and
 * DWARF). `d9top --json` must show the same set of function names in the
 * worst polls' stacks and the top allocation sites of A and A', plus in
 * A' the functions inlined into them, which only DWARF knows (drive()
 * and spawn_pair() inlined into main(): no ELF symbol has their name,
 * so the recorder cannot name them; the test checks exactly that). B must
 * name every frame of d9demo itself and show the planted crunch stack;
 * and, address by address, the resolver must name what the recorder
 * named in A.
 *
 * The recorder names from ELF symbol tables, which carry GCC's clone
 * suffixes (crunch_numbers.constprop.0.isra.0) and glibc's aliases
 * (__libc_malloc for __GI___libc_malloc); DWARF names the source
 * function (crunch_numbers), as addr2line does. Names are compared
 * without those. Kernel frames are left out: A names them from
 * /proc/kallsyms, A' labels them "[kernel] 0x..." (no --kallsyms), so a
 * name of the running kernel's text is left out of both.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../e2e/minijson.h"
#include "../e2e/run.h"
#include "../parse/tracegen.h"
#include "../skip.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "suites.h"
#include "symbolize/elffile.h"
#include "symbolize/resolver.h"
#include "tutil.h"

#define MAXNAMES 512

struct names {
	char	*s[MAXNAMES];
	size_t	 n;
	size_t	 unresolved;	/* "0x... (d9demo)" frames */
};

/* name without a GCC clone suffix (".constprop.0", ".isra.0", ".cold",
 * ".part.0") or symbol version, into out */
static void
normalize(const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);

	if (strstr(name, "::") == NULL && name[0] != '[' &&
	    strncmp(name, "0x", 2) != 0)
		n = strcspn(name, ".@");
	snprintf(out, cap, "%.*s", (int)n, name);
}

/* glibc names one function several ways (__GI___libc_malloc,
 * __libc_malloc, malloc): compare without __GI_ and leading '_'. */
static void
alias_normalize(const char *name, char *out, size_t cap)
{
	char buf[512];
	const char *s = buf;

	normalize(name, buf, sizeof buf);
	if (strncmp(s, "__GI_", 5) == 0)
		s += 5;
	s += strspn(s, "_");
	snprintf(out, cap, "%s", s);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The running kernel's text symbol names, sorted (none where
 * /proc/kallsyms is unreadable or all zero). */
struct kernames {
	char	**s;
	size_t	 n, cap;
};

static void
kernames_load(struct kernames *k)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[1024], name[512], type;
	unsigned long long addr;

	memset(k, 0, sizeof *k);
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3 ||
		    addr == 0 || strchr("tTwW", type) == NULL)
			continue;
		if (k->n == k->cap) {
			k->cap = k->cap ? 2 * k->cap : 4096;
			k->s = realloc(k->s, k->cap * sizeof *k->s);
			ck_assert_ptr_nonnull(k->s);
		}
		ck_assert_ptr_nonnull(k->s[k->n++] = strdup(name));
	}
	if (f != NULL)
		fclose(f);
	if (k->n > 0)
		qsort(k->s, k->n, sizeof *k->s, cmp_str);
}

static int
kernames_has(const struct kernames *k, const char *name)
{
	return k->n > 0 && bsearch(&name, k->s, k->n, sizeof *k->s,
	    cmp_str) != NULL;
}

static void
kernames_free(struct kernames *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->s[i]);
	free(k->s);
}

static void
add_name(struct names *ns, const struct kernames *kn, const char *name)
{
	char buf[512];

	if (strncmp(name, "[kernel]", 8) == 0 || kernames_has(kn, name))
		return;
	if (strncmp(name, "0x", 2) == 0 && strstr(name, "(d9demo)") != NULL)
		ns->unresolved++;
	alias_normalize(name, buf, sizeof buf);
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->s[i], buf) == 0)
			return;
	ck_assert_uint_lt(ns->n, MAXNAMES);
	ns->s[ns->n++] = strdup(buf);
}

static void
add_stacks(struct names *ns, const struct kernames *kn, const struct mj *arr)
{
	for (size_t i = 0; arr != NULL && i < arr->n; i++) {
		const struct mj *fr = mj_get(&arr->kids[i], "frames");

		for (size_t k = 0; fr != NULL && k < fr->n; k++)
			if (fr->kids[k].type == MJ_STR)
				add_name(ns, kn, fr->kids[k].str);
	}
}

/* Names of `d9top --json DIR`'s worst-poll stacks and top sites. */
static void
json_names(const char *dir, const struct kernames *kn, struct names *ns)
{
	struct run_result r;
	struct mj *doc;
	const struct mj *wp;
	char err[128];

	memset(ns, 0, sizeof *ns);
	run_d9top(&r, NULL, "--json '%s'", dir);
	ck_assert_msg(r.status == 0, "d9top --json %s: %s", dir, r.err);
	doc = mj_parse(r.out, err, sizeof err);
	ck_assert_msg(doc != NULL, "%s", err);
	wp = mj_get(doc, "worstPolls");
	ck_assert_ptr_nonnull(wp);
	for (size_t i = 0; i < wp->n; i++) {
		add_stacks(ns, kn, mj_get(&wp->kids[i], "cpuStacks"));
		add_stacks(ns, kn, mj_get(&wp->kids[i], "offCpuStacks"));
	}
	add_stacks(ns, kn, mj_get(doc, "memory.topSites"));
	qsort(ns->s, ns->n, sizeof ns->s[0], cmp_str);
	mj_free(doc);
	run_free(&r);
}

static int
has(const struct names *ns, const char *name)
{
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->s[i], name) == 0)
			return 1;
	return 0;
}

static void
names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->s[i]);
	ns->n = 0;
}

/* Whether the ELF symbol table of path has a function called name
 * (clone suffixes aside). */
static int
elf_has(const char *path, const char *name)
{
	struct d9s_elffile f;
	struct d9_err e;
	int found = 0;

	ck_assert_int_eq(d9s_elffile_open(&f, path, &e), 0);
	for (size_t i = 0; i < f.syms.n && !found; i++) {
		char b[512];

		alias_normalize(f.syms.sym[i].name, b, sizeof b);
		found = strcmp(b, name) == 0;
	}
	d9s_elffile_close(&f);
	return found;
}

/* dir's segments, uncompressed into out, with the symbol table's schema
 * renamed "SymbolTableEntrY": d9top then reads it as a custom event. */
static void
strip_symbols(const char *dir, const char *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t renamed = 0;

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		char from[2 * PATH_MAX], to[2 * PATH_MAX];
		struct tg t;

		if (len < 7 || strcmp(de->d_name + len - 7, ".bin.gz") != 0)
			continue;
		snprintf(from, sizeof from, "%s/%s", dir, de->d_name);
		snprintf(to, sizeof to, "%s/%.*s", out, (int)(len - 3),
		    de->d_name);
		tg_init(&t);
		ck_assert_int_eq(tg_gunzip_file(from, &t), 0);
		for (uint8_t *p = t.p; (p = memmem(p, t.n - (size_t)(p - t.p),
		    "SymbolTableEntry", 16)) != NULL; p += 16) {
			p[15] = 'Y';
			renamed++;
		}
		tg_write_file(to, t.p, t.n);
		tg_free(&t);
	}
	closedir(d);
	ck_assert_uint_gt(renamed, 0);
}

static char *
joined(const struct names *ns)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < ns->n; i++)
		len += strlen(ns->s[i]) + 2;
	s = calloc(1, len);
	for (size_t i = 0; i < ns->n; i++) {
		strcat(s, ns->s[i]);
		strcat(s, i + 1 < ns->n ? ", " : "");
	}
	return s;
}

/* Path of the mapping holding addr in segment seg, or "". */
static const char *
mapped_path(const struct d9m_model *m, uint32_t seg, uint64_t addr)
{
	for (size_t i = 0; i < m->maps.n; i++)
		if (m->maps.seg[i] == seg && m->maps.start[i] <= addr &&
		    addr < m->maps.end[i])
			return d9m_str(m, m->maps.path[i]);
	return "";
}

/*
 * Every address the recorder named, named again by the resolver: the
 * same function in d9demo itself; some name elsewhere (libc exports one
 * function under several aliases, free, cfree and __libc_free, and which
 * one each side picks is arbitrary, so those are only counted).
 */
static void
per_address(const char *dir)
{
	const char *paths[] = { dir };
	struct d9m_model *m = d9m_model_new();
	struct d9s_resolver_opts o;
	struct d9m_resolver *r;
	struct d9p_read_stats st;
	struct d9_err e;
	size_t own = 0, others = 0, alike = 0;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(d9m_model_load(m, paths, 1, NULL, NULL, NULL, &st),
	    0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	memset(&o, 0, sizeof o);
	ck_assert_int_eq(d9s_resolver_new(m, &o, &r, &e), 0);
	for (size_t i = 0; i < m->symbols.n; i++) {
		struct d9m_frame f[32];
		const char *want = d9m_str(m, m->symbols.name[i]), *path;
		uint32_t seg = m->symbols.seg[i];
		uint64_t addr = m->symbols.addr[i];
		char a[512], b[512];
		size_t n;

		if (m->symbols.depth[i] != 0 || addr >> 63 || want[0] == '[')
			continue;
		n = r->resolve(r->ctx, m, seg, addr, 0, f, 32);
		/* a PLT stub: the recorder names it after the nearest symbol
		 * before it, _init (the .init section precedes .plt); like
		 * addr2line we name no function there */
		if (strcmp(want, "_init") == 0 && (n == 0 ||
		    f[n - 1].name == NULL))
			continue;
		ck_assert_msg(n > 0 && f[n - 1].name != NULL, "%#llx (%s) "
		    "unnamed", (unsigned long long)addr, want);
		path = mapped_path(m, seg, addr);
		normalize(want, a, sizeof a);
		normalize(f[n - 1].name, b, sizeof b);
		if (strlen(path) >= 7 &&
		    strcmp(path + strlen(path) - 7, "/d9demo") == 0) {
			ck_assert_str_eq(b, a);
			own++;
			continue;
		}
		others++;
		alias_normalize(want, a, sizeof a);
		alias_normalize(f[n - 1].name, b, sizeof b);
		alike += strcmp(a, b) == 0;
	}
	fprintf(stderr, "demo: %zu addresses of d9demo named alike, %zu of "
	    "%zu others\n", own, alike, others);
	ck_assert_uint_gt(own, 0);
	d9s_resolver_free(&r);
	d9m_model_free(&m);
}

START_TEST(test_demo_symbols)
{
	const char *demo = prog_path("D9DEMO"), *top = prog_path("D9TOP");
	struct tdir d;
	struct names a, a2, b;
	struct kernames kn;
	char cmd[2 * PATH_MAX], dir1[PATH_MAX], dir2[PATH_MAX];
	char dir0[PATH_MAX], *sa, *sa2, *sb;
	FILE *p1, *p0;

	if (demo == NULL || access(demo, X_OK) != 0) {
		t_skip("demo: no d9demo in this build");
		return;
	}
	ck_assert_ptr_nonnull(top);
	setenv("D9TOP", top, 1);
	tdir_make(&d);
	tdir_file(&d, "sym", dir1);
	tdir_file(&d, "stripped", dir2);
	tdir_file(&d, "nosym", dir0);
	/* both at once: two seconds, not four */
	snprintf(cmd, sizeof cmd, "'%s' --out '%s' --seconds 2", demo, dir1);
	p1 = popen(cmd, "r");
	snprintf(cmd, sizeof cmd, "D9REC_SYMBOLS=0 '%s' --out '%s' "
	    "--seconds 2", demo, dir0);
	p0 = popen(cmd, "r");
	ck_assert(p1 != NULL && p0 != NULL);
	ck_assert_int_eq(pclose(p1), 0);
	ck_assert_int_eq(pclose(p0), 0);
	strip_symbols(dir1, dir2);

	kernames_load(&kn);
	json_names(dir1, &kn, &a);
	json_names(dir2, &kn, &a2);
	json_names(dir0, &kn, &b);
	kernames_free(&kn);
	sa = joined(&a);
	sa2 = joined(&a2);
	sb = joined(&b);
	fprintf(stderr, "demo: A, symbol table: %s\ndemo: A, resolver: %s\n"
	    "demo: B, maps only: %s\n", sa, sa2, sb);
	ck_assert_uint_gt(a.n, 0);
	for (size_t i = 0; i < a.n; i++)
		ck_assert_msg(has(&a2, a.s[i]), "%s: not in A'", a.s[i]);
	for (size_t i = 0; i < a2.n; i++)
		ck_assert_msg(has(&a, a2.s[i]) || !elf_has(demo, a2.s[i]),
		    "%s: named in A' only, yet an ELF symbol", a2.s[i]);
	ck_assert_uint_eq(a2.unresolved, 0);
	ck_assert_uint_eq(b.unresolved, 0);
	ck_assert(has(&b, "poll_task") && has(&b, "worker_main"));
	if (has(&a, "crunch_numbers"))
		ck_assert(has(&b, "crunch_numbers"));
	free(sa);
	free(sa2);
	free(sb);
	names_free(&a);
	names_free(&a2);
	names_free(&b);
	per_address(dir1);
	tdir_remove(&d);
}
END_TEST

Suite *
suite_demo(void)
{
	Suite *s = suite_create("demo");
	TCase *tc = tcase_create("demo");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_demo_symbols);
	suite_add_tcase(s, tc);
	return s;
}
