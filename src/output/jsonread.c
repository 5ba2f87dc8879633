/*
 * jsonread.c: a --json output of an earlier run read back as one side of
 * a comparison (model/figures/diff.h). The keys are the ones json.c writes
 * (DESIGN.md "JSON keys"); a document without pollByLoc is not such an
 * output. Keys a run of an older d9top did not write (cpuLeaves,
 * offCpuLeaves) leave those figures empty.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "model/figures/diff.h"
#include "output/output.h"

static uint64_t
u64_of(const struct d9_jval *v)
{
	double d = d9_json_num(v);

	if (d9_json_type(v) != D9_JNUM || !(d >= 0))
		return 0;
	/* rounded in unsigned: llround() stops at INT64_MAX */
	return d >= 1.8e19 ? UINT64_MAX : (uint64_t)(d + 0.5);
}

static uint64_t
member_u64(const struct d9_jval *v, const char *key)
{
	return u64_of(d9_json_member(v, key));
}

static void
pct_of(const struct d9_jval *v, struct d9m_pct *p)
{
	p->count = (size_t)member_u64(v, "count");
	p->p50 = member_u64(v, "p50");
	p->p99 = member_u64(v, "p99");
	p->max = member_u64(v, "max");
}

/* name -> {count, p50, p99, max} members of object key. */
static int
pcts(const struct d9_jval *root, const char *key, struct d9m_side *s,
    int (*add)(struct d9m_side *, const char *, const struct d9m_pct *))
{
	const struct d9_jval *o = d9_json_member(root, key);

	if (d9_json_type(o) != D9_JOBJ)
		return 0;
	for (const struct d9_jval *k = d9_json_next(o, NULL); k != NULL;
	    k = d9_json_next(o, k)) {
		struct d9m_pct p;

		pct_of(k, &p);
		if (p.count > 0 && add(s, d9_json_key(k), &p) < 0)
			return -1;
	}
	return 0;
}

static int
leaves(const struct d9_jval *root, const char *key, struct d9m_side *s,
    int which)
{
	const struct d9_jval *o = d9_json_member(root, key);

	if (d9_json_type(o) != D9_JOBJ)
		return 0;
	for (const struct d9_jval *k = d9_json_next(o, NULL); k != NULL;
	    k = d9_json_next(o, k))
		if (d9m_side_weight(s, which, d9_json_key(k), NULL,
		    (double)u64_of(k)) < 0)
			return -1;
	return 0;
}

static int
sites(const struct d9_jval *root, struct d9m_side *s)
{
	const struct d9_jval *top = d9_json_member(d9_json_member(root,
	    "memory"), "topSites");
	char key[8192];

	if (d9_json_type(top) != D9_JARR)
		return 0;
	for (const struct d9_jval *site = d9_json_next(top, NULL);
	    site != NULL; site = d9_json_next(top, site)) {
		const struct d9_jval *fr = d9_json_member(site, "frames");
		const char *leaf;
		size_t k = 0;

		key[0] = '\0';
		for (const struct d9_jval *f = d9_json_type(fr) == D9_JARR ?
		    d9_json_next(fr, NULL) : NULL; f != NULL;
		    f = d9_json_next(fr, f)) {
			const char *name = d9_json_str(f, NULL);
			int w;

			if (name == NULL)
				continue;
			w = snprintf(key + k, sizeof key - k, "%s%s",
			    k ? "\n" : "", name);
			if (w < 0 || (size_t)w >= sizeof key - k)
				break;
			k += (size_t)w;
		}
		leaf = d9_json_str(d9_json_member(site, "leaf"), NULL);
		if (d9m_side_weight(s, D9M_SIDE_SITE, leaf != NULL && leaf[0] ?
		    leaf : "(no frames)", key, (double)u64_of(
		    d9_json_member(site, "estimatedBytes"))) < 0)
			return -1;
	}
	return 0;
}

int
d9o_side_from_json(const struct d9_jval *root, struct d9m_side *s,
    char *err, size_t errlen)
{
	const struct d9_jval *loc = d9_json_member(root, "pollByLoc");

	if (d9_json_type(loc) != D9_JOBJ) {
		snprintf(err, errlen, "JSON without pollByLoc: not a d9top "
		    "--json output");
		return -1;
	}
	{
		double ms = d9_json_num(d9_json_member(root, "durationMs"));

		s->duration_ns = ms > 0 && ms < 1e12 ? (uint64_t)(ms * 1e6 +
		    0.5) : 0;
	}
	s->long_polls = (size_t)member_u64(root, "longPolls");
	pct_of(d9_json_member(root, "schedDelay"), &s->sched);
	s->cpu_total = (double)member_u64(root, "onCpu");
	s->off_total = (double)member_u64(root, "offCpuInPoll");
	if (pcts(root, "pollByLoc", s, d9m_side_loc) < 0 ||
	    pcts(root, "spans", s, d9m_side_span) < 0 ||
	    leaves(root, "cpuLeaves", s, D9M_SIDE_CPU) < 0 ||
	    leaves(root, "offCpuLeaves", s, D9M_SIDE_OFF) < 0 ||
	    sites(root, s) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
