/*
 * test_avail.c: what the user writes for a size (d9_parse_size), and
 * how much memory d9top may take (d9_avail, base/statm.h): the texts
 * the kernel gives, read as the reader's budget needs them.
 */
#include <stdint.h>
#include <sys/resource.h>

#include "base/statm.h"
#include "base/units.h"
#include "suites.h"

START_TEST(test_parse_size)
{
	uint64_t v = 7;

	ck_assert_int_eq(d9_parse_size("512", &v), 0);
	ck_assert_uint_eq(v, 512);
	ck_assert_int_eq(d9_parse_size("300M", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)300 << 20);
	ck_assert_int_eq(d9_parse_size("4g", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)4 << 30);
	ck_assert_int_eq(d9_parse_size("2GiB", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)2 << 30);
	ck_assert_int_eq(d9_parse_size("64KB", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)64 << 10);
	ck_assert_int_eq(d9_parse_size("1T", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)1 << 40);
	ck_assert_int_eq(d9_parse_size("1.5G", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)3 << 29);
	ck_assert_int_eq(d9_parse_size("0.25k", &v), 0);
	ck_assert_uint_eq(v, 256);
	ck_assert_int_eq(d9_parse_size("2.5", &v), 0);	/* bytes: 2 */
	ck_assert_uint_eq(v, 2);
	/* not sizes: v stays */
	v = 7;
	ck_assert_int_eq(d9_parse_size("", &v), -1);
	ck_assert_int_eq(d9_parse_size("M", &v), -1);
	ck_assert_int_eq(d9_parse_size("-1", &v), -1);
	ck_assert_int_eq(d9_parse_size("12Q", &v), -1);
	ck_assert_int_eq(d9_parse_size("1 G", &v), -1);
	ck_assert_int_eq(d9_parse_size("1GB2", &v), -1);
	ck_assert_int_eq(d9_parse_size("1.G", &v), -1);
	ck_assert_int_eq(d9_parse_size("1..5G", &v), -1);
	ck_assert_int_eq(d9_parse_size(".5G", &v), -1);
	ck_assert_int_eq(d9_parse_size("99999999999999999999", &v), -1);
	ck_assert_int_eq(d9_parse_size("17000000000T", &v), -1);
	ck_assert_int_eq(d9_parse_size(NULL, &v), -1);
	ck_assert_uint_eq(v, 7);
}
END_TEST

/* What the user writes for a duration (d9_parse_dur): --window's ends
 * and the browser's g. */
START_TEST(test_parse_dur)
{
	double ns = 7;

	ck_assert_int_eq(d9_parse_dur("1.5s", 1e6, &ns), 0);
	ck_assert(ns == 1.5e9);
	ck_assert_int_eq(d9_parse_dur("250ms", 1e6, &ns), 0);
	ck_assert(ns == 250e6);
	ck_assert_int_eq(d9_parse_dur(" 30 us ", 1e6, &ns), 0);
	ck_assert(ns == 30e3);
	ck_assert_int_eq(d9_parse_dur("12\xc2\xb5s", 1e6, &ns), 0);
	ck_assert(ns == 12e3);
	ck_assert_int_eq(d9_parse_dur("800ns", 1e6, &ns), 0);
	ck_assert(ns == 800);
	ck_assert_int_eq(d9_parse_dur("42", 1e6, &ns), 0);	/* ms */
	ck_assert(ns == 42e6);
	ck_assert_int_eq(d9_parse_dur(".5", 1e9, &ns), 0);	/* s */
	ck_assert(ns == 0.5e9);
	ck_assert_int_eq(d9_parse_dur("5e3ms", 1e6, &ns), 0);
	ck_assert(ns == 5e9);
	ck_assert_int_eq(d9_parse_dur("-2s", 1e6, &ns), 0);	/* the caller
								 * bounds it */
	ck_assert(ns == -2e9);
	/* not durations: ns stays */
	ns = 7;
	ck_assert_int_eq(d9_parse_dur("", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("s", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("5x", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("5 m s", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("5sec", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("nan", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("inf", 1e6, &ns), -1);
	ck_assert_int_eq(d9_parse_dur("0x10", 1e6, &ns), -1);
	ck_assert(ns == 7);
}
END_TEST

START_TEST(test_meminfo)
{
	ck_assert_uint_eq(d9_avail_meminfo("MemTotal:       24684032 kB\n"
	    "MemFree:        18086000 kB\nMemAvailable:   23549256 kB\n"
	    "Buffers:          123 kB\n"), (uint64_t)23549256 * 1024);
	/* a kernel older than 3.14 has no MemAvailable */
	ck_assert_uint_eq(d9_avail_meminfo("MemTotal: 1 kB\nMemFree: 2 kB\n"),
	    UINT64_MAX);
	ck_assert_uint_eq(d9_avail_meminfo(""), UINT64_MAX);
	ck_assert_uint_eq(d9_avail_meminfo("MemAvailable: x kB\n"),
	    UINT64_MAX);
	ck_assert_uint_eq(d9_avail_meminfo("MemAvailable: "
	    "99999999999999999999 kB\n"), UINT64_MAX);
}
END_TEST

START_TEST(test_cgroup)
{
	static const char stat[] = "anon 73741824\nfile 600000000\n"
	    "kernel_stack 16384\nactive_anon 1\ninactive_anon 2\n"
	    "active_file 200000000\ninactive_file 400000000\n";

	ck_assert_uint_eq(d9_avail_cgroup("max\n", "12345\n", ""),
	    UINT64_MAX);
	ck_assert_uint_eq(d9_avail_cgroup("1073741824\n", "73741824\n", ""),
	    1000000000);
	ck_assert_uint_eq(d9_avail_cgroup("1000\n", "2000\n", ""), 0);
	ck_assert_uint_eq(d9_avail_cgroup("1000\n", "", ""), 1000);
	ck_assert_uint_eq(d9_avail_cgroup("", "5", ""), UINT64_MAX);
	/* its page cache gives way: only the rest is used */
	ck_assert_uint_eq(d9_avail_cgroup("1073741824\n", "673741824\n",
	    stat), 1000000000);
	ck_assert_uint_eq(d9_avail_cgroup("1000\n", "10\n", stat), 1000);
	/* cgroup v1's memory.stat: the same names, per line */
	ck_assert_uint_eq(d9_avail_cgroup("9223372036854771712\n",
	    "2248708096\n", "cache 2457276416\nrss 2498560\n"
	    "inactive_file 1610182656\nactive_file 847093760\n"),
	    9223372036854771712ull);
}
END_TEST

/* A ulimit on the address space bounds what d9top may take: a third of
 * what is left of it (a read maps more than it holds). */
START_TEST(test_rlimit)
{
	/* a sanitizer's shadow holds terabytes of address space: the limit
	 * is set above what is in use */
	uint64_t used = d9_statm(D9_STATM_SIZE), want, a;
	struct rlimit r;

	ck_assert_uint_gt(used, 0);
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &r), 0);
	want = used + ((uint64_t)1 << 30);
	if (r.rlim_max != RLIM_INFINITY && (uint64_t)r.rlim_max < want)
		want = (uint64_t)r.rlim_max;	/* as much as may be set */
	r.rlim_cur = (rlim_t)want;
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &r), 0);
	a = d9_avail();
	ck_assert_uint_le(a, want > used ? (want - used) / 3 : 0);
	ck_assert(want <= used || a > 0);
}
END_TEST

Suite *
avail_suite(void)
{
	Suite *s = suite_create("avail");
	TCase *tc = tcase_create("avail");

	tcase_add_test(tc, test_parse_size);
	tcase_add_test(tc, test_parse_dur);
	tcase_add_test(tc, test_meminfo);
	tcase_add_test(tc, test_cgroup);
	tcase_add_test(tc, test_rlimit);
	suite_add_tcase(s, tc);
	return s;
}
