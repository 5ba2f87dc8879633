/*
 * test_diff.c: comparing two runs and gating on rules, below the
 * program: the JSON reader (escapes, errors with their byte, nesting
 * cap, telling JSON from a trace), the diff's ranking on the test runs
 * of diffpair.h (the regressed location, the hot function, the grown
 * site and the slower span first; new names first, gone ones last), a
 * --json output read back comparing equal to the analysis it came from,
 * and --check's rules (grammar, units, keys in milliseconds, changes
 * against a baseline, what is malformed and what fails).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "diffpair.h"
#include "model/figures/analysis.h"
#include "model/figures/diff.h"
#include "output/check.h"
#include "output/output.h"
#include "suites.h"

static void
parse_ok(struct d9_json *doc, const char *text)
{
	struct d9_err e;

	ck_assert_msg(d9_json_parse(doc, text, strlen(text), &e) == 0, "%s: %s",
	    text, e.msg);
}

START_TEST(json_values)
{
	struct d9_json doc;
	const struct d9_jval *a;

	parse_ok(&doc, " {\"a\\u00e9\\ud83d\\ude00\": [1, -2.5e3, true, null, "
	    "\"x\\n\\\"\"], \"o\": {}} ");
	ck_assert_int_eq(d9_json_type(doc.root), D9_JOBJ);
	ck_assert_uint_eq(d9_json_n(doc.root), 2);
	ck_assert_str_eq(d9_json_key(d9_json_kid(doc.root, 0)),
	    "a\xc3\xa9\xf0\x9f\x98\x80");
	a = d9_json_member(doc.root, "a\xc3\xa9\xf0\x9f\x98\x80");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(d9_json_n(a), 5);
	ck_assert(d9_json_num(d9_json_kid(a, 0)) == 1 &&
	    d9_json_num(d9_json_kid(a, 1)) == -2500);
	ck_assert_int_eq(d9_json_type(d9_json_kid(a, 2)), D9_JBOOL);
	ck_assert_int_eq(d9_json_type(d9_json_kid(a, 3)), D9_JNULL);
	ck_assert_str_eq(d9_json_str(d9_json_kid(a, 4), NULL), "x\n\"");
	ck_assert_ptr_null(d9_json_kid(a, 5));
	ck_assert_int_eq(d9_json_type(d9_json_member(doc.root, "o")), D9_JOBJ);
	ck_assert_ptr_null(d9_json_member(doc.root, "b"));
	d9_json_free(&doc);
}
END_TEST

START_TEST(json_errors)
{
	static const struct { const char *text; size_t off; } bad[] = {
		{ "{\"a\": [1,]}", 9 }, { "{\"a\" 1}", 5 }, { "[1] x", 4 },
		{ "\"\\q\"", 2 }, { "[01]", 2 }, { "", 0 }, { "{\"a\":\"\x01\"}", 6 },
	};
	char deep[200];
	struct d9_json doc;
	struct d9_err e;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(d9_json_parse(&doc, bad[i].text,
		    strlen(bad[i].text), &e) < 0, "%s parsed", bad[i].text);
		ck_assert_msg(e.off == bad[i].off, "%s: byte %llu, not %zu (%s)",
		    bad[i].text, (unsigned long long)e.off, bad[i].off, e.msg);
		ck_assert_ptr_nonnull(strstr(e.msg, "JSON: expected"));
		d9_json_free(&doc);
	}
	memset(deep, '[', sizeof deep);
	ck_assert(d9_json_parse(&doc, deep, sizeof deep, &e) < 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "nested more than"));
	d9_json_free(&doc);
	ck_assert(d9_json_looks(" \n{\"a\"", 6));
	ck_assert(!d9_json_looks("TRC\x00", 4));
	ck_assert(!d9_json_looks("\x1f\x8b", 2));
	ck_assert(!d9_json_looks("  ", 2));
}
END_TEST

/* The side of a whole run of diffpair.h (model freed). */
static void
side_of_run(int mode, struct d9m_side *s, char **json)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;
	struct d9m_analysis_opts o;
	struct d9o_out out;
	size_t len;

	mt_diffpair(&t, mode);
	m = mt_finish(&t);
	memset(&o, 0, sizeof o);
	o.win = D9M_WHOLE;
	o.worst = 10;
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	d9m_side_init(s);
	ck_assert_int_eq(d9m_side_of(s, m, NULL, &a), 0);
	if (json != NULL) {
		memset(&out, 0, sizeof out);
		out.m = m;
		out.a = &a;
		out.f = open_memstream(json, &len);
		d9o_json(&out);
		fclose(out.f);
	}
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}

/* n copies of item, comma-separated, inside open and close. */
static char *
repeated(const char *open, const char *item, size_t n, const char *close,
    size_t *len)
{
	size_t k = strlen(item), at = strlen(open);
	char *t = malloc(at + n * (k + 1) + strlen(close) + 1);

	ck_assert_ptr_nonnull(t);
	memcpy(t, open, at);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			t[at++] = ',';
		memcpy(t + at, item, k);
		at += k;
	}
	strcpy(t + at, close);
	*len = at + strlen(close);
	return t;
}

/* The densest documents take at most three times their size (and a
 * word); more
 * values than D9_JSON_MAX_VALUES fail at the first one too many. */
START_TEST(json_compact)
{
	static const struct { const char *open, *item, *close; } dense[] = {
		{ "[", "0", "]" }, { "[", "-1", "]" }, { "[", "\"\"", "]" },
		{ "[", "0.5", "]" }, { "[", "1e300", "]" }, { "[", "[]", "]" },
		{ "[", "[0]", "]" }, { "{", "\"\":0", "}" },
		{ "{", "\"\":[]", "}" }, { "[", "true", "]" },
		{ "[", "\"\\u00e9\"", "]" },
		{ "[", NULL, "]" },	/* D9_JSON_DEPTH - 1 arrays deep */
	};
	char deep[2 * D9_JSON_DEPTH];
	struct d9_json doc;
	struct d9_err e;
	size_t len;
	char *t;

	memset(deep, '[', D9_JSON_DEPTH - 1);
	deep[D9_JSON_DEPTH - 1] = '0';
	memset(deep + D9_JSON_DEPTH, ']', D9_JSON_DEPTH - 1);
	deep[2 * D9_JSON_DEPTH - 1] = '\0';
	for (size_t i = 0; i < sizeof dense / sizeof dense[0]; i++) {
		const char *item = dense[i].item ? dense[i].item : deep;

		t = repeated(dense[i].open, item, 10000,
		    dense[i].close, &len);
		ck_assert_int_eq(d9_json_parse(&doc, t, len, &e), 0);
		ck_assert_msg(doc.n * sizeof *doc.tape <= 3 * len + 4,
		    "%s: %zu bytes of tape for %zu of text", item,
		    doc.n * sizeof *doc.tape, len);
		ck_assert_uint_eq(d9_json_n(doc.root), 10000);
		d9_json_free(&doc);
		free(t);
	}
	t = repeated("[", "1.5", 3, "]", &len);
	ck_assert_int_eq(d9_json_parse(&doc, t, len, &e), 0);
	ck_assert(d9_json_num(d9_json_kid(doc.root, 2)) == 1.5);
	d9_json_free(&doc);
	free(t);
	/* the root array is the first value: its last item is one too many */
	t = repeated("[", "0", D9_JSON_MAX_VALUES, "]", &len);
	ck_assert_int_lt(d9_json_parse(&doc, t, len, &e), 0);
	ck_assert_uint_eq(e.off, len - 2);
	ck_assert_str_eq(e.msg, "JSON: more than 8388608 values");
	d9_json_free(&doc);
	free(t);
}
END_TEST

START_TEST(diff_ranks_the_regression_first)
{
	struct d9m_side old, new;
	struct d9m_diff d;

	side_of_run(DP_BASE, &old, NULL);
	side_of_run(DP_NEW, &new, NULL);
	ck_assert_int_eq(d9m_diff(&old, &new, &d), 0);
	ck_assert_uint_eq(d.long_old, 0);
	ck_assert_uint_eq(d.long_new, DP_POLLS);
	ck_assert_uint_eq(d.nlocs, 3);
	ck_assert_str_eq(d.locs[0].name, DP_API);
	ck_assert_uint_eq(d.locs[0].old->p99, DP_API_OLD_NS);
	ck_assert_uint_eq(d.locs[0].new->p99, DP_API_NEW_NS);
	ck_assert_int_eq(d9m_dpct_change(&d.locs[0]), (int64_t)(DP_API_NEW_NS -
	    DP_API_OLD_NS));
	ck_assert_int_eq(d9m_dpct_change(&d.locs[1]), 0);
	ck_assert_str_eq(d.cpu[0].name, DP_HOT);
	ck_assert(fabs(d.cpu[0].old - 0.1) < 1e-9);
	ck_assert(fabs(d.cpu[0].new - 0.7) < 1e-9);
	ck_assert(d.cpu[d.ncpu - 1].new - d.cpu[d.ncpu - 1].old < 0);
	ck_assert_uint_eq(d.noff, 1);
	ck_assert_str_eq(d.off[0].name, "read");	/* past the kernel */
	ck_assert_uint_eq(d.nsites, 2);
	ck_assert_str_eq(d.sites[0].name, "svc::cache::fill");
	ck_assert(d.sites[0].new > 9 * d.sites[0].old);
	ck_assert_str_eq(d.spans[0].name, "request");
	ck_assert(d9m_dpct_change(&d.spans[0]) > 4000000);
	d9m_diff_free(&d);
	d9m_side_free(&old);
	d9m_side_free(&new);
}
END_TEST

START_TEST(diff_new_first_gone_last)
{
	struct d9m_side old, new;
	struct d9m_pct p = { 10, 5, 50, 60 }, q = { 10, 5, 500, 600 };
	struct d9m_pct small = { 1, 1, 1, 1 };
	struct d9m_diff d;

	d9m_side_init(&old);
	d9m_side_init(&new);
	d9m_side_loc(&old, "a", &p);
	d9m_side_loc(&old, "gone", &q);
	d9m_side_loc(&new, "a", &q);
	d9m_side_loc(&new, "fresh", &small);
	d9m_side_weight(&old, D9M_SIDE_CPU, "f", NULL, 3);
	d9m_side_weight(&old, D9M_SIDE_CPU, "f", NULL, 1);
	old.cpu_total = 4;
	ck_assert_int_eq(d9m_diff(&old, &new, &d), 0);
	ck_assert_uint_eq(d.nlocs, 3);
	ck_assert_str_eq(d.locs[0].name, "fresh");
	ck_assert_ptr_null(d.locs[0].old);
	ck_assert_str_eq(d.locs[1].name, "a");
	ck_assert_str_eq(d.locs[2].name, "gone");
	ck_assert_ptr_null(d.locs[2].new);
	ck_assert(fabs(d.locs[1].old_share - 0.5) < 1e-9);
	ck_assert(fabs(d.locs[1].new_share - 10.0 / 11) < 1e-9);
	ck_assert_uint_eq(d.ncpu, 1);
	ck_assert(d.cpu[0].old == 1 && d.cpu[0].new == 0);
	d9m_diff_free(&d);
	d9m_side_free(&old);
	d9m_side_free(&new);
}
END_TEST

/* A crate's spawn location built under two cargo homes (a laptop's,
 * a container's) is one location: it was "new" and "gone" at once. */
START_TEST(diff_locations_across_cargo_homes)
{
	static const char *const a =
	    "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
	    "hyper-util-0.1.20/src/rt/tokio.rs:115:9";
	static const char *const b =
	    "/usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
	    "hyper-util-0.1.20/src/rt/tokio.rs:115:9";
	static const char *const ga =
	    "/root/.cargo/git/checkouts/tokio-6c2ba5bd9b1b8d62/1a2b3c4/"
	    "tokio/src/task/spawn.rs:10:5";
	static const char *const gb =
	    "/cargo/git/checkouts/tokio-6c2ba5bd9b1b8d62/1a2b3c4/"
	    "tokio/src/task/spawn.rs:10:5";
	struct d9m_pct p = { 10, 5, 50, 60 }, q = { 10, 5, 500, 600 };
	struct d9m_side old, new;
	struct d9m_diff d;

	ck_assert_str_eq(d9m_loc_key(a), "hyper-util-0.1.20/src/rt/tokio.rs:"
	    "115:9");
	ck_assert_str_eq(d9m_loc_key(gb), "tokio/src/task/spawn.rs:10:5");
	ck_assert_str_eq(d9m_loc_key("src/main.rs:1:1"), "src/main.rs:1:1");
	ck_assert_str_eq(d9m_loc_key("/x/registry/src/"), "/x/registry/src/");
	ck_assert_str_eq(d9m_loc_key("/x/registry/src/idx/"),
	    "/x/registry/src/idx/");
	d9m_side_init(&old);
	d9m_side_init(&new);
	d9m_side_loc(&old, a, &p);
	d9m_side_loc(&old, ga, &p);
	d9m_side_loc(&new, b, &q);
	d9m_side_loc(&new, gb, &q);
	ck_assert_int_eq(d9m_diff(&old, &new, &d), 0);
	ck_assert_uint_eq(d.nlocs, 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_ptr_nonnull(d.locs[i].old);
		ck_assert_ptr_nonnull(d.locs[i].new);
		ck_assert_int_eq(d9m_dpct_change(&d.locs[i]), 450);
	}
	ck_assert(strcmp(d.locs[0].name, b) == 0 ||
	    strcmp(d.locs[1].name, b) == 0);	/* the new run's name */
	d9m_diff_free(&d);
	d9m_side_free(&old);
	d9m_side_free(&new);
}
END_TEST

/* Unnamed addresses never match between runs (ASLR, another build):
 * the diff counts them in one row per module, in leaves and sites. */
START_TEST(diff_unnamed_frames_in_one_row)
{
	struct d9m_side old, new;
	struct d9m_diff d;
	char buf[D9M_ROW_MAX];

	ck_assert_str_eq(d9m_unnamed_row("0xffff9ba4de60", buf, sizeof buf),
	    "[unnamed]");
	ck_assert_str_eq(d9m_unnamed_row("0x1f (libc.so.6)", buf, sizeof buf),
	    "[unnamed in libc.so.6]");
	ck_assert_str_eq(d9m_unnamed_row("[kernel] 0xffffffff81000000", buf,
	    sizeof buf), "[unnamed in the kernel]");
	ck_assert_ptr_null(d9m_unnamed_row("0xzz", buf, sizeof buf));
	ck_assert_ptr_null(d9m_unnamed_row("0x1f (", buf, sizeof buf));
	ck_assert_ptr_null(d9m_unnamed_row("main", buf, sizeof buf));
	d9m_side_init(&old);
	d9m_side_init(&new);
	d9m_side_weight(&old, D9M_SIDE_CPU, "0xffff1", NULL, 1);
	d9m_side_weight(&old, D9M_SIDE_CPU, "0xffff2", NULL, 1);
	d9m_side_weight(&old, D9M_SIDE_CPU, "f", NULL, 2);
	old.cpu_total = 4;
	d9m_side_weight(&new, D9M_SIDE_CPU, "0xaaaa", NULL, 3);
	d9m_side_weight(&new, D9M_SIDE_CPU, "f", NULL, 1);
	new.cpu_total = 4;
	d9m_side_weight(&old, D9M_SIDE_SITE, "alloc", "alloc\n0xdead\nmain",
	    100);
	d9m_side_weight(&new, D9M_SIDE_SITE, "alloc", "alloc\n0xbeef\nmain",
	    300);
	ck_assert_int_eq(d9m_diff(&old, &new, &d), 0);
	ck_assert_uint_eq(d.ncpu, 2);
	ck_assert_str_eq(d.cpu[0].name, "[unnamed]");
	ck_assert(fabs(d.cpu[0].old - 0.5) < 1e-9);
	ck_assert(fabs(d.cpu[0].new - 0.75) < 1e-9);
	ck_assert_str_eq(d.cpu[1].name, "f");
	ck_assert_uint_eq(d.nsites, 1);
	ck_assert_str_eq(d.sites[0].key, "alloc\n[unnamed]\nmain");
	ck_assert(d.sites[0].old > 0 && d.sites[0].new > d.sites[0].old);
	d9m_diff_free(&d);
	d9m_side_free(&old);
	d9m_side_free(&new);
	/* named frames stay whole, however long (Rust's generics) */
	{
		char ka[400], kb[400];

		memset(ka, 'x', sizeof ka);
		memcpy(ka, "alloc\n", 6);
		memcpy(kb, ka, sizeof kb);
		ka[sizeof ka - 2] = 'a';
		kb[sizeof kb - 2] = 'b';
		ka[sizeof ka - 1] = kb[sizeof kb - 1] = '\0';
		d9m_side_init(&old);
		d9m_side_init(&new);
		d9m_side_weight(&old, D9M_SIDE_SITE, "alloc", ka, 1);
		d9m_side_weight(&new, D9M_SIDE_SITE, "alloc", kb, 1);
		ck_assert_int_eq(d9m_diff(&old, &new, &d), 0);
		ck_assert_uint_eq(d.nsites, 2);
		ck_assert_uint_eq(strlen(d.sites[0].key), sizeof ka - 1);
		d9m_diff_free(&d);
		d9m_side_free(&old);
		d9m_side_free(&new);
	}
}
END_TEST

START_TEST(json_output_reads_back_the_same)
{
	struct d9m_side a, b;
	struct d9m_diff d;
	struct d9_json doc;
	struct d9_err e;
	char *json, err[128];

	side_of_run(DP_NEW, &a, &json);
	ck_assert_int_eq(d9_json_parse(&doc, json, strlen(json), &e), 0);
	d9m_side_init(&b);
	ck_assert_int_eq(d9o_side_from_json(doc.root, &b, err, sizeof err), 0);
	ck_assert_int_eq(d9m_diff(&a, &b, &d), 0);
	ck_assert_uint_eq(d.nlocs, a.nlocs);
	for (size_t i = 0; i < d.nlocs; i++)
		ck_assert_int_eq(d9m_dpct_change(&d.locs[i]), 0);
	ck_assert_uint_eq(d.ncpu, a.ncpu);
	for (size_t i = 0; i < d.ncpu; i++)
		ck_assert(fabs(d.cpu[i].new - d.cpu[i].old) < 1e-12);
	ck_assert_uint_eq(d.nsites, 2);
	for (size_t i = 0; i < d.nsites; i++)
		ck_assert(fabs(d.sites[i].new - d.sites[i].old) < 1);
	ck_assert_uint_eq(d.nspans, 1);
	ck_assert(d.long_old == d.long_new && d.sched_old.p99 ==
	    d.sched_new.p99);
	d9m_diff_free(&d);
	d9_json_free(&doc);
	parse_ok(&doc, "{\"polls\": 3}");
	ck_assert_int_eq(d9o_side_from_json(doc.root, &b, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a d9top --json output"));
	d9_json_free(&doc);
	d9m_side_free(&a);
	d9m_side_free(&b);
	free(json);
}
END_TEST

/* Run rules on doc (and base): lines into out, the number failed;
 * -1 when they do not parse, -2 when a key is not valid. */
static long
rules(const char *text, const char *doc, const char *base, char *out,
    size_t cap)
{
	struct d9o_rules r;
	struct d9_json d, b;
	char err[300];
	long rc;
	FILE *f;

	out[0] = '\0';
	if (d9o_rules_parse(&r, &text, 1, base != NULL, err, sizeof err) < 0) {
		snprintf(out, cap, "%s", err);
		d9o_rules_free(&r);
		return -1;
	}
	parse_ok(&d, doc);
	if (base != NULL)
		parse_ok(&b, base);
	if (d9o_rules_valid(&r, d.root, err, sizeof err) < 0) {
		snprintf(out, cap, "%s", err);
		rc = -2;
	} else {
		f = fmemopen(out, cap, "w");
		rc = (long)d9o_rules_check(&r, d.root, base ? b.root : NULL, f);
		fclose(f);
	}
	d9_json_free(&d);
	if (base != NULL)
		d9_json_free(&b);
	d9o_rules_free(&r);
	return rc;
}

START_TEST(check_rules)
{
	const char *doc = "{\"longPolls\": 3, \"durationMs\": 1500.5, "
	    "\"schedDelay\": {\"p99\": 2500000, \"max\": null}, \"pollByLoc\": "
	    "{\"src/a.rs:1:1\": {\"p99\": 900}}, \"memory\": {\"liveBytes\": "
	    "2000000}, \"worstPolls\": [{\"durNs\": 7}], \"taskLeak\": "
	    "{\"suspected\": false}, \"recorder\": null}";
	const char *base = "{\"longPolls\": 2, \"schedDelay\": {\"p99\": "
	    "2000000}}";
	char out[2048];

	ck_assert_int_eq(rules("longPolls<=3, schedDelay.p99 < 3ms, "
	    "durationMs<2s,pollByLoc[src/a.rs:1:1].p99 == 900ns,"
	    "memory.liveBytes>=2MB, worstPolls[0].durNs!=8, "
	    "taskLeak.suspected==0", doc, NULL, out, sizeof out), 0);
	ck_assert_str_eq(out, "PASS longPolls<=3: actual 3\n"
	    "PASS schedDelay.p99 < 3ms: actual 2.5ms\n"
	    "PASS durationMs<2s: actual 1.5005s\n"
	    "PASS pollByLoc[src/a.rs:1:1].p99 == 900ns: actual 900ns\n"
	    "PASS memory.liveBytes>=2MB: actual 2MB\n"
	    "PASS worstPolls[0].durNs!=8: actual 7ns\n"
	    "PASS taskLeak.suspected==0: actual 0\n");
	/* without a unit, times and sizes print as the report's */
	ck_assert_int_eq(rules("durationMs<2000, memory.liveBytes>1000, "
	    "schedDelay.p99<3000000", doc, NULL, out, sizeof out), 0);
	ck_assert_str_eq(out, "PASS durationMs<2000: actual 1.50s\n"
	    "PASS memory.liveBytes>1000: actual 2.0 MB\n"
	    "PASS schedDelay.p99<3000000: actual 2.50ms\n");
	ck_assert_int_eq(rules("longPolls>3,schedDelay.max<1,pollByLoc[b].p99<1,"
	    "recorder.cpuPct<2,schedDelay.p99Ns<1,worstPolls[3].durNs<1",
	    doc, NULL, out, sizeof out), 6);
	/* a name the object lacks is told with the names it has (a typo) */
	ck_assert_str_eq(out, "FAIL longPolls>3: actual 3\n"
	    "FAIL schedDelay.max<1: no value in this run\n"
	    "FAIL pollByLoc[b].p99<1: no value in this run (pollByLoc has no "
	    "'b'; it has src/a.rs:1:1)\n"
	    "FAIL recorder.cpuPct<2: no value in this run\n"
	    "FAIL schedDelay.p99Ns<1: no value in this run (schedDelay has no "
	    "'p99Ns'; it has p99, max)\n"
	    "FAIL worstPolls[3].durNs<1: no value in this run\n");
	/* names from the trace are escaped */
	ck_assert_int_eq(rules("pollByLoc[b].p99<1", "{\"pollByLoc\": "
	    "{\"\\u001b[2J\": {\"p99\": 1}}}", NULL, out, sizeof out), 1);
	ck_assert_ptr_null(strchr(out, 0x1b));
	ck_assert_ptr_nonnull(strstr(out, "it has \\x1b[2J)"));
	ck_assert_int_eq(rules("schedDelay.p99<=+10%,longPolls<=+0,"
	    "schedDelay.p99<=+0.6ms", doc, base, out, sizeof out), 2);
	ck_assert_str_eq(out, "FAIL schedDelay.p99<=+10%: actual 2.50ms, "
	    "baseline 2.00ms, limit 2.20ms\n"
	    "FAIL longPolls<=+0: actual 3, baseline 2, limit 2\n"
	    "PASS schedDelay.p99<=+0.6ms: actual 2.5ms, baseline 2ms, limit "
	    "2.6ms\n");
}
END_TEST

/* A location is found under another cargo home: a rule names it by its
 * crate folder on, a baseline from another machine by its own path. */
START_TEST(check_locations_across_cargo_homes)
{
	const char *doc = "{\"pollByLoc\": {\"/usr/local/cargo/registry/src/"
	    "idx-1/hyper-0.1/src/a.rs:1:1\": {\"p99\": 900}}}";
	const char *base = "{\"pollByLoc\": {\"/home/u/.cargo/registry/src/"
	    "idx-1/hyper-0.1/src/a.rs:1:1\": {\"p99\": 1000}}}";
	char out[2048];

	ck_assert_int_eq(rules("pollByLoc[hyper-0.1/src/a.rs:1:1].p99<1us,"
	    "pollByLoc[/x/registry/src/idx-2/hyper-0.1/src/a.rs:1:1].p99"
	    "<=+0", doc, base, out, sizeof out), 0);
	ck_assert_str_eq(out, "PASS pollByLoc[hyper-0.1/src/a.rs:1:1].p99<1us: "
	    "actual 0.9us\n"
	    "PASS pollByLoc[/x/registry/src/idx-2/hyper-0.1/src/a.rs:1:1]."
	    "p99<=+0: actual 900ns, baseline 1.0us, limit 1.0us\n");
	ck_assert_int_eq(rules("pollByLoc[hyper-0.2/src/a.rs:1:1].p99<1us",
	    doc, NULL, out, sizeof out), 1);
}
END_TEST

START_TEST(check_malformed)
{
	static const struct { const char *rule, *why; long rc; } bad[] = {
		{ "longPolls", "no operator", -1 },
		{ "longPolls=3", "no operator", -1 },
		{ "longPolls<", "no VALUE", -1 },
		{ "longPolls<x", "must be a number", -1 },
		{ "longPolls<3 parsecs", "unknown unit", -1 },
		{ "longPolls<+3", "needs --baseline", -1 },
		{ "longPolls<3%", "% only in a change", -1 },
		{ "a..b<3", "KEY must be a path", -1 },
		{ "a[x<3", "no operator", -1 },
		{ "a]x<3", "KEY must be a path", -1 },
		{ "longPoll<3", "no key 'longPoll'", -2 },
		{ "schedDelay<3", "names no number", -2 },
		/* a unit the key's figure is not in */
		{ "longPolls<1ms", "longPolls is a count or a ratio: give "
		    "no unit, not ms", -1 },
		{ "schedDelay.p99<1MB", "schedDelay.p99 is a time (ns): "
		    "give ns, us, ms or s, or no unit, not MB", -1 },
		{ "durationMs>2KB", "durationMs is a time (ms)", -1 },
		{ "memory.liveBytes<1s", "memory.liveBytes is a size "
		    "(bytes): give B, KB, MB or GB, or no unit, not s", -1 },
		{ "pollByLoc[a.rs:1:1Ns].count<1us", "is a count", -1 },
		{ "queue.max<1ms", "queue.max is a count", -1 },
		{ "longPolls.x<3", "names no number", -2 },
	};
	char out[512];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		long rc = rules(bad[i].rule, "{\"longPolls\": 1, \"schedDelay\":"
		    " {}}", NULL, out, sizeof out);

		ck_assert_msg(rc == bad[i].rc, "%s: %ld (%s)", bad[i].rule, rc,
		    out);
		ck_assert_msg(strstr(out, bad[i].why) != NULL &&
		    strstr(out, bad[i].rule) != NULL, "%s: %s", bad[i].rule,
		    out);
	}
}
END_TEST

Suite *
diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("diff");

	tcase_add_test(tc, json_values);
	tcase_add_test(tc, json_errors);
	tcase_add_test(tc, json_compact);
	tcase_add_test(tc, diff_ranks_the_regression_first);
	tcase_add_test(tc, diff_new_first_gone_last);
	tcase_add_test(tc, diff_locations_across_cargo_homes);
	tcase_add_test(tc, diff_unnamed_frames_in_one_row);
	tcase_add_test(tc, check_locations_across_cargo_homes);
	tcase_add_test(tc, json_output_reads_back_the_same);
	tcase_add_test(tc, check_rules);
	tcase_add_test(tc, check_malformed);
	suite_add_tcase(s, tc);
	return s;
}
