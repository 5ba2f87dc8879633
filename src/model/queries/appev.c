/*
 * appev.c: see appev.h. Field lists are (key id, value id) pairs, so a
 * text is matched once per distinct string, then per list by id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/hmap.h"
#include "model/queries/appev.h"
#include "model/core/ids.h"
#include "model/queries/spanset.h"
#include "model/core/timeline.h"

static const char *const samples[] = { "ProcessResourceUsageEvent",
	"TcpAcceptQueueEvent", "SocketAcceptQueueEvent" };

void
d9m_appev_free(struct d9m_model *m)
{
	free(m->appev.row);
	free(m->appev.lane);
	free(m->appev.poll);
	memset(&m->appev, 0, sizeof m->appev);
}

static int
number(const struct d9m_model *m, uint32_t id, uint64_t *out)
{
	const char *s;
	char *end;

	if (id == D9_NONE)
		return -1;
	s = d9m_str(m, id);
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

/* The lane of custom row r: worker_id, else the worker of tid. */
static uint32_t
lane_of(const struct d9m_model *m, size_t r, uint32_t kw, uint32_t kt)
{
	uint32_t seg = m->custom.seg[r], g = 0, w, slot = D9_NONE;
	uint64_t v;

	if (seg < m->segs.n && m->segs.group[seg] != D9_NONE)
		g = m->segs.group[seg];
	if (number(m, d9m_field(m, m->custom.fields[r], kw), &v) == 0)
		slot = d9m_worker_slot_of(m, g, v);
	if (slot == D9_NONE &&
	    number(m, d9m_field(m, m->custom.fields[r], kt), &v) == 0 &&
	    v < D9_NONE) {
		w = d9m_tid_worker(m, d9m_group_tid(g, (uint32_t)v), D9_NONE);
		slot = d9m_worker_slot(m, w);
	}
	return slot;
}

int
d9m_appev_derive(struct d9m_model *m)
{
	struct d9m_appev *a = &m->appev;
	uint32_t skip[3], kw = d9_intern_find(&m->strs, "worker_id", 9),
	    kt = d9_intern_find(&m->strs, "tid", 3);
	size_t n = m->custom.n ? m->custom.n : 1;

	for (size_t i = 0; i < 3; i++)
		skip[i] = d9_intern_find(&m->strs, samples[i],
		    strlen(samples[i]));
	a->row = malloc(n * sizeof *a->row);
	a->lane = malloc(n * sizeof *a->lane);
	a->poll = malloc(n * sizeof *a->poll);
	if (a->row == NULL || a->lane == NULL || a->poll == NULL)
		return -1;
	for (size_t r = 0; r < m->custom.n; r++) {
		uint32_t name = m->custom.name[r], lane, p = D9_NONE;

		if (name == skip[0] || name == skip[1] || name == skip[2])
			continue;
		lane = lane_of(m, r, kw, kt);
		if (lane != D9_NONE) {
			p = d9m_poll_at(m, lane, m->custom.ts[r]);
			if (p != D9_NONE && m->polls.end[p] < m->custom.ts[r])
				p = D9_NONE;
		}
		a->row[a->n] = (uint32_t)r;
		a->lane[a->n] = lane;
		a->poll[a->n++] = p;
	}
	return 0;
}

/* hit[id]: string id contains text. NULL when out of memory. */
static uint8_t *
hits(const struct d9m_model *m, const char *text)
{
	uint8_t *hit = calloc(m->strs.n + 1, 1);

	if (hit != NULL)
		for (size_t i = 0; i < m->strs.n; i++)
			hit[i] = (uint8_t)d9_text_contains(d9m_str(m,
			    (uint32_t)i), text);
	return hit;
}

static int
list_hit(const struct d9m_model *m, uint32_t list, const uint8_t *hit)
{
	uint32_t len;
	const char *p;

	if (list == D9_NONE)
		return 0;
	p = d9_intern_str(&m->lists, list, &len);
	for (uint32_t i = 0; i + 8 <= len; i += 8) {
		uint64_t kv;

		memcpy(&kv, p + i, 8);
		if ((uint32_t)kv < m->strs.n && hit[(uint32_t)kv])
			return 1;
	}
	return 0;
}

int
d9m_appev_select(const struct d9m_model *m, const struct d9m_window *w,
    uint32_t name, const char *text, uint32_t **out, size_t *n)
{
	const struct d9m_appev *a = &m->appev;
	uint8_t *hit = NULL;
	uint32_t *v = malloc((a->n ? a->n : 1) * sizeof *v);

	*out = v;
	*n = 0;
	if (v == NULL)
		return -1;
	if (text != NULL && *text && (hit = hits(m, text)) == NULL)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		uint32_t r = a->row[i];

		if (!d9m_in_window(w, m->custom.ts[r]) ||
		    (name != D9_NONE && m->custom.name[r] != name) ||
		    (hit != NULL && !list_hit(m, m->custom.fields[r], hit)))
			continue;
		v[(*n)++] = (uint32_t)i;
	}
	free(hit);
	return 0;
}

static int
cmp_match(const void *x, const void *y)
{
	const struct d9m_match *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

int
d9m_find_text(const struct d9m_model *m, const char *text,
    struct d9m_match **out, size_t *n)
{
	const struct d9m_appev *a = &m->appev;
	uint8_t *hit = hits(m, text);
	struct d9m_match *v = malloc((a->n + m->spans.n + 1) * sizeof *v);

	*out = v;
	*n = 0;
	if (hit == NULL || v == NULL) {
		free(hit);
		return -1;
	}
	for (size_t i = 0; i < a->n; i++)
		if (list_hit(m, m->custom.fields[a->row[i]], hit))
			v[(*n)++] = (struct d9m_match){ m->custom.ts[a->row[i]],
			    a->lane[i], D9M_MATCH_EVENT, (uint32_t)i };
	for (size_t i = 0; i < m->spans.n; i++)
		if (list_hit(m, m->spans.fields[i], hit))
			v[(*n)++] = (struct d9m_match){ m->spans.start[i],
			    d9m_worker_slot(m, m->spans.worker[i]),
			    D9M_MATCH_SPAN, (uint32_t)i };
	qsort(v, *n, sizeof *v, cmp_match);
	free(hit);
	return 0;
}

int
d9m_appev_schemas(const struct d9m_model *m, const uint32_t *ev, size_t n,
    uint32_t **names, size_t **counts, size_t *k)
{
	struct d9_hmap slot;
	int rc = -1;

	*k = 0;
	*names = calloc(n + 1, sizeof **names);
	*counts = calloc(n + 1, sizeof **counts);
	d9_hmap_init(&slot);
	if (*names == NULL || *counts == NULL)
		goto out;
	for (size_t i = 0; i < n; i++) {
		uint32_t nm = m->custom.name[m->appev.row[ev[i]]];
		uint32_t j = d9_hmap_get(&slot, nm);

		if (j == D9_NONE) {
			if (d9_hmap_put(&slot, nm, (uint32_t)*k) < 0)
				goto out;
			j = (uint32_t)(*k)++;
			(*names)[j] = nm;
		}
		(*counts)[j]++;
	}
	rc = 0;
out:
	d9_hmap_free(&slot);
	if (rc < 0) {
		free(*names);
		free(*counts);
		*names = NULL;
		*counts = NULL;
		*k = 0;
	}
	return rc;
}
