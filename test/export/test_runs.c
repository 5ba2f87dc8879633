/*
 * test_runs.c: see runs.h.
 */
#include <check.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/export.h"
#include "../rmtree.h"
#include "outdir.h"
#include "runs.h"

/* A file of three segments: two raw ones of other processes and a gzip
 * one, one after the other (as `cat` makes them). */
static const char *const three[] = { "demo-2026-03.bin",
	"block-in-place-2026-05.bin", "demo-2026-06.bin.gz" };

struct scratch {
	char	 top[64], first[96], many[96], out[96], whole[96];
};

static void
append(FILE *to, const char *name)
{
	char path[4096], buf[65536];
	FILE *f;
	size_t k;

	snprintf(path, sizeof path, "%s/%s", getenv("D9_TRACES"), name);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	while ((k = fread(buf, 1, sizeof buf, f)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, k, to), k);
	fclose(f);
}

/* first: the first segment alone; many: all three. */
static void
scratch_make(struct scratch *s)
{
	FILE *f;

	snprintf(s->top, sizeof s->top, "/tmp/d9x-runs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->top));
	snprintf(s->first, sizeof s->first, "%s/first.bin", s->top);
	snprintf(s->many, sizeof s->many, "%s/many.bin", s->top);
	snprintf(s->out, sizeof s->out, "%s/out", s->top);
	snprintf(s->whole, sizeof s->whole, "%s/whole", s->top);
	ck_assert_ptr_nonnull(f = fopen(s->first, "wb"));
	append(f, three[0]);
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen(s->many, "wb"));
	for (size_t i = 0; i < sizeof three / sizeof three[0]; i++)
		append(f, three[i]);
	fclose(f);
}

/* Export path into out (cancel: NULL, or the flag); d9x_export's rc. */
static int
export_one(const char *out, const char *path, const _Atomic int *cancel,
    struct d9m_resolver *(*rnew)(void *), void *ctx, char *err,
    size_t errlen)
{
	const char *paths[1] = { path };
	struct d9x_opts o = { .outdir = out, .paths = paths, .npaths = 1,
	    .workers = 1, .cancel = cancel, .resolver_new = rnew,
	    .ctx = ctx };
	struct d9x_progress p;

	return d9x_export(&o, &p, err, errlen);
}

/* Whether a and b hold the same tables' files (loose: see same_tree). */
static void
same_export(const char *a, const char *b, const char *loose)
{
	ck_assert_uint_eq(same_tree(a, b, loose), same_tree(b, a, loose));
}

/* Temporary files under dir (a leaf half written). */
static size_t
tmps_under(const char *dir)
{
	char cmd[256];
	size_t n = SIZE_MAX;
	FILE *p;

	snprintf(cmd, sizeof cmd, "find %s -name '*.tmp' | wc -l", dir);
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	ck_assert_int_eq(fscanf(p, "%zu", &n), 1);
	ck_assert_int_eq(pclose(p), 0);
	return n;
}

/*
 * A file of many segments whose first one was exported before, alone:
 * its other segments are exported too. The first segment's leaf was the
 * file's only mark of "exported whole", so such a file (a host's
 * segments cat'ed into one, pulled again the next day with more) was
 * skipped, unread, for good.
 */
START_TEST(file_of_many_after_its_first_segment)
{
	struct scratch s;
	char err[512];

	scratch_make(&s);
	ck_assert_int_eq(export_one(s.out, s.first, NULL, NULL, NULL, err,
	    sizeof err), 0);
	ck_assert_msg(export_one(s.out, s.many, NULL, NULL, NULL, err,
	    sizeof err) == 0, "%s", err);
	ck_assert_int_eq(export_one(s.whole, s.many, NULL, NULL, NULL, err,
	    sizeof err), 0);
	same_export(s.out, s.whole, "/segments/");
	t_rmtree(s.top);
}
END_TEST

struct stopper {
	_Atomic int	 flag;
	int		 calls;
	int		 at;		/* the call that sets flag */
};

/* A segment's resolver asked for (export.h): the fold of one begins. */
static struct d9m_resolver *
stop_at(void *ctx)
{
	struct stopper *st = ctx;

	if (++st->calls == st->at)
		atomic_store(&st->flag, 1);
	return NULL;
}

/*
 * Stopped (d9x_opts.cancel) while the second of three segments of a file
 * is folded: the export ends at the third with "interrupted", no
 * temporary file stays, the first segment's leaf that would mark the
 * file exported is not in place; the next run ends what this one began,
 * and OUTDIR is then what one whole run writes.
 */
START_TEST(stopped_between_segments)
{
	struct scratch s;
	struct stopper st = { .at = 2 };
	char err[512], polls[128];

	scratch_make(&s);
	ck_assert_int_eq(export_one(s.out, s.many, &st.flag, stop_at, &st,
	    err, sizeof err), -1);
	ck_assert_str_eq(err, "interrupted");
	ck_assert_int_eq(st.calls, 2);		/* the third not folded */
	ck_assert_uint_eq(tmps_under(s.out), 0);
	snprintf(polls, sizeof polls, "%s/polls", s.out);
	ck_assert_int_eq(access(polls, F_OK), 0);
	ck_assert_int_eq(export_one(s.out, s.many, NULL, NULL, NULL, err,
	    sizeof err), 0);
	ck_assert_int_eq(export_one(s.whole, s.many, NULL, NULL, NULL, err,
	    sizeof err), 0);
	same_export(s.out, s.whole, NULL);
	t_rmtree(s.top);
}
END_TEST

/*
 * An OUTDIR written by a d9top that marked no file whole (no .whole
 * folder): a file whose first segment is exported counts as exported,
 * as it did then, and is marked so from then on.
 */
START_TEST(outdir_of_an_earlier_d9top)
{
	struct scratch s;
	char err[512], dir[160];
	const char *paths[1] = { s.many };
	struct d9x_opts o = { .outdir = s.out, .paths = paths, .npaths = 1,
	    .workers = 1 };
	struct d9x_progress p;

	scratch_make(&s);
	ck_assert_int_eq(export_one(s.out, s.many, NULL, NULL, NULL, err,
	    sizeof err), 0);
	snprintf(dir, sizeof dir, "rm -r %s/.whole", s.out);
	ck_assert_int_eq(system(dir), 0);
	ck_assert_int_eq(d9x_export(&o, &p, err, sizeof err), 0);
	ck_assert_uint_eq(p.present, 1);
	ck_assert_uint_eq(p.exported, 0);
	snprintf(dir, sizeof dir, "%s/.whole", s.out);
	ck_assert_uint_eq(files_in(dir), 1);
	t_rmtree(s.top);
}
END_TEST

/*
 * The marks go with what they mark: once the leaves of a file's first
 * segment are removed (a partition past its retention), the next run
 * removes that file's mark, so that .whole/ grows with OUTDIR's leaves,
 * not with every file ever exported.
 */
START_TEST(marks_go_with_their_leaves)
{
	struct scratch s;
	char err[512], cmd[256], dir[160];

	scratch_make(&s);
	ck_assert_int_eq(export_one(s.out, s.first, NULL, NULL, NULL, err,
	    sizeof err), 0);
	snprintf(dir, sizeof dir, "%s/.whole", s.out);
	ck_assert_uint_eq(files_in(dir), 1);
	snprintf(cmd, sizeof cmd, "cd %s && rm -r [a-z]*", s.out);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(export_one(s.out, s.many, NULL, NULL, NULL, err,
	    sizeof err), 0);
	/* many.bin's mark only: first.bin's went with its leaves (the
	 * same first segment, another size) */
	ck_assert_uint_eq(files_in(dir), 1);
	ck_assert_int_eq(export_one(s.whole, s.many, NULL, NULL, NULL, err,
	    sizeof err), 0);
	same_export(s.out, s.whole, NULL);
	t_rmtree(s.top);
}
END_TEST

void
runs_tests(TCase *tc)
{
	tcase_add_test(tc, file_of_many_after_its_first_segment);
	tcase_add_test(tc, stopped_between_segments);
	tcase_add_test(tc, outdir_of_an_earlier_d9top);
	tcase_add_test(tc, marks_go_with_their_leaves);
}
