/*
 * test_cache.c: d9top's index (store/cache.h), through the program, each
 * test with a cache directory of its own. What a user sees is the same
 * with and without it: --json, --report, --folded and a --window on the
 * three shared traces and on a directory of two segments are
 * byte-identical read from the traces (--no-cache), when the index is
 * written and when it is read; a read is proven by the entry's time of
 * use. A damaged entry (a byte flipped, cut in half, cut to its header's
 * first bytes, empty, a directory or a link in its place) gives the same
 * output and, where a file can be written there, the same entry again,
 * byte for byte (test_image.c refuses another format version). D9TOP_CACHE_MAX below an entry's size keeps it
 * out, 0 turns the index off. Four d9top processes filling one index at once
 * all print the same and leave a sound entry. A segment added to a
 * directory or removed from it is seen the next time, and the entry of
 * the directory's new state replaces the old one. A directory with a
 * live .active segment is not indexed, one whose .active segment is long
 * quiet is. An index that
 * cannot be written changes nothing. The detached writer of a headless
 * run leaves no lock behind, and lock files do not stall a run; a lock
 * held by a process that writes nothing costs seconds, not a minute.
 * A writer past the file size limit leaves nothing behind, and what a
 * writer that died left is removed by the next. (test_forged.c: the
 * index as untrusted input.)
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefix.h"
#include "minijson.h"
#include "run.h"
#include "../settle.h"

static const char *const modes[] = { "--json", "--report", "--folded cpu",
    "--folded offcpu", "--folded alloc", "--json --window 20..300" };
#define NMODES (sizeof modes / sizeof modes[0])

/* For each mode: without, writing and reading the index, one output. */
static void
check_input(struct fix *f, const char *input)
{
	char args[512], entry[256];

	for (size_t i = 0; i < NMODES; i++) {
		size_t n;
		char *want;

		snprintf(args, sizeof args, "--no-cache %s %s", modes[i], input);
		want = out_of(args, &n);
		ck_assert(n > 0 || strncmp(modes[i], "--folded", 8) == 0);
		snprintf(args, sizeof args, "%s %s", modes[i], input);
		same(args, want, n);		/* written, or read */
		ck_assert_int_eq(entries(f, entry, sizeof entry), 1);
		age(entry);
		same(args, want, n);		/* read */
		ck_assert_msg(was_read(entry), "%s was not read", entry);
		free(want);
	}
}

static void
link_trace(const char *dir, const char *name)
{
	char *src = trace_path(name), dst[256];

	snprintf(dst, sizeof dst, "%s/%s", dir, name);
	ck_assert_int_eq(symlink(src, dst), 0);
	free(src);
}

START_TEST(same_figures)
{
	static const char *const names[] = { "block-in-place-2026-05.bin",
	    "demo-2026-03.bin", "demo-2026-06.bin.gz" };
	struct fix f;
	char *p, segs[128];

	fix_init(&f);
	p = trace_path(names[_i]);
	check_input(&f, p);
	free(p);
	if (_i == 0) {
		/* a directory of two segments, one index entry */
		fix_free(&f);
		fix_init(&f);
		snprintf(segs, sizeof segs, "%s/segs", f.dir);
		ck_assert_int_eq(mkdir(segs, 0700), 0);
		link_trace(segs, names[0]);
		link_trace(segs, names[1]);
		check_input(&f, segs);
	}
	fix_free(&f);
}
END_TEST

enum { FLIP, HALF, HEAD, EMPTY, A_DIR, A_LINK, NDAMAGE };

static void
damage(const char *path, int how)
{
	struct stat sb;
	int fd;

	ck_assert_int_eq(stat(path, &sb), 0);
	if (how == A_DIR || how == A_LINK) {
		ck_assert_int_eq(unlink(path), 0);
		ck_assert_int_eq(how == A_DIR ? mkdir(path, 0700) :
		    symlink("/etc/passwd", path), 0);
		return;
	}
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	if (how == FLIP) {
		off_t at = sb.st_size * 3 / 4;
		unsigned char c;

		ck_assert_int_eq(pread(fd, &c, 1, at), 1);
		c ^= 0x10;
		ck_assert_int_eq(pwrite(fd, &c, 1, at), 1);
	} else
		ck_assert_int_eq(ftruncate(fd, how == HALF ? sb.st_size / 2 :
		    how == HEAD ? 10 : 0), 0);
	close(fd);
}

/* The output of `mode p` read from the trace (*n bytes); the same
 * through the index, which then holds one entry (its path in entry);
 * args left as `mode p`. */
static char *
entered(struct fix *f, const char *mode, const char *p, char *args,
    size_t nargs, char *entry, size_t nentry, size_t *n)
{
	char *want;

	snprintf(args, nargs, "--no-cache %s %s", mode, p);
	want = out_of(args, n);
	snprintf(args, nargs, "%s %s", mode, p);
	same(args, want, *n);
	ck_assert_int_eq(entries(f, entry, nentry), 1);
	return want;
}

START_TEST(damaged_entries)
{
	struct fix f;
	char *p = trace_path("demo-2026-03.bin"), args[256], entry[256];
	char *want, *good, *again;
	size_t n, ngood, nagain;

	fix_init(&f);
	want = entered(&f, "--json", p, args, sizeof args, entry, sizeof entry,
	    &n);
	good = mj_read_file_n(entry, &ngood);
	ck_assert_ptr_nonnull(good);
	damage(entry, _i);
	same(args, want, n);		/* refused, read from the trace */
	if (_i != A_DIR) {
		/* rebuilt, byte for byte, and read next time */
		ck_assert_int_eq(entries(&f, entry, sizeof entry), 1);
		again = mj_read_file_n(entry, &nagain);
		ck_assert_msg(again != NULL && nagain == ngood &&
		    memcmp(again, good, ngood) == 0, "damage %d: not rebuilt",
		    _i);
		free(again);
		age(entry);
		same(args, want, n);
		ck_assert_msg(was_read(entry), "damage %d: not read", _i);
	} else
		same(args, want, n);
	free(good);
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

START_TEST(processes_share_it)
{
	struct fix f;
	char *p = trace_path("demo-2026-06.bin.gz"), args[512], entry[256];
	char *want, *cmd, out[128];
	size_t n;

	fix_init(&f);
	snprintf(args, sizeof args, "--no-cache --json %s", p);
	want = out_of(args, &n);
	ck_assert_int_ne(asprintf(&cmd, "for i in 1 2 3 4; do '%s' --json "
	    "'%s' > '%s'/out.$i & done; wait", getenv("D9TOP"), p, f.dir), -1);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	for (int i = 1; i <= 4; i++) {
		size_t m;
		char *got;

		snprintf(out, sizeof out, "%s/out.%d", f.dir, i);
		got = mj_read_file_n(out, &m);
		ck_assert_ptr_nonnull(got);
		ck_assert_msg(m == n && memcmp(got, want, n) == 0,
		    "process %d printed other figures", i);
		free(got);
	}
	ck_assert_int_eq(entries(&f, entry, sizeof entry), 1);
	age(entry);
	snprintf(args, sizeof args, "--json %s", p);
	same(args, want, n);
	ck_assert(was_read(entry));
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

START_TEST(directory_changes)
{
	struct fix f;
	char segs[128], gone[256], *a, *b, *c;

	fix_init(&f);
	snprintf(segs, sizeof segs, "%s/segs", f.dir);
	ck_assert_int_eq(mkdir(segs, 0700), 0);
	copy_trace(segs, "block-in-place-2026-05.bin");
	copy_trace(segs, "demo-2026-03.bin");
	a = dir_matches(segs, NULL);
	copy_trace(segs, "demo-2026-06.bin.gz");	/* a new segment */
	b = dir_matches(segs, a);
	snprintf(gone, sizeof gone, "%s/demo-2026-03.bin", segs);
	ck_assert_int_eq(unlink(gone), 0);		/* one removed */
	c = dir_matches(segs, b);
	/* each state's entry replaced the one before: one per directory */
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	free(a);
	free(b);
	free(c);
	fix_free(&f);
}
END_TEST

START_TEST(unwritable_index)
{
	struct fix f;
	char xdg[128], *p = trace_path("demo-2026-03.bin"), args[256];
	char *want;
	size_t n;
	FILE *file;

	fix_init(&f);
	/* XDG_CACHE_HOME under a regular file: nothing can be made */
	snprintf(xdg, sizeof xdg, "%s/file", f.dir);
	file = fopen(xdg, "w");
	ck_assert_ptr_nonnull(file);
	fclose(file);
	snprintf(xdg, sizeof xdg, "%s/file/xdg", f.dir);
	ck_assert_int_eq(setenv("XDG_CACHE_HOME", xdg, 1), 0);
	snprintf(args, sizeof args, "--no-cache --json %s", p);
	want = out_of(args, &n);
	snprintf(args, sizeof args, "--json %s", p);
	same(args, want, n);
	same(args, want, n);
	/* a relative XDG_CACHE_HOME is ignored (HOME's .cache instead) */
	ck_assert_int_eq(setenv("XDG_CACHE_HOME", "rel", 1), 0);
	ck_assert_int_eq(setenv("HOME", f.dir, 1), 0);
	same(args, want, n);
	snprintf(xdg, sizeof xdg, "%s/.cache", f.dir);
	ck_assert_int_eq(setenv("XDG_CACHE_HOME", xdg, 1), 0);
	ck_assert_int_eq(entries(&f, NULL, 0), 0);	/* f.idx: not there */
	snprintf(f.idx, sizeof f.idx, "%s/.cache/d9top", f.dir);
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	ck_assert_int_eq(access("rel", F_OK), -1);
	/* a HOME that is not there is not made (a service's /nonexistent) */
	ck_assert_int_eq(unsetenv("XDG_CACHE_HOME"), 0);
	snprintf(xdg, sizeof xdg, "%s/gone", f.dir);
	ck_assert_int_eq(setenv("HOME", xdg, 1), 0);
	same(args, want, n);
	ck_assert_int_eq(access(xdg, F_OK), -1);
	/* a budget below the entry's size: none is written; 0: off */
	fix_free(&f);
	fix_init(&f);
	ck_assert_int_eq(setenv("D9TOP_CACHE_MAX", "0", 1), 0);
	same(args, want, n);
	ck_assert_int_eq(access(f.idx, F_OK), -1);	/* not even made */
	ck_assert_int_eq(setenv("D9TOP_CACHE_MAX", "64K", 1), 0);
	same(args, want, n);
	ck_assert_int_eq(entries(&f, NULL, 0), 0);
	ck_assert_int_eq(setenv("D9TOP_CACHE_MAX", "1G", 1), 0);
	same(args, want, n);
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	unsetenv("D9TOP_CACHE_MAX");
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

/* A segment still being written (.active, touched now) keeps its
 * directory out of the index; one left quiet for long (a recorder that
 * crashed or stopped) does not. */
START_TEST(active_segments)
{
	struct fix f;
	char segs[128], active[256], *src = trace_path("demo-2026-03.bin");
	char *cmd, *want;
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	size_t n;

	fix_init(&f);
	snprintf(segs, sizeof segs, "%s/segs", f.dir);
	ck_assert_int_eq(mkdir(segs, 0700), 0);
	snprintf(active, sizeof active, "%s/trace.0.bin.active", segs);
	ck_assert_int_ne(asprintf(&cmd, "cp '%s' '%s'", src, active), -1);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	want = dir_matches(segs, NULL);		/* live: not kept */
	ck_assert_int_eq(entries(&f, NULL, 0), 0);
	ck_assert_int_eq(utimensat(AT_FDCWD, active, old, 0), 0);
	free(want);
	want = dir_matches(segs, NULL);		/* quiet since 2001: kept */
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	n = strlen(want);
	ck_assert_uint_gt(n, 0);
	free(want);
	free(src);
	fix_free(&f);
}
END_TEST

/* "<idx>/<roots>.lock" of the entry at path (named roots-files.img). */
static void
lock_of(const struct fix *f, const char *entry, char *lock, size_t len)
{
	const char *name = strrchr(entry, '/') + 1;

	snprintf(lock, len, "%s/%.16s.lock", f->idx, name);
}

/* Files of the index whose names hold part. */
static int
files_with(const struct fix *f, const char *part)
{
	DIR *d = opendir(f->idx);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		n += strstr(de->d_name, part) != NULL;
	closedir(d);
	return n;
}

/*
 * A headless run leaves the entry to a detached writer that holds the
 * lock of the entry's roots: once it is done, no lock is left; a lock
 * file a crashed writer left (not held) neither delays nor stops the
 * next write; a held lock does not delay a run that finds its entry.
 */
START_TEST(entry_writer_lock)
{
	struct fix f;
	char *p = trace_path("demo-2026-03.bin"), args[256], entry[256];
	char lock[256], *want;
	size_t n;
	int fd;

	fix_init(&f);
	want = entered(&f, "--report", p, args, sizeof args, entry,
	    sizeof entry, &n);
	ck_assert_int_eq(files_with(&f, ".lock"), 0);
	/* a crashed writer's lock file, not held */
	lock_of(&f, entry, lock, sizeof lock);
	ck_assert_int_eq(unlink(entry), 0);
	fd = open(lock, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	same(args, want, n);
	ck_assert_int_eq(entries(&f, entry, sizeof entry), 1);
	ck_assert_int_eq(files_with(&f, ".lock"), 0);
	/* held by someone else while the entry is there: read at once */
	fd = open(lock, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);
	age(entry);
	same(args, want, n);
	ck_assert(was_read(entry));
	ck_assert_int_eq(unlink(lock), 0);
	close(fd);
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

/*
 * A process that holds the lock of an entry's roots and writes nothing
 * (a writer that hangs, or any process of the user's) costs a run two
 * seconds, not a minute: the run reads the traces and answers, within
 * `timeout 30` however loaded the machine, and writes nothing while the
 * lock is held.
 */
START_TEST(lock_held_long)
{
	struct fix f;
	char *p = trace_path("demo-2026-03.bin"), args[256], entry[256];
	char lock[256], *want;
	struct run_result r;
	size_t n;
	int fd;

	fix_init(&f);
	want = entered(&f, "--json", p, args, sizeof args, entry,
	    sizeof entry, &n);
	lock_of(&f, entry, lock, sizeof lock);
	ck_assert_int_eq(unlink(entry), 0);
	fd = open(lock, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);
	ck_assert_int_eq(run_prog(&r, "timeout", "30 '%s' --json '%s'",
	    getenv("D9TOP"), p), 0);
	ck_assert_msg(r.nout == n && memcmp(r.out, want, n) == 0,
	    "other figures while the lock was held");
	run_free(&r);
	ck_assert_int_eq(unlink(lock), 0);
	close(fd);
	ck_assert_int_eq(entries(&f, NULL, 0), 0);
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

/*
 * Past the file size limit (RLIMIT_FSIZE, 256 KiB here; the entry is
 * 5 MB) the detached writer's write fails and it removes its temporary
 * file: no entry, nothing left behind, the same figures.
 */
START_TEST(file_size_limit)
{
	struct fix f;
	char *p = trace_path("demo-2026-03.bin"), args[256], *want;
	struct rlimit was, lim;
	size_t n;

	fix_init(&f);
	snprintf(args, sizeof args, "--no-cache --json %s", p);
	want = out_of(args, &n);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
	lim = was;
	lim.rlim_cur = 256 << 10;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	snprintf(args, sizeof args, "--json %s", p);
	same(args, want, n);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
	ck_assert_int_eq(entries(&f, NULL, 0), 0);
	ck_assert_int_eq(files_with(&f, ".tmp-"), 0);
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

/*
 * The temporary file of a writer that died (no one holds its lock) goes
 * when the next entry is written, however fresh; one a writer still
 * holds stays.
 */
START_TEST(dead_writer_tmp)
{
	struct fix f;
	char *p = trace_path("block-in-place-2026-05.bin"), args[256];
	char entry[256], dead[256], live[256], *want;
	size_t n;
	int fd, lfd;

	fix_init(&f);
	want = entered(&f, "--json", p, args, sizeof args, entry,
	    sizeof entry, &n);
	ck_assert_int_eq(unlink(entry), 0);
	snprintf(dead, sizeof dead, "%s/.tmp-999999-deadwriter01", f.idx);
	snprintf(live, sizeof live, "%s/.tmp-1-livewriter0001", f.idx);
	fd = open(dead, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "half an entry", 13), 13);
	close(fd);
	lfd = open(live, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(flock(lfd, LOCK_EX), 0);
	same(args, want, n);
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	ck_assert_int_eq(access(dead, F_OK), -1);
	ck_assert_int_eq(access(live, F_OK), 0);
	close(lfd);
	free(want);
	free(p);
	fix_free(&f);
}
END_TEST

static Suite *
cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("index");

	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, same_figures, 0, 3);
	tcase_add_loop_test(tc, damaged_entries, 0, NDAMAGE);
	tcase_add_test(tc, processes_share_it);
	tcase_add_test(tc, directory_changes);
	tcase_add_test(tc, unwritable_index);
	tcase_add_test(tc, active_segments);
	tcase_add_test(tc, entry_writer_lock);
	tcase_add_test(tc, lock_held_long);
	tcase_add_test(tc, file_size_limit);
	tcase_add_test(tc, dead_writer_tmp);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(cache_suite(), 1);
}
