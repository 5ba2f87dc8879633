/*
 * test_outdir.c: see outdir.h.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/export.h"
#include "../rmtree.h"
#include "outdir.h"

size_t
files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	if (d != NULL)
		closedir(d);
	return n;
}

/* An export waiting for the lock of its OUTDIR (outlock.h). */
struct waiter {
	const char		*out;
	const char *const	*paths;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 told;	/* it said it waits */
	int			 rc;
	struct d9x_progress	 p;
	char			 err[512];
};

static void
waiter_note(void *ctx, const char *msg)
{
	struct waiter *w = ctx;

	pthread_mutex_lock(&w->mu);
	w->told |= strstr(msg, "another d9top is exporting here") != NULL;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static void *
waiter_run(void *arg)
{
	struct waiter *w = arg;
	struct d9x_opts o = { .outdir = w->out, .paths = w->paths,
	    .npaths = 1, .workers = 1, .note = waiter_note, .ctx = w };

	w->rc = d9x_export(&o, &w->p, w->err, sizeof w->err);
	return NULL;
}

/*
 * Two exports into one OUTDIR (a cron job whose last run is not over):
 * the second says it waits, writes nothing while the first holds
 * OUTDIR/.lock, then goes on. Both wrote the same temporary files, and
 * one failed with "cannot rename into place".
 */
START_TEST(one_export_at_a_time)
{
	char tmp[] = "/tmp/d9x-lock-XXXXXX", out[64], lockp[96], src[4096];
	const char *paths[1] = { src };
	struct waiter w = { .out = out, .paths = paths };
	pthread_t t;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(out, sizeof out, "%s/out", tmp);
	snprintf(lockp, sizeof lockp, "%s/.lock", out);
	snprintf(src, sizeof src, "%s/demo-2026-03.bin", getenv("D9_TRACES"));
	ck_assert_int_eq(mkdir(out, 0700), 0);
	ck_assert_int_ge(fd = open(lockp, O_RDWR | O_CREAT, 0600), 0);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);	/* another run's */
	pthread_mutex_init(&w.mu, NULL);
	pthread_cond_init(&w.cv, NULL);
	ck_assert_int_eq(pthread_create(&t, NULL, waiter_run, &w), 0);
	pthread_mutex_lock(&w.mu);
	while (!w.told)
		pthread_cond_wait(&w.cv, &w.mu);
	pthread_mutex_unlock(&w.mu);
	ck_assert_uint_eq(files_in(out), 0);	/* nothing but .lock */
	close(fd);				/* the other run ends */
	pthread_join(t, NULL);
	ck_assert_msg(w.rc == 0, "%s", w.err);
	ck_assert_uint_eq(w.p.exported, 1);
	ck_assert_uint_ge(files_in(out), 5);	/* the tables' folders */
	pthread_cond_destroy(&w.cv);
	pthread_mutex_destroy(&w.mu);
	t_rmtree(tmp);
}
END_TEST

/* How many files and folders under dir (its own mode not counted) have
 * a bit of mask in their mode. */
static size_t
modes_under(const char *dir, mode_t mask)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char p[4096];
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (lstat(p, &sb) < 0)
			continue;
		n += (sb.st_mode & mask) != 0;
		if (S_ISDIR(sb.st_mode))
			n += modes_under(p, mask);
	}
	if (d != NULL)
		closedir(d);
	return n;
}

/* OUTDIR is this user's alone (the index's rule): one that the group or
 * others may write to is refused before anything is written there (they
 * could plant links that send the tables elsewhere), a file is not a
 * directory; the folders made below OUTDIR are never group-writable,
 * whatever the umask. */
START_TEST(outdir_only_ours)
{
	char tmp[] = "/tmp/d9x-own-XXXXXX", out[64], path[256], src[4096];
	const char *paths[1] = { src };
	struct d9x_opts o = { .outdir = out, .paths = paths, .npaths = 1,
	    .workers = 1 };
	struct d9x_progress p;
	struct stat sb;
	char err[512];
	mode_t old;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(out, sizeof out, "%s/out", tmp);
	snprintf(src, sizeof src, "%s/demo-2026-03.bin", getenv("D9_TRACES"));
	ck_assert_int_eq(mkdir(out, 0700), 0);
	ck_assert_int_eq(chmod(out, 0777), 0);
	ck_assert_int_eq(d9x_export(&o, &p, err, sizeof err), -1);
	snprintf(path, sizeof path, "%s: refused: its group or other users "
	    "may write to it (mode 0777): anyone who can write there could "
	    "plant links", out);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s", err);
	snprintf(path, sizeof path, "%s/.lock", out);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(chmod(out, 0770), 0);
	ck_assert_int_eq(d9x_export(&o, &p, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "(mode 0770)"));
	ck_assert_uint_eq(files_in(out), 0);
	/* a file */
	snprintf(path, sizeof path, "%s/file", tmp);
	ck_assert_int_eq(close(open(path, O_WRONLY | O_CREAT, 0600)), 0);
	o.outdir = path;
	ck_assert_int_eq(d9x_export(&o, &p, err, sizeof err), -1);
	snprintf(path + strlen(path), sizeof path - strlen(path), ": not a "
	    "directory");
	ck_assert_str_eq(err, path);
	/* ours: written, and its folders are ours alone too */
	o.outdir = out;
	ck_assert_int_eq(chmod(out, 0755), 0);
	old = umask(002);
	ck_assert_msg(d9x_export(&o, &p, err, sizeof err) == 0, "%s", err);
	umask(old);
	snprintf(path, sizeof path, "%s/polls", out);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0755);
	snprintf(path, sizeof path, "%s/.lock", out);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0644);
	ck_assert_uint_eq(modes_under(out, 022), 0);	/* files too */
	t_rmtree(tmp);
}
END_TEST

void
outdir_tests(TCase *tc)
{
	tcase_add_test(tc, one_export_at_a_time);
	tcase_add_test(tc, outdir_only_ours);
}
