/*
 * jsonread.c: a --json output of an earlier run read back as one side of
 * a comparison (model/diff.h). The keys are the ones json.c writes
 * (DESIGN.md "JSON keys"); a document without pollByLoc is not such an
 * output. Keys a run of an older d9top did not write (cpuLeaves,
 * offCpuLeaves) leave those figures empty.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "model/diff.h"
#include "output/output.h"

static uint64_t
u64_of(const struct d9_jval *v)
{
	if (v == NULL || v->type != D9_JNUM || !(v->num >= 0))
		return 0;
	return v->num >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(v->num);
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

	for (size_t i = 0; o != NULL && o->type == D9_JOBJ && i < o->n; i++) {
		struct d9m_pct p;

		pct_of(&o->kids[i], &p);
		if (p.count > 0 && add(s, o->kids[i].key, &p) < 0)
			return -1;
	}
	return 0;
}

static int
leaves(const struct d9_jval *root, const char *key, struct d9m_side *s,
    int which)
{
	const struct d9_jval *o = d9_json_member(root, key);

	for (size_t i = 0; o != NULL && o->type == D9_JOBJ && i < o->n; i++)
		if (d9m_side_weight(s, which, o->kids[i].key, NULL,
		    (double)u64_of(&o->kids[i])) < 0)
			return -1;
	return 0;
}

static int
sites(const struct d9_jval *root, struct d9m_side *s)
{
	const struct d9_jval *top = d9_json_member(d9_json_member(root,
	    "memory"), "topSites");
	char key[8192];

	for (size_t i = 0; top != NULL && top->type == D9_JARR && i < top->n;
	    i++) {
		const struct d9_jval *site = &top->kids[i], *v;
		const struct d9_jval *fr = d9_json_member(site, "frames");
		size_t k = 0;

		key[0] = '\0';
		for (size_t j = 0; fr != NULL && fr->type == D9_JARR &&
		    j < fr->n; j++) {
			int w;

			if (fr->kids[j].type != D9_JSTR)
				continue;
			w = snprintf(key + k, sizeof key - k, "%s%s",
			    k ? "\n" : "", fr->kids[j].str);
			if (w < 0 || (size_t)w >= sizeof key - k)
				break;
			k += (size_t)w;
		}
		v = d9_json_member(site, "leaf");
		if (d9m_side_weight(s, D9M_SIDE_SITE, v != NULL &&
		    v->type == D9_JSTR && v->str[0] ? v->str : "(no frames)",
		    key, (double)u64_of(d9_json_member(site,
		    "estimatedBytes"))) < 0)
			return -1;
	}
	return 0;
}

int
d9o_side_from_json(const struct d9_jval *root, struct d9m_side *s,
    char *err, size_t errlen)
{
	const struct d9_jval *loc = d9_json_member(root, "pollByLoc");

	if (loc == NULL || loc->type != D9_JOBJ) {
		snprintf(err, errlen, "JSON without pollByLoc: not a d9top "
		    "--json output");
		return -1;
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
