/*
 * test_files.c: the files an index entry was made from (store/files.h)
 * and how a directory's files differ from them: grown by one segment, by
 * many, a segment replaced (same name, other bytes), removed, an .active
 * segment sealed, a file added before the end. Once on lists of plain
 * files; once through d9i_open on a directory of the shared traces'
 * copies (made in a temporary directory), whose store says how the files
 * changed since the entry it kept. A list read back that is damaged is
 * no list. Its own program: the unit suites' list is left alone.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "skip.h"
#include "store/files.h"
#include "store/store.h"

struct tdir {
	char	 dir[64];		/* the segments */
	char	 idx[96];		/* an index */
	char	 list[128];		/* a list file */
};

static void
tdir_init(struct tdir *t)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/d9files-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->idx, sizeof t->idx, "%s.idx", t->dir);
	snprintf(t->list, sizeof t->list, "%s.list", t->dir);
}

static void
tdir_free(struct tdir *t)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' '%s'", t->dir, t->idx,
	    t->list);
	ck_assert_int_eq(system(cmd), 0);
}

/* dir/name holding bytes (n of them, any). */
static void
put_file(const char *dir, const char *name, const void *bytes, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static void
put_text(const char *dir, const char *name, const char *text)
{
	put_file(dir, name, text, strlen(text));
}

/* How dir's files now differ from old's. */
static struct d9i_prior
against(const struct d9i_files *old, const char *dir)
{
	const char *paths[] = { dir };
	struct d9i_files now;
	struct d9i_prior p;

	ck_assert_int_eq(d9i_files_list(paths, 1, &now), 0);
	d9i_files_compare(old, &now, &p);
	d9i_files_free(&now);
	return p;
}

static void
list_of(const char *dir, struct d9i_files *fl)
{
	const char *paths[] = { dir };

	ck_assert_int_eq(d9i_files_list(paths, 1, fl), 0);
}

/* A directory of trace.0 .. trace.(n-1) (bytes of any kind). */
static void
segments(const char *dir, unsigned from, unsigned to)
{
	char name[32];

	for (unsigned i = from; i < to; i++) {
		snprintf(name, sizeof name, "trace.%u.bin", i);
		put_text(dir, name, name);
	}
}

START_TEST(lists_tell_growth)
{
	struct tdir t;
	struct d9i_files old;
	struct d9i_prior p;

	tdir_init(&t);
	segments(t.dir, 0, 9);
	list_of(t.dir, &old);
	ck_assert_uint_eq(old.n, 9);
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_SAME);
	ck_assert_uint_eq(p.kept, 9);
	/* trace.10 comes after trace.9 (version order) */
	segments(t.dir, 9, 11);
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_GROWN);
	ck_assert_uint_eq(p.kept, 9);
	ck_assert_uint_eq(p.added, 2);
	segments(t.dir, 11, 40);
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_GROWN);
	ck_assert_uint_eq(p.added, 31);
	ck_assert_str_eq(d9i_change_name(p.how), "grown");
	d9i_files_free(&old);
	tdir_free(&t);
}
END_TEST

START_TEST(lists_tell_changes)
{
	struct tdir t;
	struct d9i_files old;
	struct d9i_prior p;
	char a[128], b[128];

	tdir_init(&t);
	segments(t.dir, 0, 4);
	put_text(t.dir, "trace.4.bin.active", "live");
	list_of(t.dir, &old);
	/* sealed: the .active segment under its final name */
	snprintf(a, sizeof a, "%s/trace.4.bin.active", t.dir);
	snprintf(b, sizeof b, "%s/trace.4.bin", t.dir);
	ck_assert_int_eq(rename(a, b), 0);
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_SEALED);
	ck_assert_uint_eq(p.kept, 4);
	ck_assert_int_eq(rename(b, a), 0);
	ck_assert_int_eq(against(&old, t.dir).how, D9I_SAME);
	/* replaced: the same name, other bytes */
	put_text(t.dir, "trace.2.bin", "other bytes, longer");
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_REPLACED);
	ck_assert_uint_eq(p.kept, 2);
	d9i_files_free(&old);
	list_of(t.dir, &old);
	/* removed */
	snprintf(a, sizeof a, "%s/trace.1.bin", t.dir);
	ck_assert_int_eq(unlink(a), 0);
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_REMOVED);
	ck_assert_uint_eq(p.kept, 1);
	d9i_files_free(&old);
	list_of(t.dir, &old);
	/* a file before the end: not growth */
	put_text(t.dir, "trace.1.bin", "back");
	p = against(&old, t.dir);
	ck_assert_int_eq(p.how, D9I_INSERTED);
	ck_assert_uint_eq(p.kept, 1);
	d9i_files_free(&old);
	tdir_free(&t);
}
END_TEST

/* A list saved and read back is the same; damaged, it is none. */
START_TEST(lists_read_back_checked)
{
	struct tdir t;
	struct d9i_files a, b;
	uint64_t files = 0;
	int dfd;
	uint8_t *bytes;
	size_t n;
	FILE *f;

	tdir_init(&t);
	segments(t.dir, 0, 5);
	list_of(t.dir, &a);
	ck_assert_int_ge(dfd = open("/tmp", O_RDONLY | O_DIRECTORY), 0);
	ck_assert_int_eq(d9i_files_save(dfd, t.list + 5, 77, &a), 0);
	ck_assert_int_eq(d9i_files_load(dfd, t.list + 5, &files, &b), 0);
	ck_assert_uint_eq(files, 77);
	ck_assert_uint_eq(b.n, 5);
	ck_assert_uint_eq(d9i_files_sum(&a), d9i_files_sum(&b));
	d9i_files_free(&b);
	/* every cut and every changed count or length is refused or read
	 * within bounds */
	ck_assert_ptr_nonnull(f = fopen(t.list, "rb"));
	ck_assert_ptr_nonnull(bytes = malloc(4096));
	n = fread(bytes, 1, 4096, f);
	fclose(f);
	for (size_t cut = 0; cut < n; cut++) {
		ck_assert_int_eq(truncate(t.list, (off_t)cut), 0);
		ck_assert_int_eq(d9i_files_load(dfd, t.list + 5, &files, &b),
		    -1);
	}
	for (size_t at = 0; at < n; at++) {
		uint8_t keep = bytes[at];

		bytes[at] ^= 0xff;
		put_file("/tmp", t.list + 5, bytes, n);
		if (d9i_files_load(dfd, t.list + 5, &files, &b) == 0) {
			ck_assert_uint_le(b.n, 5);
			d9i_files_free(&b);
		}
		bytes[at] = keep;
	}
	free(bytes);
	close(dfd);
	d9i_files_free(&a);
	tdir_free(&t);
}
END_TEST

/* Copy the shared trace name into dir as as. */
static void
copy_trace(const char *dir, const char *name, const char *as)
{
	const char *traces = getenv("D9_TRACES");
	char path[512];
	uint8_t *b = malloc(4u << 20);
	size_t n;
	FILE *f;

	ck_assert_ptr_nonnull(b);
	snprintf(path, sizeof path, "%s/%s", traces ? traces : ".", name);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	n = fread(b, 1, 4u << 20, f);
	fclose(f);
	put_file(dir, as, b, n);
	free(b);
}

/* Open dir through the index at idx: s (close it); keep its entry when
 * read. */
static void
open_dir(struct d9i_store *s, const struct tdir *t)
{
	static const char *paths[1];
	struct d9i_where w = { t->idx, (uint64_t)1 << 30 };
	struct d9i_opts o = { .where = &w };

	paths[0] = t->dir;
	ck_assert_int_eq(d9i_open(s, paths, 1, &o), 0);
	if (s->keyed == 1)
		ck_assert_int_eq(d9i_keep(s, s->m, NULL, NULL), 0);
}

/* Through the store: how the directory changed since its entry. */
static enum d9i_change
reopened(const struct tdir *t, size_t *kept, size_t *added)
{
	struct d9i_store s;
	enum d9i_change how;

	open_dir(&s, t);
	ck_assert_int_eq(s.keyed, 1);
	how = s.prior.how;
	*kept = s.prior.kept;
	*added = s.prior.added;
	d9i_close(&s);
	return how;
}

START_TEST(store_tells_growth)
{
	struct tdir t;
	struct d9i_store s;
	size_t kept, added;
	char a[128], b[128];

	tdir_init(&t);
	copy_trace(t.dir, "block-in-place-2026-05.bin", "trace.0.bin");
	copy_trace(t.dir, "demo-2026-03.bin", "trace.1.bin");
	open_dir(&s, &t);
	ck_assert_int_eq(s.keyed, 1);
	ck_assert_int_eq(s.prior.how, D9I_NONE);
	d9i_close(&s);
	open_dir(&s, &t);
	ck_assert_int_eq(s.keyed, 0);		/* mapped */
	d9i_close(&s);
	/* the same files, only their change times differ (a mode
	 * changed, a file linked again): the entry is mapped */
	snprintf(a, sizeof a, "%s/trace.1.bin", t.dir);
	ck_assert_int_eq(chmod(a, 0600), 0);
	ck_assert_int_eq(chmod(a, 0644), 0);
	for (int k = 0; k < 2; k++) {
		open_dir(&s, &t);
		ck_assert_int_eq(s.keyed, 0);
		d9i_close(&s);
	}
	/* by one segment */
	copy_trace(t.dir, "block-in-place-2026-05.bin", "trace.2.bin");
	ck_assert_int_eq(reopened(&t, &kept, &added), D9I_GROWN);
	ck_assert_uint_eq(kept, 2);
	ck_assert_uint_eq(added, 1);
	/* by many */
	copy_trace(t.dir, "demo-2026-03.bin", "trace.3.bin");
	copy_trace(t.dir, "block-in-place-2026-05.bin", "trace.4.bin");
	copy_trace(t.dir, "demo-2026-03.bin", "trace.5.bin");
	ck_assert_int_eq(reopened(&t, &kept, &added), D9I_GROWN);
	ck_assert_uint_eq(kept, 3);
	ck_assert_uint_eq(added, 3);
	/* replaced: trace.3 holds the other trace now */
	copy_trace(t.dir, "block-in-place-2026-05.bin", "trace.3.bin");
	ck_assert_int_eq(reopened(&t, &kept, &added), D9I_REPLACED);
	ck_assert_uint_eq(kept, 3);
	/* removed */
	snprintf(a, sizeof a, "%s/trace.1.bin", t.dir);
	ck_assert_int_eq(unlink(a), 0);
	ck_assert_int_eq(reopened(&t, &kept, &added), D9I_REMOVED);
	ck_assert_uint_eq(kept, 1);
	/* an .active segment quiet for an hour (a stopped recorder's),
	 * then sealed */
	copy_trace(t.dir, "demo-2026-03.bin", "trace.6.bin.active");
	snprintf(a, sizeof a, "%s/trace.6.bin.active", t.dir);
	{
		struct timespec old[2] = { { time(NULL) - 3600, 0 },
		    { time(NULL) - 3600, 0 } };

		ck_assert_int_eq(utimensat(AT_FDCWD, a, old, 0), 0);
	}
	ck_assert_int_eq(reopened(&t, &kept, &added), D9I_GROWN);
	snprintf(b, sizeof b, "%s/trace.6.bin", t.dir);
	ck_assert_int_eq(rename(a, b), 0);
	ck_assert_int_eq(reopened(&t, &kept, &added), D9I_SEALED);
	ck_assert_uint_eq(kept, 5);
	tdir_free(&t);
}
END_TEST

/* Whether the index directory idx holds n entries and n files lists. */
static int
index_holds(const char *idx, int n)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "test $(ls '%s'/*.img | wc -l) = %d "
	    "&& test $(ls '%s'/*.files | wc -l) = %d", idx, n, idx, n);
	return system(cmd) == 0;
}

/* An entry evicted takes its files list with it. */
START_TEST(evicted_with_its_list)
{
	struct tdir t;
	struct d9i_store s;
	const char *paths[1];
	char other[80];
	struct d9i_where w;
	struct d9i_opts o = { .where = &w };
	struct stat sb;

	tdir_init(&t);
	copy_trace(t.dir, "demo-2026-03.bin", "trace.0.bin");
	open_dir(&s, &t);
	d9i_close(&s);
	ck_assert(index_holds(t.idx, 1));
	/* another directory, and a budget that holds one entry */
	snprintf(other, sizeof other, "%s/other", t.dir);
	ck_assert_int_eq(mkdir(other, 0700), 0);
	copy_trace(other, "demo-2026-03.bin", "trace.0.bin");
	{
		char img[256];
		FILE *p;

		snprintf(img, sizeof img, "ls %s/*.img", t.idx);
		ck_assert_ptr_nonnull(p = popen(img, "r"));
		ck_assert_ptr_nonnull(fgets(img, sizeof img, p));
		pclose(p);
		img[strcspn(img, "\n")] = '\0';
		ck_assert_int_eq(stat(img, &sb), 0);
	}
	w = (struct d9i_where){ t.idx, (uint64_t)sb.st_size * 3 / 2 };
	paths[0] = other;
	ck_assert_int_eq(d9i_open(&s, paths, 1, &o), 0);
	ck_assert_int_eq(s.keyed, 1);
	ck_assert_int_eq(d9i_keep(&s, s.m, NULL, NULL), 0);
	d9i_close(&s);
	ck_assert(index_holds(t.idx, 1));
	tdir_free(&t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("store-files");
	TCase *tc = tcase_create("files");
	SRunner *sr;
	int status;

	tcase_add_test(tc, lists_tell_growth);
	tcase_add_test(tc, lists_tell_changes);
	tcase_add_test(tc, lists_read_back_checked);
	tcase_add_test(tc, store_tells_growth);
	tcase_add_test(tc, evicted_with_its_list);
	suite_add_tcase(s, tc);
	t_need_traces(NULL);	/* else 77 */
	t_skip_init();
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	status = t_exit_status(sr);
	srunner_free(sr);
	return status;
}
