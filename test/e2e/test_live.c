/*
 * test_live.c: following a recording while it is written gives, once
 * the recorder has stopped, exactly what a fresh read of the directory
 * gives (ANALYSIS 23: a segment read while .active belongs where its
 * sealed copy does). d9demo records; this process follows the directory
 * through the library's follow API, as the browser's --follow does,
 * finishing a copy of what it holds between polls; then the --json of
 * the followed model must equal, byte for byte, the --json of the
 * directory read afresh. With gzip, zstd and uncompressed segments, with and without
 * the symbol table, rotations of 300 ms and 1 s.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/core/model.h"
#include "parse/follow.h"
#include "render.h"
#include "run.h"
#include "../skip.h"

struct config {
	const char	*compress;	/* d9demo flag, NULL: gzip (default) */
	const char	*rotate_ms;
	int		 symbols;
};

static const struct config configs[] = {
	{ NULL, "300", 1 },
	{ NULL, "1000", 1 },
	{ "--zstd", "300", 1 },
	{ "--no-compress", "300", 1 },
	{ NULL, "300", 0 },
	{ "--zstd", "1000", 0 },
};

static pid_t
record(const char *d9demo, const char *out, const struct config *c)
{
	const char *argv[12];
	int n = 0;
	pid_t pid;

	argv[n++] = d9demo;
	argv[n++] = "--out";
	argv[n++] = out;
	argv[n++] = "--seconds";
	argv[n++] = "2";
	argv[n++] = "--rotate-ms";
	argv[n++] = c->rotate_ms;
	if (c->compress != NULL)
		argv[n++] = c->compress;
	argv[n] = NULL;
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		if (!c->symbols)
			setenv("D9REC_SYMBOLS", "0", 1);
		execv(d9demo, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

START_TEST(test_follow_equals_fresh)
{
	const struct config *c = &configs[_i];
	const char *d9demo = getenv("D9DEMO");
	char top[] = "/tmp/d9live-XXXXXX", dir[64];
	const char *paths[] = { dir };
	struct d9p_read_stats st;
	struct d9p_follow *f;
	struct d9m_model *m, *fresh, *snap;
	char *followed, *again;
	int status = 0, done = 0;
	pid_t pid;

	if (d9demo == NULL || access(d9demo, X_OK) != 0) {
		t_skip("D9DEMO is not set to the demo program");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(top));
	snprintf(dir, sizeof dir, "%s/live", top);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	pid = record(d9demo, dir, c);
	ck_assert_ptr_nonnull(m = d9m_model_new());
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	memset(&st, 0, sizeof st);
	while (!done) {
		struct timespec ts = { 0, 30 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		done = waitpid(pid, &status, WNOHANG) == pid;
		ck_assert_int_eq(d9m_model_follow(m, f, NULL, &st), 0);
		/* shown as the browser shows it: a copy, finished */
		ck_assert_ptr_nonnull(snap = d9m_model_snapshot(m));
		ck_assert_int_eq(d9m_model_finish(snap), 0);
		d9m_model_free(&snap);
	}
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "d9demo failed (status %d)", status);
	d9p_follow_free(&f);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	followed = t_json(m, dir);

	ck_assert_ptr_nonnull(fresh = t_read(dir));
	again = t_json(fresh, dir);
	ck_assert_uint_eq(m->groups.n, 1);
	ck_assert_uint_eq(fresh->groups.n, 1);
	/* d9demo's bulk tasks record DemoBulkAlloc on worker threads: each
	 * is on its worker's lane (libd9rec writes worker_id and tid) */
	{
		size_t bulk = 0;

		for (size_t i = 0; i < fresh->appev.n; i++) {
			uint32_t r = fresh->appev.row[i];

			if (strcmp(d9m_str(fresh, fresh->custom.name[r]),
			    "DemoBulkAlloc") != 0)
				continue;
			bulk++;
			ck_assert_msg(fresh->appev.lane[i] != D9_NONE,
			    "a DemoBulkAlloc event has no lane");
		}
		ck_assert_uint_gt(bulk, 0);
	}
	if (strcmp(followed, again) != 0)
		t_say_diff("followed and fresh --json", "followed", followed,
		    "fresh   ", again);
	ck_assert_msg(strcmp(followed, again) == 0, "the followed model's "
	    "--json is not the fresh read's (where: above)");
	free(followed);
	free(again);
	d9m_model_free(&m);
	d9m_model_free(&fresh);
	{
		char cmd[128];

		snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

static Suite *
live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("follow");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_follow_equals_fresh, 0,
	    (int)(sizeof configs / sizeof configs[0]));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(live_suite(), 0);
}
