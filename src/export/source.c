/*
 * source.c: see source.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export/hash128.h"
#include "export/source.h"
#include "model/figures/analysis.h"
#include "model/core/ids.h"

static void
name_of(const struct d9m_model *m, uint32_t id, char *out)
{
	const char *v = id == D9_NONE ? "" : d9m_str(m, id);

	snprintf(out, D9X_NAME_MAX, "%s", *v ? v : "unknown");
}

static void
date_of(int64_t ns, char out[16])
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (ns <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(out, 16, "%Y-%m-%d", &tm) == 0)
		snprintf(out, 16, "unknown");
}

void
d9x_source_make(struct d9x_source *s, const struct d9m_model *m,
    const struct d9m_resolver *r, uint32_t g, const uint8_t base[16])
{
	uint64_t t0 = UINT64_MAX, wall;

	memset(s, 0, sizeof *s);
	s->m = m;
	s->r = r;
	s->g = g;
	s->seg0 = D9_NONE;
	for (size_t i = 0; i < m->segs.n && s->seg0 == D9_NONE; i++)
		if (m->segs.group[i] == g)
			s->seg0 = (uint32_t)i;
	if (m->group_cover != NULL && g < m->groups.n)
		t0 = m->group_cover[2 * g];
	if (t0 == UINT64_MAX)
		t0 = m->min_ts;
	wall = d9m_wall_ns(m, s->seg0, t0);
	if (wall != 0) {
		s->wall = 1;
		s->off = (int64_t)(wall - t0);
	}
	date_of(s->wall ? d9x_ns(s, t0) : 0, s->date);
	name_of(m, g < m->groups.n ? m->groups.boot[g] : D9_NONE, s->boot);
	name_of(m, g < m->groups.n ? m->groups.service[g] : D9_NONE,
	    s->service);
	name_of(m, g < m->groups.n ? m->groups.host[g] : D9_NONE, s->host);
	d9x_source_key(base, g, s->key);
}

void
d9x_source_key(const uint8_t base[16], uint32_t g, char out[33])
{
	uint8_t id[20], h[16];

	memcpy(id, base, 16);
	for (int b = 0; b < 4; b++)
		id[16 + b] = (uint8_t)(g >> (8 * b));
	d9x_hash128(id, sizeof id, h);
	d9x_hex128(h, out);
}

int
d9x_seg_in(const struct d9x_source *s, uint32_t seg)
{
	return seg < s->m->segs.n && s->m->segs.group[seg] == s->g;
}

int
d9x_task_in(const struct d9x_source *s, uint32_t t)
{
	return t < s->m->tasks.n && s->m->tasks.group[t] == s->g;
}

int
d9x_slot_in(const struct d9x_source *s, size_t w)
{
	return w < s->m->nworkers && s->m->workers[w].group == s->g;
}

uint32_t
d9x_worker_group(const struct d9x_source *s, uint32_t id)
{
	return id < s->m->wids.n ? s->m->wids.group[id] : 0;
}

uint32_t
d9x_name_group(const struct d9x_source *s, uint32_t name, const char **bare)
{
	const char *v = d9m_str(s->m, name), *colon;
	char *end;
	unsigned long g;

	*bare = v;
	if (s->m->groups.n < 2 || (colon = strchr(v, ':')) == NULL ||
	    colon == v)
		return 0;
	g = strtoul(v, &end, 10);
	if (end != colon || g >= s->m->groups.n)
		return 0;
	*bare = colon + 1;
	return (uint32_t)g;
}

uint64_t
d9x_task_id(const struct d9x_source *s, uint32_t t)
{
	return t < s->m->tasks.n ? s->m->tasks.id[t] : 0;
}

int
d9x_is_key(const char *s)
{
	for (size_t i = 0; i < 32; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return 0;
	return 1;
}
