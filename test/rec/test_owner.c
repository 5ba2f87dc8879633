/*
 * test_owner.c: libd9rec writes only into a directory that is the
 * calling user's alone. One its group or other users may write to, or
 * one another user owns, is refused (d9rec_options_check says why,
 * d9rec_open fails with EPERM and leaves nothing in it): someone else
 * could plant a segment there (a second process in the trace) or
 * replace the real ones. A directory of our own (0700) is used, and one
 * libd9rec makes is 0700 whatever the umask.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../skip.h"
#include "rectest.h"

#define OTHER_UID	65534	/* "nobody": a user the test is not */

/* dir is refused, for the reason that contains why, and left empty. */
static void
refused(const char *dir, const char *why)
{
	struct d9rec_options o;
	d9rec_writer *w = NULL;
	char msg[512], lock[600];

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), -EPERM);
	ck_assert_msg(strstr(msg, why) != NULL, "message: %s", msg);
	ck_assert_msg(strstr(msg, dir) != NULL, "message: %s", msg);
	ck_assert_int_eq(d9rec_open(&w, &o), -EPERM);
	ck_assert_ptr_null(w);
	ck_assert_uint_eq(rt_files(dir, ".active"), 0);
	snprintf(lock, sizeof lock, "%s/.lock", dir);
	ck_assert_int_ne(access(lock, F_OK), 0);
}

/* 0777, 0720 and 0702: writable by others, by the group, by others. */
START_TEST(test_writable_refused)
{
	static const mode_t modes[] = { 0777, 0720, 0702 };
	char *dir = rt_tmpdir(), why[64];

	ck_assert_int_eq(chmod(dir, modes[_i]), 0);
	snprintf(why, sizeof why, "group or other users may write to it "
	    "(mode %04o)", (unsigned)modes[_i]);
	refused(dir, why);
	ck_assert_uint_eq(rt_files(dir, ""), 0);
	chmod(dir, 0700);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_other_user_refused)
{
	struct stat sb;
	char *dir;

	if (geteuid() != 0) {
		/* the root directory is someone else's, and not writable
		 * by its group or others on any usual system */
		if (stat("/", &sb) < 0 || sb.st_uid == geteuid() ||
		    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
			t_skip("not root and no other user's directory to try");
			return;
		}
		refused("/", "belongs to another user");
		return;
	}
	dir = rt_tmpdir();
	ck_assert_int_eq(chown(dir, OTHER_UID, OTHER_UID), 0);
	refused(dir, "belongs to another user (uid 65534, not 0)");
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_own_dir_used)
{
	char *dir = rt_tmpdir(), sub[600];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	struct stat sb;
	mode_t old;
	size_t nerr;

	/* our own 0700 directory */
	ck_assert_int_eq(chmod(dir, 0700), 0);
	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_options_check(&o, NULL, 0), 0);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	d9rec_poll_end(t);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt_events, 1);
	d9m_model_free(&m);

	/* one it makes itself: 0700 even under umask 0 */
	snprintf(sub, sizeof sub, "%s/made", dir);
	rt_opts(&o, sub, NULL);
	old = umask(0);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	umask(old);
	ck_assert_int_eq(stat(sub, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0700);
	ck_assert_int_eq(d9rec_close(&w), 0);
	rt_rmdir(&(char *){ strdup(sub) });
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_owner(void)
{
	TCase *tc = tcase_create("owner");

	tcase_add_loop_test(tc, test_writable_refused, 0, 3);
	tcase_add_test(tc, test_other_user_refused);
	tcase_add_test(tc, test_own_dir_used);
	return tc;
}
