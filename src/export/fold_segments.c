/*
 * fold_segments.c: the segments of a source, one row each: when its
 * events begin and end, how many were read, what the recorder says it
 * lost (ANALYSIS 19), whether it is whole, the input it was read from,
 * the clock its times are on, and its metadata (latest value per key;
 * FORMAT 3.3), with the system's names (dial9 0.5.1's hostname, kernel
 * release, CPU model) in columns of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "export/fold.h"

#define META_MAX	512	/* entries of a segment kept */

/* The system's names, by the key's last dotted part, so that dial9
 * 0.5.1's (cpu.profile.machine_hostname, cpu.profile.kernel_release,
 * cpu.profile.cpu_model) and other producers' (system.hostname,
 * os.kernel, ...) all match; the first key of the list found wins. */
static const char *const hostname_keys[] = { "machine_hostname",
	"hostname", "host_name", NULL };
static const char *const kernel_keys[] = { "kernel_release", "kernel",
	"kernel_version", NULL };
static const char *const cpu_keys[] = { "cpu_model", "cpu_model_name",
	"model_name", NULL };

struct meta {
	uint32_t	key[META_MAX], val[META_MAX];
	size_t		n;
};

/* The latest value of every key of segment seg. */
static void
meta_of(const struct d9m_model *m, uint32_t seg, struct meta *out)
{
	out->n = 0;
	for (size_t i = 0; i < m->meta.n; i++) {
		size_t k;

		if (m->meta.seg[i] != seg)
			continue;
		for (k = 0; k < out->n && out->key[k] != m->meta.key[i]; k++)
			;
		if (k == out->n && out->n == META_MAX)
			continue;
		out->key[k] = m->meta.key[i];
		out->val[k] = m->meta.val[i];
		out->n += k == out->n;
	}
}

static void
put_named(const struct d9m_model *m, struct d9x_pq *pq, size_t f,
    const struct meta *mt, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		for (size_t k = 0; k < mt->n; k++) {
			const char *key = d9m_str(m, mt->key[k]),
			    *dot = strrchr(key, '.'), *v;
			uint32_t len;

			if (strcmp(dot != NULL ? dot + 1 : key, *keys) != 0)
				continue;
			v = d9_intern_str(&m->strs, mt->val[k], &len);
			d9x_pq_str(pq, f, v, len);
			return;
		}
	d9x_pq_null(pq, f);
}

static int
is_false(const struct d9m_model *m, const struct meta *mt, const char *key)
{
	for (size_t k = 0; k < mt->n; k++)
		if (strcmp(d9m_str(m, mt->key[k]), key) == 0)
			return strcmp(d9m_str(m, mt->val[k]), "false") == 0;
	return 0;
}

/* First and last time of the rows of segment seg that carry it. */
static void
seg_times(const struct d9m_model *m, uint32_t seg, uint64_t *lo,
    uint64_t *hi)
{
	const uint64_t *ts[] = { m->cpu.ts, m->allocs.ts, m->custom.ts,
	    m->clock.mono };
	const uint32_t *sg[] = { m->cpu.seg, m->allocs.seg, m->custom.seg,
	    m->clock.seg };
	const size_t n[] = { m->cpu.n, m->allocs.n, m->custom.n, m->clock.n };

	for (size_t t = 0; t < 4; t++)
		for (size_t i = 0; i < n[t]; i++)
			if (sg[t][i] == seg) {
				*lo = ts[t][i] < *lo ? ts[t][i] : *lo;
				*hi = ts[t][i] > *hi ? ts[t][i] : *hi;
			}
}

static uint64_t
seg_rows(const struct d9m_model *m, uint32_t seg)
{
	const uint32_t *sg[] = { m->cpu.seg, m->allocs.seg, m->custom.seg,
	    m->clock.seg, m->dumps.seg, m->meta.seg };
	const size_t n[] = { m->cpu.n, m->allocs.n, m->custom.n, m->clock.n,
	    m->dumps.n, m->meta.n };
	uint64_t c = 0;

	for (size_t t = 0; t < 6; t++)
		for (size_t i = 0; i < n[t]; i++)
			c += sg[t][i] == seg;
	return c;
}

static int
seg_row(struct d9x_fold *x, struct d9x_leaf *l, uint32_t seg, size_t nsegs,
    struct meta *mt)
{
	const struct d9x_source *s = x->src;
	const struct d9m_model *m = s->m;
	uint64_t lo = UINT64_MAX, hi = 0;
	const char *clock = s->wall ? "wall" : "monotonic", *file;
	struct d9x_pq *pq = d9x_leaf_pq(l);
	int loss = m->groups.n == 1 && seg == s->seg0;

	if (pq == NULL)
		return -1;
	meta_of(m, seg, mt);
	if (nsegs == 1 && m->group_cover != NULL) {
		lo = m->group_cover[2 * s->g];
		hi = m->group_cover[2 * s->g + 1];
	}
	if (lo == UINT64_MAX)
		seg_times(m, seg, &lo, &hi);
	if (lo == UINT64_MAX)
		lo = hi = 0;
	file = d9m_str(m, m->segs.input[seg]);
	d9x_pq_int(pq, D9X_SEG_FIRST, (uint64_t)d9x_ns(s, lo));
	d9x_pq_int(pq, D9X_SEG_LAST, (uint64_t)d9x_ns(s, hi));
	d9x_pq_int(pq, D9X_SEG_EVENTS, x->one_input_seg ? x->events :
	    seg_rows(m, seg));
	d9x_pq_int(pq, D9X_SEG_DROPPED, loss ? m->loss.dropped_events : 0);
	d9x_pq_int(pq, D9X_SEG_LOST, loss ? m->loss.lost_batches : 0);
	d9x_pq_int(pq, D9X_SEG_COMPLETE, m->segs.cut[seg] == 0 && !is_false(m, mt,
	    "segment.complete"));
	d9x_pq_str(pq, D9X_SEG_FILE, file, strlen(file));
	d9x_pq_str(pq, D9X_SEG_CLOCK, clock, strlen(clock));
	put_named(m, pq, D9X_SEG_HOSTNAME, mt, hostname_keys);
	put_named(m, pq, D9X_SEG_KERNEL, mt, kernel_keys);
	put_named(m, pq, D9X_SEG_CPU_MODEL, mt, cpu_keys);
	d9x_pq_begin(pq, D9X_SEG_METADATA);
	for (size_t k = 0; k < mt->n; k++) {
		uint32_t kl, vl;
		const char *kk = d9_intern_str(&m->strs, mt->key[k], &kl);
		const char *vv = d9_intern_str(&m->strs, mt->val[k], &vl);

		d9x_pq_entry(pq, D9X_SEG_METADATA, kk, kl, vv, vl);
	}
	d9x_pq_end(pq, D9X_SEG_METADATA);
	return d9x_leaf_row(l);
}

int
d9x_fold_segments(struct d9x_fold *x)
{
	const struct d9x_source *s = x->src;
	struct meta *mt = malloc(sizeof *mt);
	struct d9x_leaf l;
	size_t nsegs = 0;
	int rc = mt == NULL ? -1 : 0;

	d9x_leaf_init(&l, x->out, s, D9X_T_SEGMENTS);
	for (size_t i = 0; i < s->m->segs.n; i++)
		nsegs += d9x_seg_in(s, (uint32_t)i);
	for (size_t i = 0; rc == 0 && i < s->m->segs.n; i++)
		if (d9x_seg_in(s, (uint32_t)i))
			rc = seg_row(x, &l, (uint32_t)i, nsegs, mt);
	free(mt);
	return d9x_leaves_end(&l, 1, rc);
}
