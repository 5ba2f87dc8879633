/*
 * test_labels.c: every row of a report section says what differs
 * (issue 37, model/labels.h). On the three shared traces and a d9demo
 * recording made here: the named rows of each list (blocking calls,
 * hotspots, each worst poll's stacks, task dumps, allocation sites) have
 * a label, no two alike, and the report prints each of them; on
 * demo-2026-06 the sites under one allocator frame are told apart by
 * their callers.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/json.h"
#include "model/figures/analysis.h"
#include "model/core/model.h"
#include "output/output.h"
#include "symbolize/resolver.h"
#include "render.h"
#include "run.h"
#include "../skip.h"

static const char *const traces[] = { "demo-2026-03.bin",
	"demo-2026-06.bin.gz", "block-in-place-2026-05.bin" };

/* s without white space, malloc'd: a label wrapped over lines is found
 * in the report whatever the wrapping. */
static char *
squeeze(const char *s)
{
	char *o = malloc(strlen(s) + 1), *p = o;

	ck_assert_ptr_nonnull(o);
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			*p++ = *s;
	*p = '\0';
	return o;
}

/* The rows' labels are there (the first D9M_LABELED), all different,
 * each in the report (squeezed). */
#define CHECK_LIST(what, rows, n, field) do { \
	size_t n_ = (n) < D9M_LABELED ? (n) : D9M_LABELED; \
	for (size_t i_ = 0; i_ < n_; i_++) { \
		const char *l_ = (rows)[i_].field; \
		ck_assert_msg(l_ != NULL && l_[0], "%s: %s row %zu has no " \
		    "label", name, what, i_); \
		for (size_t j_ = 0; j_ < i_; j_++) \
			ck_assert_msg(strcmp(l_, (rows)[j_].field) != 0, \
			    "%s: %s rows %zu and %zu both read \"%s\"", name, \
			    what, j_, i_, l_); \
		if (i_ < (shown)) { \
			char *q_ = squeeze(l_); \
			ck_assert_msg(strstr(report, q_) != NULL, "%s: the " \
			    "report lacks %s row %zu \"%s\"", name, what, i_, \
			    l_); \
			free(q_); \
		} \
	} \
} while (0)

/* The analysis and report of the inputs at path; checks every list. */
static void
check_trace(const char *path, const char *name, char **report_out)
{
	const char *const inputs[] = { path };
	struct d9m_analysis a;
	struct d9m_resolver *r;
	struct d9p_read_stats st;
	struct d9m_model *m;
	char *buf, *report;

	ck_assert_ptr_nonnull(m = d9m_model_new());
	memset(&st, 0, sizeof st);
	ck_assert_int_eq(d9m_model_load(m, inputs, 1, NULL, NULL, NULL, &st),
	    0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	t_analyze(m, &a, &r);
	buf = t_render(m, &a, r, path, d9o_report);
	report = squeeze(buf);
	{
		size_t shown = 5;	/* the report lists five of each */

		CHECK_LIST("blocking", a.off_groups, a.noff_groups, label);
		CHECK_LIST("hotspot", a.cpu_groups, a.ncpu_groups, label);
		CHECK_LIST("waiting-on", a.idle, a.nidle, label);
		CHECK_LIST("memory", a.mem.sites, a.mem.nsites, label);
	}
	for (size_t w = 0; w < a.nworst; w++) {
		size_t shown = 3;	/* and three of a poll's stacks */

		CHECK_LIST("worst poll on-CPU", a.worst[w].cpu, a.worst[w].ncpu,
		    label);
		CHECK_LIST("worst poll off-CPU", a.worst[w].off,
		    a.worst[w].noff, label);
	}
	free(report);
	/* --json has the same names, as "label" */
	{
		char *json = t_render(m, &a, r, path, d9o_json);
		struct d9_json doc;
		struct d9_err e;
		const struct d9_jval *site, *wait;

		ck_assert_int_eq(d9_json_parse(&doc, json, strlen(json), &e), 0);
		site = d9_json_next(d9_json_member(d9_json_member(doc.root,
		    "memory"), "topSites"), NULL);
		if (a.mem.nsites > 0)
			ck_assert_str_eq(d9_json_str(d9_json_member(site,
			    "label"), NULL), a.mem.sites[0].label);
		wait = d9_json_next(d9_json_member(doc.root, "waitingOn"),
		    NULL);
		if (a.nidle > 0)
			ck_assert_str_eq(d9_json_str(d9_json_member(wait,
			    "label"), NULL), a.idle[0].label);
		d9_json_free(&doc);
		free(json);
	}
	if (report_out != NULL)
		*report_out = buf;
	else
		free(buf);
	d9m_analysis_free(&a);
	d9s_resolver_free(&r);
	d9m_model_free(&m);
}

START_TEST(test_shared_traces)
{
	char *path = trace_path(traces[_i]), *report = NULL;

	check_trace(path, traces[_i], _i == 1 ? &report : NULL);
	if (_i == 1) {
		/* MEMORY: the read buffer and the other sites under
		 * RawVecInner::try_allocate_in now read apart */
		const char *mem = strstr(report, "MEMORY ALLOCATIONS");

		ck_assert_ptr_nonnull(mem);
		ck_assert_msg(strstr(mem, "samples  alloc::raw_vec") == NULL,
		    "a MEMORY row is still named by the allocator:\n%s", mem);
		ck_assert_ptr_nonnull(strstr(mem, "171.7 MB   325 samples  "
		    "bytes::bytes_mut::BytesMut::reserve_inner from\n"));
		ck_assert_ptr_nonnull(strstr(mem, "hyper::proto::h1::conn::"
		    "Conn<I,B,T>::force_io_read"));
		/* WAITING ON: one row per wait, the same stack of two
		 * segments merged (7059 + 7000 dumps) */
		ck_assert_ptr_nonnull(strstr(report, "5.37s  14059x  tokio::"
		    "sync::notify::NotifiedProject::poll_notified"));
	}
	free(report);
	free(path);
}
END_TEST

/* A d9demo recording of one second, made here. */
START_TEST(test_demo_recording)
{
	const char *d9demo = getenv("D9DEMO");
	char top[] = "/tmp/d9labels-XXXXXX", dir[64], cmd[128];
	const char *argv[] = { d9demo, "--out", dir, "--seconds", "1", NULL };
	int status = 0;
	pid_t pid;

	if (d9demo == NULL || access(d9demo, X_OK) != 0) {
		t_skip("D9DEMO is not set to the demo program");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(top));
	snprintf(dir, sizeof dir, "%s/rec", top);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		execv(d9demo, (char *const *)argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "d9demo failed (status %d)", status);
	check_trace(dir, "d9demo", NULL);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *
labels_suite(void)
{
	Suite *s = suite_create("labels");
	TCase *tc = tcase_create("labels");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_shared_traces, 0,
	    sizeof traces / sizeof traces[0]);
	tcase_add_test(tc, test_demo_recording);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(labels_suite(), 1);
}
