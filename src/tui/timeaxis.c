/*
 * timeaxis.c: see timeaxis.h. Column arithmetic is done in long double so
 * windows of any length (1 µs .. days of ns) map without overflow.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/textfmt.h"
#include "base/units.h"
#include "tui/timeaxis.h"

int
d9t_axis_x(const struct d9t_axis *ax, uint64_t ts)
{
	long double f;

	if (ts < ax->lo)
		f = -(long double)(ax->lo - ts);
	else
		f = (long double)(ts - ax->lo);
	f = f * ax->w / (long double)(ax->hi - ax->lo);
	if (f < -1e6L)
		f = -1e6L;
	if (f > 1e6L)
		f = 1e6L;
	return ax->x0 + (int)floorl(f);
}

uint64_t
d9t_axis_t(const struct d9t_axis *ax, int x)
{
	long double f = (long double)(x - ax->x0) *
	    (long double)(ax->hi - ax->lo) / ax->w;

	if (f < 0)
		return ax->lo - (uint64_t)ceill(-f) > ax->lo ? 0 :
		    ax->lo - (uint64_t)ceill(-f);
	return ax->lo + (uint64_t)ceill(f);
}

void
d9t_fmt_dur(char *out, size_t cap, uint64_t ns, int utf8)
{
	d9_fmt_dur(out, cap, ns, utf8);	/* as the report writes them */
}

void
d9t_fmt_since(char *out, size_t cap, uint64_t t0, uint64_t ts, int dec)
{
	uint64_t unit = 1;

	for (int i = dec < 0 ? 0 : dec; i < 9; i++)
		unit *= 10;	/* the last digit shown, in ns */
	/* before t0 by less than it shows: "0.000s", not "-0.000s" */
	if (ts >= t0 || t0 - ts < unit || cap < 2) {
		d9t_fmt_rel(out, cap, ts >= t0 ? ts - t0 : 0, dec);
		return;
	}
	out[0] = '-';
	d9t_fmt_rel(out + 1, cap - 1, t0 - ts, dec);
}

void
d9t_fmt_rel(char *out, size_t cap, uint64_t ns, int dec)
{
	uint64_t s = ns / 1000000000ull, frac = ns % 1000000000ull;
	uint64_t div = 1;

	if (dec <= 0) {
		snprintf(out, cap, "%" PRIu64 "s", s);
		return;
	}
	if (dec > 9)
		dec = 9;
	for (int i = dec; i < 9; i++)
		div *= 10;
	snprintf(out, cap, "%" PRIu64 ".%0*" PRIu64 "s", s, dec, frac / div);
}

int64_t
d9t_wall(const struct d9m_model *m, uint64_t ts, int *have)
{
	const struct d9m_clock *c = &m->clock;
	size_t best = SIZE_MAX, first = SIZE_MAX;

	*have = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (first == SIZE_MAX || c->mono[i] < c->mono[first])
			first = i;
		if (c->mono[i] <= ts && (best == SIZE_MAX ||
		    c->mono[i] >= c->mono[best]))
			best = i;
	}
	if (best == SIZE_MAX)
		best = first;
	if (best != SIZE_MAX) {
		/* in unsigned arithmetic: a trace's clock may be any
		 * value, and what does not fit wraps (d9t_fmt_wall says "?"
		 * for what is before 1970) */
		*have = 1;
		return (int64_t)(c->real[best] - c->mono[best] + ts);
	}
	if (m->meta.legacy_wall) {
		*have = 1;
		return (int64_t)(m->meta.legacy_wall - m->min_ts + ts);
	}
	return 0;
}

void
d9t_fmt_wall(char *out, size_t cap, int64_t wall_ns, int with_date)
{
	time_t s = (time_t)(wall_ns / 1000000000);
	long us = (long)(wall_ns % 1000000000 / 1000);
	struct tm tm;

	if (wall_ns < 0 || gmtime_r(&s, &tm) == NULL) {
		snprintf(out, cap, "?");
		return;
	}
	if (with_date)
		snprintf(out, cap, "%04d-%02d-%02d %02d:%02d:%02d.%06ld",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, us);
	else
		snprintf(out, cap, "%02d:%02d:%02d.%06ld", tm.tm_hour,
		    tm.tm_min, tm.tm_sec, us);
}

/* "12:00:03.5" on the trace's day. */
static int
parse_wall(const struct d9m_model *m, const char *s, uint64_t *out)
{
	int hh, mm, have, n = 0;
	double ss;
	int64_t w0 = d9t_wall(m, m->min_ts, &have), day, want;

	/* a wall clock before 1970 or past 2262 is a trace's nonsense */
	if (!have || w0 < 0 || w0 > INT64_MAX / 2 ||
	    sscanf(s, "%d:%d:%lf%n", &hh, &mm, &ss, &n) != 3 ||
	    s[n] != '\0' || hh < 0 || hh > 23 || mm < 0 || mm > 59 ||
	    ss < 0 || ss >= 61)
		return -1;
	day = w0 - w0 % (86400LL * 1000000000LL);
	want = day + ((int64_t)hh * 3600 + mm * 60) * 1000000000LL +
	    (int64_t)llround(ss * 1e9);
	if (want < w0 - 43200LL * 1000000000LL)
		want += 86400LL * 1000000000LL;	/* after midnight */
	/* the trace's clock runs at the wall clock's rate only nearly (its
	 * clock syncs): from a guess 1:1 from the start, steps to the time
	 * whose wall clock is the one asked, so that it shows as typed */
	*out = m->min_ts;
	for (int i = 0; i < 3; i++) {
		int64_t d = want - d9t_wall(m, *out, &have);

		if (d == 0)
			break;
		if (d < 0)
			*out = (uint64_t)-d > *out ? 0 : *out - (uint64_t)-d;
		else
			*out = (uint64_t)d > UINT64_MAX - *out ? UINT64_MAX :
			    *out + (uint64_t)d;
	}
	return 0;
}

int
d9t_parse_time(const struct d9m_model *m, const char *s, uint64_t cur,
    uint64_t *out)
{
	int sign = 0;
	double ns;

	while (isspace((unsigned char)*s))
		s++;
	if (strchr(s, ':') != NULL)
		return parse_wall(m, s, out);
	if (*s == '+' || *s == '-')
		sign = *s++ == '+' ? 1 : -1;
	while (isspace((unsigned char)*s))
		s++;
	/* a bare number is ms */
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	if (d9_parse_dur(s, 1e6, &ns) < 0 || ns < 0 || !(ns <= 1e19))
		return -1;
	/* rounded in unsigned (llround stops at INT64_MAX), held to the
	 * clock's range */
	*out = (uint64_t)(ns + 0.5);
	if (sign < 0)
		*out = *out > cur ? 0 : cur - *out;
	else {
		uint64_t from = sign > 0 ? cur : m->min_ts;

		*out = *out > UINT64_MAX - from ? UINT64_MAX : from + *out;
	}
	return 0;
}

uint64_t
d9t_tick_step(uint64_t span, int w, int min_cols)
{
	static const uint64_t mult[] = { 1, 2, 5 };
	uint64_t p = 1;

	if (w < 1)
		w = 1;
	for (;;) {
		for (int i = 0; i < 3; i++) {
			uint64_t step = p * mult[i];

			if ((long double)step * w / (long double)span >= min_cols)
				return step;
		}
		if (p > UINT64_MAX / 100)
			return p;
		p *= 10;
	}
}
