/*
 * groups.c: see groups.h. A group's shift is fixed when the group is
 * made, from its first segment's clock sync and first event, so every
 * event is moved once as it is read and a model that follows growing
 * inputs never moves rows twice.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/groups.h"
#include "model/core/ids.h"
#include "model/core/model.h"
#include "model/core/tables.h"

#define NS		1000000000ll
#define SAME_WALL	1000000ull	/* offsets of one boot agree within */
#define CONTINUE	10		/* a segment without clock sync goes on
				 * its predecessor's source within this
				 * many times the longest segment */
#define NEAR_WALL	(3600ull * NS)	/* align recordings begun this close */

void
d9m_pending_reset(struct d9m_pending *p)
{
	p->service = p->host = p->boot = D9_NONE;
	p->named = 0;
	p->host_named = 0;
	p->has_wall = 0;
	p->wall = 0;
	p->group = D9_NONE;
	p->shift = 0;
}

void
d9m_pending_meta(const struct d9m_model *m, struct d9m_pending *p,
    uint32_t key, uint32_t val)
{
	const char *k = d9m_str(m, key), *v = d9m_str(m, val);

	if (*v == '\0')
		return;
	if (strcmp(k, "service") == 0 || strcmp(k, "service_name") == 0)
		p->service = val;
	else if (strcmp(k, "host") == 0 || strcmp(k, "instance_path") == 0) {
		p->host = val;
		p->host_named = 1;
	} else if (strcmp(k, D9M_META_HOSTNAME) == 0) {
		/* dial9 0.5.1's system metadata names the host where
		 * nothing else does */
		if (p->host_named)
			return;
		p->host = val;
	}
	else if (strcmp(k, "boot_id") == 0)
		p->boot = val;
	else
		return;
	p->named = 1;
}

/* |a - b|, which a trace's clocks may put past INT64_MAX. */
static uint64_t
absdiff(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

static int
differs(uint32_t mine, uint32_t theirs)
{
	return theirs != D9_NONE && mine != D9_NONE && mine != theirs;
}

int
d9m_pending_other(const struct d9m_model *m, const struct d9m_pending *p,
    const uint32_t *keys, const uint32_t *vals, size_t n, uint64_t mono,
    uint64_t real)
{
	struct d9m_pending q;

	if (n == 0)
		return p->has_wall && real != 0 &&
		    absdiff((int64_t)(real - mono), p->wall) > SAME_WALL;
	if (!p->named)
		return 0;	/* its names came from the path */
	d9m_pending_reset(&q);
	for (size_t i = 0; i < n; i++)
		d9m_pending_meta(m, &q, keys[i], vals[i]);
	return differs(p->service, q.service) || differs(p->host, q.host) ||
	    differs(p->boot, q.boot);
}

void
d9m_pending_clock(struct d9m_pending *p, uint64_t mono, uint64_t real)
{
	if (p->has_wall)
		return;
	p->has_wall = 1;
	p->wall = (int64_t)(real - mono);
}

/* dial9's boot ids: four lowercase letters, a dash, a process id. */
static int
is_boot_id(const char *s, size_t n)
{
	size_t i;

	if (n < 6 || s[4] != '-')
		return 0;
	for (i = 0; i < 4; i++)
		if (!islower((unsigned char)s[i]))
			return 0;
	for (i = 5; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
all_digits(const char *s, size_t n, size_t want)
{
	if (n != want)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static uint32_t
intern_part(struct d9m_model *m, const char *s, size_t n)
{
	return d9_intern(&m->strs, s, n);
}

/*
 * Names from the input's path: Hive-style parts (service=, instance=,
 * boot=), a boot-id directory, and the S3 default layout
 * DATE/HHMM/SERVICE/INSTANCE.../BOOT/FILE.
 */
static void
from_path(struct d9m_model *m, struct d9m_pending *p, const char *path)
{
	const char *part[64];
	size_t len[64], n = 0, date = SIZE_MAX, boot = SIZE_MAX;

	for (const char *s = path; *s && n < 64; ) {
		const char *e = strchr(s, '/');
		size_t l = e ? (size_t)(e - s) : strlen(s);

		if (l > 0) {
			part[n] = s;
			len[n++] = l;
		}
		s += l + (e != NULL);
	}
	for (size_t i = 0; i + 1 < n; i++) {	/* the last part: the file */
		const char *s = part[i];
		size_t l = len[i];

		if (l > 8 && strncmp(s, "service=", 8) == 0)
			p->service = intern_part(m, s + 8, l - 8);
		else if (l > 9 && strncmp(s, "instance=", 9) == 0)
			p->host = intern_part(m, s + 9, l - 9);
		else if (l > 5 && strncmp(s, "boot=", 5) == 0)
			p->boot = intern_part(m, s + 5, l - 5);
		else if (is_boot_id(s, l))
			boot = i;
		else if (l == 10 && s[4] == '-' && s[7] == '-' &&
		    date == SIZE_MAX)
			date = i;
	}
	if (boot == SIZE_MAX)
		return;
	if (p->boot == D9_NONE)
		p->boot = intern_part(m, part[boot], len[boot]);
	/* DATE/HHMM/SERVICE/INSTANCE.../BOOT */
	if (date + 3 < boot && all_digits(part[date + 1], len[date + 1], 4) &&
	    p->service == D9_NONE && (p->host == D9_NONE || !p->host_named)) {
		const char *h = part[date + 3];

		p->service = intern_part(m, part[date + 2], len[date + 2]);
		p->host = intern_part(m, h, (size_t)(part[boot - 1] +
		    len[boot - 1] - h));
	}
}

static int
same_names(const struct d9m_groups *g, size_t i, const struct d9m_pending *p)
{
	return g->service[i] == p->service && g->host[i] == p->host &&
	    g->boot[i] == p->boot;
}

/* A segment without boot or clock sync: the source of the segment before
 * it when its first event at ts continues that one's times. */
static uint32_t
continued(const struct d9m_model *m, const struct d9m_pending *p,
    uint64_t ts, const struct d9m_prevseg *prev)
{
	const struct d9m_groups *g = &m->groups;
	uint64_t reach = CONTINUE * (prev->longest > NS ? prev->longest :
	    (uint64_t)NS);

	if (prev->group == D9_NONE || prev->group >= g->n ||
	    g->has_wall[prev->group] || !same_names(g, prev->group, p))
		return D9_NONE;
	if (ts < prev->first || (ts > prev->last && ts - prev->last > reach))
		return D9_NONE;
	return prev->group;
}

static uint32_t
find(const struct d9m_model *m, const struct d9m_pending *p, uint64_t ts,
    const struct d9m_prevseg *prev)
{
	const struct d9m_groups *g = &m->groups;

	if (p->boot == D9_NONE && !p->has_wall)
		return continued(m, p, ts, prev);
	for (size_t i = 0; i < g->n; i++) {
		if (!same_names(g, i, p))
			continue;
		if (p->boot != D9_NONE)
			return (uint32_t)i;
		if (g->has_wall[i] && absdiff(g->wall[i], p->wall) <= SAME_WALL)
			return (uint32_t)i;
	}
	return D9_NONE;
}

/* Where group i's times go on the first group's clock. */
static void
place(struct d9m_groups *g, size_t i, uint64_t ts)
{
	g->shift[i] = 0;
	g->aligned[i] = 1;
	if (i == 0)
		return;
	g->aligned[i] = 0;
	g->shift[i] = (int64_t)(g->first[0] - ts);
	if (g->has_wall[0] && g->has_wall[i]) {
		/* wrapping: the offsets are a trace's, any value at all */
		int64_t w0 = (int64_t)(g->first[0] + (uint64_t)g->wall[0]),
		    wi = (int64_t)(ts + (uint64_t)g->wall[i]),
		    s = (int64_t)((uint64_t)g->wall[i] - (uint64_t)g->wall[0]);

		if (absdiff(w0, wi) <= NEAR_WALL && (s >= 0 ||
		    ts >= 0 - (uint64_t)s)) {
			g->shift[i] = s;
			g->aligned[i] = 1;
		}
	}
}

static uint32_t
make(struct d9m_model *m, const struct d9m_pending *p, uint64_t ts)
{
	struct d9m_groups *g = &m->groups;
	size_t i = d9m_tab_push(g, &d9m_desc_groups);

	if (i == SIZE_MAX)
		return D9_NONE;
	g->service[i] = p->service;
	g->host[i] = p->host;
	g->boot[i] = p->boot;
	g->has_wall[i] = (uint8_t)p->has_wall;
	g->wall[i] = p->wall;
	g->first[i] = ts;
	place(g, i, ts);
	return (uint32_t)i;
}

int
d9m_group_resolve(struct d9m_model *m, struct d9m_pending *p, uint32_t seg,
    uint64_t ts, const struct d9m_prevseg *prev)
{
	uint32_t g;

	/* the path's names (dial9's S3 key layout) where the metadata has
	 * none; a host named only by the system's hostname gives way to
	 * the key's instance= */
	if (p->service == D9_NONE && (p->host == D9_NONE || !p->host_named) &&
	    p->boot == D9_NONE && m->segs.input[seg] != D9_NONE)
		from_path(m, p, d9m_str(m, m->segs.input[seg]));
	if ((g = find(m, p, ts, prev)) == D9_NONE && (g = make(m, p, ts)) == D9_NONE)
		return -1;
	if (p->has_wall && m->groups.has_wall[g])
		m->groups.wall[g] = p->wall;	/* follow slow drift */
	p->group = g;
	p->shift = m->groups.shift[g];
	m->segs.group[seg] = g;
	for (size_t i = m->clock.n; i-- > 0 && m->clock.seg[i] == seg; )
		m->clock.mono[i] = d9m_pending_ts(p, m->clock.mono[i]);
	return 0;
}

void
d9m_group_name(const struct d9m_model *m, uint32_t g, char *out, size_t cap)
{
	const uint32_t id[3] = { m->groups.service[g], m->groups.host[g],
	    m->groups.boot[g] };
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < 3; i++) {
		int w;

		if (id[i] == D9_NONE)
			continue;
		w = snprintf(out + n, cap - n, "%s%s", n ? " " : "",
		    d9m_str(m, id[i]));
		if (w < 0 || (size_t)w >= cap - n)
			return;
		n += (size_t)w;
	}
	if (n == 0)
		snprintf(out, cap, "(unnamed %u)", g);
}

static void
cover(uint64_t *c, uint32_t g, size_t ng, uint64_t ts)
{
	if (g >= ng)
		return;
	if (ts < c[2 * g])
		c[2 * g] = ts;
	if (ts > c[2 * g + 1])
		c[2 * g + 1] = ts;
}

int
d9m_groups_cover(struct d9m_model *m)
{
	size_t ng = m->groups.n;
	uint64_t *c = malloc((2 * ng + 1) * sizeof *c);

	if (c == NULL)
		return -1;
	for (size_t g = 0; g < ng; g++) {
		c[2 * g] = UINT64_MAX;
		c[2 * g + 1] = 0;
	}
	for (size_t i = 0; i < m->rt.n; i++)
		cover(c, m->wids.group[D9M_RT(m, worker, i)], ng,
		    m->rt.ts[i]);
	for (size_t i = 0; i < m->cpu.n; i++)
		if (m->cpu.seg[i] < m->segs.n)
			cover(c, m->segs.group[m->cpu.seg[i]], ng, m->cpu.ts[i]);
	for (size_t i = 0; i < m->custom.n; i++)
		if (m->custom.seg[i] < m->segs.n)
			cover(c, m->segs.group[m->custom.seg[i]], ng,
			    m->custom.ts[i]);
	free(m->group_cover);
	m->group_cover = c;
	return 0;
}
