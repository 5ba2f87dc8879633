/*
 * test_forged.c: d9top's index is untrusted input (DESIGN.md). An
 * entry's checksum is no secret, so these tests forge entries with the
 * checksum d9top computes (d9i_image_reseal) and put them where d9top
 * looks, under the key of the trace it is given:
 *   - every column that indexes another table, in a real entry of two
 *     shared traces, made to hold a row past that table (or put out of
 *     order where d9top searches it): opening refuses the entry; and
 *     through d9top (every column of the small trace, a fifth of the
 *     large one's) it is removed, d9top prints what it prints reading
 *     the trace (--no-cache), and exits 0 (a crash would not);
 *   - another trace's entry under this trace's key, in an index
 *     directory that its group may write to: not read, nothing written
 *     there, the figures of the trace itself, and one line on stderr
 *     saying why;
 *   - the same in a private directory, but an entry file that others
 *     may write to: refused, and replaced by the trace's own.
 *   - with `foreign` (run as root), the planted entry in a directory of
 *     another user's, open to all: the same (foreign_dir).
 * And every trace of the fuzz corpora gives an entry that d9top takes
 * back (the checks refuse no entry d9top writes).
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefix.h"
#include "minijson.h"
#include "store/cache.h"
#include "store/image.h"
#include "run.h"
#include "../skip.h"

#define OTHER	"d9test-other"	/* the user of foreign_dir */

/* The index key of the trace at path. */
static uint64_t
key_of(const char *path)
{
	struct d9i_key k;

	ck_assert_int_eq(d9i_cache_key(&path, 1, &k), 0);
	return k.files;
}

static void
put_file(const char *path, const uint8_t *p, size_t n, mode_t mode)
{
	char tmp[300];
	int fd;

	snprintf(tmp, sizeof tmp, "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
	ck_assert_int_eq(rename(tmp, path), 0);
}

/* Element i of check c in the image p, as a u64. */
static uint64_t
get(uint8_t *p, const struct d9i_icheck *c, uint64_t i)
{
	uint64_t v = 0;

	memcpy(&v, p + c->off + i * c->elem, c->elem);	/* little-endian */
	return v;
}

static void
set(uint8_t *p, const struct d9i_icheck *c, uint64_t i, uint64_t v)
{
	memcpy(p + c->off + i * c->elem, &v, c->elem);
}

/* Make c fail in p: a value at the bound of its table (the last row),
 * or, for a column only in order, two rows a third of the way down
 * above those after them (rows of one worker: a worker would need a
 * single row for both to start one). 0 when c cannot be made to fail
 * so. */
static int
break_check(uint8_t *p, const struct d9i_icheck *c)
{
	uint64_t top = c->elem == 8 ? UINT64_MAX : (1ull << 8 * c->elem) - 1;

	if (c->flags & D9I_ICK_PAIR) {
		set(p, c, c->n - 1, (c->bound >> 32) << 32);
		return 1;
	}
	if (c->bound != UINT64_MAX && c->bound < top) {
		set(p, c, c->n - 1, c->bound);
		return 1;
	}
	if ((c->flags & D9I_ICK_ASC) && c->n >= 4 &&
	    get(p, c, c->n / 3 + 2) < top - 1) {
		set(p, c, c->n / 3, top);
		set(p, c, c->n / 3 + 1, top - 1);
		return 1;
	}
	return 0;
}

/* The entry d9top makes of trace run with mode (its output, equal to
 * --no-cache's, in want): the file, its bytes, its checks. */
struct real_entry {
	char			 path[256];
	char			*good, *want;
	size_t			 ngood, nwant;
	struct d9i_icheck	*c;
	size_t			 nc;
	uint64_t		 key;
	uint8_t			*img;		/* a copy to forge */
};

static void
entry_load(struct fix *f, const char *trace, const char *mode,
    struct real_entry *e)
{
	char args[512];
	int fd;

	memset(e, 0, sizeof *e);
	e->key = key_of(trace);
	snprintf(args, sizeof args, "--no-cache %s %s", mode, trace);
	e->want = out_of(args, &e->nwant);
	snprintf(args, sizeof args, "%s %s", mode, trace);
	same(args, e->want, e->nwant);
	ck_assert_int_eq(entries(f, e->path, sizeof e->path), 1);
	e->good = mj_read_file_n(e->path, &e->ngood);
	ck_assert_ptr_nonnull(e->good);
	fd = open(e->path, O_RDONLY);
	ck_assert_int_eq(d9i_image_checks(fd, e->key, &e->c, &e->nc), 0);
	close(fd);
	e->img = malloc(e->ngood);
	ck_assert_ptr_nonnull(e->img);
}

static void
entry_free(struct real_entry *e)
{
	free(e->img);
	free(e->c);
	free(e->good);
	free(e->want);
}

/* e->img, resealed, put in e's place: opening it refuses it (-1) and
 * says why, into why. */
static int
forged_refused(const struct real_entry *e, char *why, size_t len)
{
	struct d9m_model *m;
	struct d9m_lanes *x;
	int fd, rc;

	ck_assert_int_eq(d9i_image_reseal(e->img, e->ngood, e->key), 0);
	put_file(e->path, e->img, e->ngood, 0600);
	fd = open(e->path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	rc = d9i_image_open(fd, e->key, &m, &x, why, len);
	close(fd);
	if (rc == 0) {
		d9m_lanes_free(&x);
		d9m_model_free(&m);
	}
	return rc == -1;
}

/* Forge each checked column of the entry of trace name in turn: it is
 * refused when opened; d9top (for every every-th) refuses it, removes
 * it, and prints what it prints from the trace. */
static void
forge_columns(const char *name, const char *mode, size_t every)
{
	struct fix f;
	struct real_entry e;
	char *p = trace_path(name), args[512], why[128];
	size_t forged = 0;

	fix_init(&f);
	entry_load(&f, p, mode, &e);
	snprintf(args, sizeof args, "%s %s", mode, p);
	ck_assert_uint_gt(e.nc, 20);
	/* read, never written: a refused entry stays refused */
	ck_assert_int_eq(setenv("D9TOP_CACHE_MAX", "1K", 1), 0);
	for (size_t i = 0; i < e.nc; i++) {
		memcpy(e.img, e.good, e.ngood);
		if (!break_check(e.img, &e.c[i]))
			continue;
		ck_assert_msg(forged_refused(&e, why, sizeof why),
		    "%s: check %zu (a column at %llu): the forged entry was "
		    "taken", name, i, (unsigned long long)e.c[i].off);
		if (forged++ % every == 0) {
			same(args, e.want, e.nwant);
			ck_assert_msg(access(e.path, F_OK) < 0,
			    "%s: check %zu: d9top took the forged entry",
			    name, i);
		}
	}
	ck_assert_uint_gt(forged, e.nc * 3 / 4);
	unsetenv("D9TOP_CACHE_MAX");
	entry_free(&e);
	free(p);
	fix_free(&f);
}

/* Every column of the largest trace's entry, a fifth of them through
 * d9top; every column of the smallest's through d9top. */
START_TEST(forged_columns)
{
	static const char *const names[] = { "demo-2026-06.bin.gz",
	    "block-in-place-2026-05.bin" };

	forge_columns(names[_i], "--json", _i == 0 ? 5 : 1);
}
END_TEST

/* An order broken exactly where opening's steps meet (D9I_IMAGE_STEP):
 * the first element of a step lower than the last of the one before.
 * Every such edge of every column in order (not by worker) of the large
 * trace's entry: opening refuses the entry each time. */
START_TEST(forged_at_step_edges)
{
	struct fix f;
	struct real_entry e;
	char *p = trace_path("demo-2026-06.bin.gz"), why[128];
	uint64_t head = d9i_image_head();
	size_t edges = 0;

	fix_init(&f);
	ck_assert_uint_gt(head, 0);
	entry_load(&f, p, "--json", &e);
	for (size_t k = 0; k < e.nc; k++) {
		const struct d9i_icheck *c = &e.c[k];
		uint64_t end = c->off + c->n * c->elem;

		if (!(c->flags & D9I_ICK_ASC) ||
		    (c->flags & (D9I_ICK_RUNS | D9I_ICK_PAIR)))
			continue;
		for (uint64_t b = head + (c->off - head) / D9I_IMAGE_STEP *
		    D9I_IMAGE_STEP + D9I_IMAGE_STEP; b < end;
		    b += D9I_IMAGE_STEP) {
			uint64_t i = (b - c->off) / c->elem;

			memcpy(e.img, e.good, e.ngood);
			if (get(e.img, c, i - 1) == 0)
				continue;
			set(e.img, c, i, get(e.img, c, i - 1) - 1);
			ck_assert_msg(forged_refused(&e, why, sizeof why),
			    "column at %llu, row %llu (byte %llu): the forged "
			    "entry was taken", (unsigned long long)c->off,
			    (unsigned long long)i, (unsigned long long)b);
			ck_assert_str_eq(why, "a column holds a row beyond its "
			    "table");
			edges++;
		}
	}
	fprintf(stderr, "forged: %zu step edges, each refused\n", edges);
	ck_assert_uint_gt(edges, 3);
	entry_free(&e);
	free(p);
	fix_free(&f);
}
END_TEST

/* Trace a's entry made the entry of trace b (its key, its checksum),
 * in dir with mode, the file with fmode; *n bytes. */
static void
plant(struct fix *f, const char *a, const char *b, mode_t dmode,
    mode_t fmode, char *entry, size_t len)
{
	char args[512], made[256], *img;
	size_t n;
	struct d9i_key k;

	snprintf(args, sizeof args, "--json %s", a);
	free(out_of(args, &n));
	ck_assert_int_eq(entries(f, made, sizeof made), 1);
	img = mj_read_file_n(made, &n);
	ck_assert_ptr_nonnull(img);
	ck_assert_int_eq(unlink(made), 0);
	ck_assert_int_eq(d9i_cache_key(&b, 1, &k), 0);
	ck_assert_int_eq(d9i_image_reseal((uint8_t *)img, n, k.files), 0);
	snprintf(entry, len, "%s/%016llx-%016llx.img", f->idx,
	    (unsigned long long)k.roots, (unsigned long long)k.files);
	put_file(entry, (uint8_t *)img, n, fmode);
	ck_assert_int_eq(chmod(f->idx, dmode), 0);
	free(img);
}

/* How many times needle is in hay. */
static int
count(const char *hay, const char *needle)
{
	int k = 0;

	for (const char *s = hay; (s = strstr(s, needle)) != NULL; s++)
		k++;
	return k;
}

/*
 * Trace a's entry planted as trace b's in the index directory, made
 * mode dmode and given to pw (when not NULL): d9top prints b's own
 * figures (--report, --json), says once on stderr that the directory is
 * not used and why (nothing with --quiet), and neither writes nor
 * removes an entry there.
 */
static void
dir_refused(mode_t dmode, const struct passwd *pw, const char *why)
{
	struct fix f;
	char *a = trace_path("demo-2026-03.bin");
	char *b = trace_path("block-in-place-2026-05.bin");
	char args[512], entry[256], *want;
	struct run_result r;
	struct stat sb;
	size_t n;

	fix_init(&f);
	snprintf(args, sizeof args, "--no-cache --report %s", b);
	want = out_of(args, &n);
	plant(&f, a, b, dmode, pw != NULL ? 0666 : 0600, entry, sizeof entry);
	if (pw != NULL) {
		ck_assert_int_eq(chown(f.idx, pw->pw_uid, pw->pw_gid), 0);
		ck_assert_int_eq(chown(entry, pw->pw_uid, pw->pw_gid), 0);
	}
	ck_assert_int_eq(run_d9top(&r, NULL, "--report %s", b), 0);
	ck_assert_msg(r.nout == n && memcmp(r.out, want, n) == 0,
	    "the entry in a directory not private (%s) was read", why);
	ck_assert_int_eq(count(r.err, "is not used"), 1);
	ck_assert_int_eq(count(r.err, why), 1);
	run_free(&r);
	free(want);
	snprintf(args, sizeof args, "--no-cache --json %s", b);
	want = out_of(args, &n);
	ck_assert_int_eq(run_d9top(&r, NULL, "--quiet --json %s", b), 0);
	ck_assert(r.nout == n && memcmp(r.out, want, n) == 0);
	ck_assert_uint_eq(r.nerr, 0);
	run_free(&r);
	ck_assert_int_eq(entries(&f, NULL, 0), 1);	/* only the planted */
	ck_assert_int_eq(stat(entry, &sb), 0);
	ck_assert_uint_eq(sb.st_uid, pw != NULL ? pw->pw_uid : geteuid());
	free(want);
	free(a);
	free(b);
	fix_free(&f);
}

START_TEST(group_writable_dir)
{
	dir_refused(_i == 0 ? 0770 : 0707, NULL, "may write to it");
}
END_TEST

START_TEST(writable_entry)
{
	struct fix f;
	char *a = trace_path("demo-2026-03.bin");
	char *b = trace_path("block-in-place-2026-05.bin");
	char args[512], entry[256], *want;
	size_t n;
	struct stat sb;

	fix_init(&f);
	snprintf(args, sizeof args, "--no-cache --report %s", b);
	want = out_of(args, &n);
	plant(&f, a, b, 0700, _i == 0 ? 0666 : 0620, entry, sizeof entry);
	snprintf(args, sizeof args, "--report %s", b);
	same(args, want, n);
	/* replaced by the trace's own, private, which is read next */
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	ck_assert_int_eq(stat(entry, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 0777, 0600);
	age(entry);
	same(args, want, n);
	ck_assert(was_read(entry));
	free(want);
	free(a);
	free(b);
	fix_free(&f);
}
END_TEST

/* Each file of a fuzz corpus directory that d9top reads gives an entry
 * that it reads back. */
static void
corpus_taken(struct fix *f, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512], args[600], entry[256];
	int taken = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		struct run_result r;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		snprintf(args, sizeof args, "--quiet --json '%s'", path);
		if (run_d9top(&r, NULL, "%s", args) != 0 ||
		    entries(f, entry, sizeof entry) == 0) {
			run_free(&r);
			continue;	/* nothing to read there */
		}
		run_free(&r);
		age(entry);
		ck_assert_int_eq(run_d9top(&r, NULL, "%s", args), 0);
		run_free(&r);
		ck_assert_msg(was_read(entry), "the entry of %s was refused",
		    path);
		ck_assert_int_eq(unlink(entry), 0);
		taken++;
	}
	closedir(d);
	ck_assert_int_gt(taken, 3);
}

START_TEST(corpora_taken)
{
	struct fix f;
	const char *src = getenv("D9_FUZZ_DIR");
	char dir[512];

	ck_assert_ptr_nonnull(src);
	fix_init(&f);
	snprintf(dir, sizeof dir, "%s/corpus", src);
	corpus_taken(&f, dir);
	snprintf(dir, sizeof dir, "%s/corpus-top", src);
	corpus_taken(&f, dir);
	fix_free(&f);
}
END_TEST

/* The user that owns the foreign directory, made when missing (root
 * only); NULL when there is none. */
static const struct passwd *
other_user(void)
{
	const struct passwd *pw = getpwnam(OTHER);

	if (pw == NULL && geteuid() == 0 &&
	    system("useradd -M " OTHER " >/dev/null 2>&1") == 0)
		pw = getpwnam(OTHER);
	return pw;
}

/*
 * An index directory another user made, open to all (0777), holding
 * another trace's entry under this trace's key, its checksum good:
 * d9top neither reads it nor writes there, prints the trace's own
 * figures, and says why once. Needs root (to give the directory away)
 * and a user to give it to: skipped otherwise.
 */
START_TEST(foreign_dir)
{
	const struct passwd *pw;

	if (geteuid() != 0 || (pw = other_user()) == NULL) {
		t_skip("needs root and a user " OTHER " (useradd -M)");
		return;
	}
	dir_refused(0777, pw, "belongs to another user");
}
END_TEST

static Suite *
forged_suite(int foreign)
{
	Suite *s = suite_create("forged");
	TCase *tc = tcase_create(foreign ? "foreign" : "forged");

	tcase_set_timeout(tc, 240);
	if (foreign)
		tcase_add_test(tc, foreign_dir);
	else {
		tcase_add_loop_test(tc, forged_columns, 0, 2);
		tcase_add_test(tc, forged_at_step_edges);
		tcase_add_loop_test(tc, group_writable_dir, 0, 2);
		tcase_add_loop_test(tc, writable_entry, 0, 2);
		tcase_add_test(tc, corpora_taken);
	}
	suite_add_tcase(s, tc);
	return s;
}

/* "foreign": the test that needs root (a program of its own, so that a
 * skip of it says nothing of the others). */
int
main(int argc, char **argv)
{
	umask(022);
	return run_suite(forged_suite(argc > 1 &&
	    strcmp(argv[1], "foreign") == 0), 1);
}
