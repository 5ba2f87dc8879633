/*
 * test_disk.c: a real full disk and a real crash. ENOSPC: a child
 * process mounts a 512 KiB tmpfs in a mount namespace of its own
 * (unshare, as root or in a user namespace), fills it with a ballast
 * file and the recorder, records on through the full disk, frees the
 * ballast and records again: the losses are counted in the stats and in
 * the segments written after them, every cut segment ends at a whole
 * batch. Where no tmpfs can be mounted, the test is skipped (the
 * RLIMIT_FSIZE test of test_robust.c covers the same path with EFBIG).
 * kill -9 during constant rotation and compression: every segment the
 * writer sealed reads without an error, and a new writer seals the one
 * left open.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../skip.h"
#include "rectest.h"

#define FS_BYTES	(512 << 10)
#define BALLAST		(320 << 10)
#define NO_TMPFS	77

/* Writes s to the file at path: 0 or -1. */
static int
put_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	return close(fd) == 0 && ok ? 0 : -1;
}

/* In a new user namespace, root there is this user. */
static int
user_ns(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return -1;
	snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
	if (put_file("/proc/self/uid_map", map) < 0 ||
	    put_file("/proc/self/setgroups", "deny") < 0)
		return -1;
	snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
	return put_file("/proc/self/gid_map", map);
}

/* A private tmpfs of FS_BYTES on dir: 0, or -1 when not allowed. */
static int
tmpfs_on(const char *dir)
{
	char opts[64];

	if (unshare(CLONE_NEWNS) < 0 && user_ns() < 0)
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	snprintf(opts, sizeof opts, "size=%d", FS_BYTES);
	return mount("d9rec-test", dir, "tmpfs", 0, opts);
}

/* The child: records through a full tmpfs at base/fs, then copies what
 * is left to base/copy (outside the mount, which dies with the child)
 * and its stats to base/stats. */
static void
full_tmpfs(const char *base)
{
	char fs[512], trace[600], ballast[600], cmd[2048];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	d9rec_writer *w;
	int fd;

	snprintf(fs, sizeof fs, "%s/fs", base);
	snprintf(trace, sizeof trace, "%s/trace", fs);
	snprintf(ballast, sizeof ballast, "%s/ballast", fs);
	if (mkdir(fs, 0700) < 0 || tmpfs_on(fs) < 0)
		_exit(NO_TMPFS);
	if ((fd = open(ballast, O_WRONLY | O_CREAT, 0600)) < 0 ||
	    posix_fallocate(fd, 0, BALLAST) != 0 || close(fd) < 0)
		_exit(10);
	rt_opts(&o, trace, NULL);
	o.max_file_size = 64 << 10;
	if (d9rec_open(&w, &o) < 0)
		_exit(11);
	t = d9rec_thread_register(w, NULL, 0);
	rt_rounds(w, t, 1, 60, 500);		/* ~600 KiB: fills it */
	d9rec_stats(w, &st);
	if (st.write_errors == 0 || st.last_errno != ENOSPC)
		_exit(12);
	rt_rounds(w, t, 1000000, 5, 500);	/* still full */
	unlink(ballast);
	rt_rounds(w, t, 2000000, 3, 500);	/* room again */
	d9rec_stats(w, &st);
	d9rec_thread_unregister(&t);
	if (st.stopped || st.lost_batches < 5 || st.dropped != 0)
		_exit(13);
	if (d9rec_close(&w) != -ENOSPC)
		_exit(14);
	snprintf(cmd, sizeof cmd, "cp -a '%s/.' '%s/copy/' && test -z \"$(ls "
	    "-A '%s/copy' | grep active)\"", trace, base, base);
	if (system(cmd) != 0)
		_exit(15);
	snprintf(cmd, sizeof cmd, "%s/stats", base);
	if (rt_stats_save(cmd, &st) < 0)
		_exit(16);
}

START_TEST(test_enospc_tmpfs)
{
	char *base = rt_tmpdir(), path[600], cmd[700];
	struct d9rec_stats st;
	struct d9m_model *m;
	size_t nerr;
	int status;
	pid_t pid;

	snprintf(path, sizeof path, "%s/copy", base);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		full_tmpfs(base);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == NO_TMPFS) {
		t_skip("rec: no tmpfs could be mounted: ENOSPC not checked "
		    "(EFBIG under RLIMIT_FSIZE is)");
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
		ck_assert_int_eq(system(cmd), 0);
		free(base);
		return;
	}
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	snprintf(path, sizeof path, "%s/stats", base);
	rt_stats_load(path, &st);
	snprintf(path, sizeof path, "%s/copy", base);
	m = rt_load(path, &nerr);
	ck_assert_uint_eq(nerr, 0);		/* cut at whole batches */
	ck_assert_uint_ge(m->loss.incomplete, 1);
	ck_assert_uint_eq(m->loss.lost_batches, st.lost_batches);
	ck_assert_uint_eq(d9m_task_find(m, 1000001), D9_NONE);	/* lost */
	ck_assert_uint_ne(d9m_task_find(m, 2001499), D9_NONE);	/* after */
	d9m_model_free(&m);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	ck_assert_int_eq(system(cmd), 0);
	free(base);
}
END_TEST

/* Records forever, rotating every 16 KiB into gzip'd segments. */
static void
rotate_forever(const char *dir)
{
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;

	rt_opts(&o, dir, NULL);
	o.flush_interval_ms = 2;
	o.max_file_size = 16 << 10;
	o.max_total_size = 64 << 20;
	o.compression = D9REC_COMPRESS_GZIP;
	if (d9rec_open(&w, &o) < 0)
		_exit(10);
	t = d9rec_thread_register(w, NULL, 0);
	for (uint64_t i = 1;; i++) {
		d9rec_poll_start(t, i, 0, 0);
		d9rec_poll_end(t);
		if (i % 64 == 0)
			usleep(20);
	}
}

/* Each segment file of dir but the .active one, loaded alone. */
static size_t
check_sealed(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct d9m_model *m;
	char path[600];
	size_t n = 0, nerr;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "trace.", 6) != 0 ||
		    strstr(de->d_name, ".active") != NULL)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		m = rt_load(path, &nerr);
		ck_assert_msg(nerr == 0, "%s does not read", de->d_name);
		ck_assert_uint_gt(m->polls.n, 0);
		d9m_model_free(&m);
		n++;
	}
	closedir(d);
	return n;
}

START_TEST(test_kill9_sealed)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr, sealed, active;
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		rotate_forever(dir);
	/* until a few segments are sealed and compressed (at most 20 s) */
	for (int i = 0; i < 2000 && rt_files(dir, ".bin.gz") < 4; i++)
		usleep(10000);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_uint_ge(rt_files(dir, ".bin.gz"), 4);
	sealed = check_sealed(dir);

	/* the .active one (none when the kill fell between a seal and the
	 * next segment) */
	active = rt_files(dir, ".active");
	ck_assert_uint_le(active, 1);
	ck_assert_uint_eq(rt_files(dir, ""), sealed + active);
	m = rt_load(dir, &nerr);
	/* at most the batch being written can end in a truncated frame */
	ck_assert_uint_le(nerr, 1);
	ck_assert_uint_gt(m->polls.n, 1000);
	ck_assert_uint_ge(m->clock.n, 1);
	d9m_model_free(&m);

	/* a new writer seals the crashed one's .active (an empty one
	 * recorded nothing and goes), which reads too, but for a batch the
	 * kill cut, which d9top reports; its metadata says incomplete unless
	 * the kill fell in its seal */
	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_le(st.recovered_segments, active);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(rt_files(dir, ".active"), 0);
	ck_assert_uint_eq(rt_files(dir, ""), sealed + st.recovered_segments);
	m = rt_load(dir, &nerr);
	ck_assert_uint_le(nerr, 1);
	ck_assert_uint_le(m->loss.incomplete, st.recovered_segments);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_disk(void)
{
	TCase *tc = tcase_create("disk");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_enospc_tmpfs);
	tcase_add_test(tc, test_kill9_sealed);
	return tc;
}
