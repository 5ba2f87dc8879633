/*
 * loss.c: what a trace lost (ANALYSIS 19), derived once per finish.
 *
 * libd9rec writes its counters (d9rec.dropped_events, .lost_batches,
 * .alloc_dropped, .free_dropped, .cpu_lost) into the segment metadata as
 * counts since the recorder started: they only grow within one boot_id,
 * so a boot's figure is the largest value any of its segments holds, and
 * the trace's is the sum over boots (summing segments would count a drop
 * once per later segment). dial9's MemoryProfileOverflowEvent carries
 * deltas instead: they are summed per boot, and a boot that has both
 * (libd9rec writes both) counts the larger. A segment is incomplete when
 * its input was cut short or its latest metadata says
 * segment.complete=false (libd9rec says so until it seals a segment),
 * except a segment whose .active file is still being written: followed,
 * or read as it is while its recorder writes it (D9M_SEG_WRITTEN).
 * libd9rec's cost counters (d9rec.recorder_cpu_ns and
 * .process_cpu_ns, since the writer opened) follow the same per-boot
 * rule into m->cost.
 *
 * ANALYSIS 19.1: what the size cap deleted (d9rec.deleted_segments and
 * .deleted_bytes) follows the per-boot rule too; damage the reader
 * skipped is counted as it reads (segs.damaged); a segment number
 * missing between a boot's first and last (trace.N.bin files of one
 * directory and boot) is a missing segment.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/units.h"
#include "model/core/loss.h"
#include "model/core/table.h"
#include "parse/reader.h"

/* The loss counters, then the cost ones (m->cost, same rule). */
enum { L_EVENTS, L_BATCHES, L_ALLOCS, L_FREES, L_CPU, L_DELETED,
	L_DELBYTES, L_RECCPU, L_PROCCPU, L_N };

static const char *const keys[L_N] = {
	"d9rec.dropped_events", "d9rec.lost_batches", "d9rec.alloc_dropped",
	"d9rec.free_dropped", "d9rec.cpu_lost", "d9rec.deleted_segments",
	"d9rec.deleted_bytes", "d9rec.recorder_cpu_ns", "d9rec.process_cpu_ns"
};

/* Per segment: its boot and the largest value of each counter. */
struct segloss {
	uint32_t	 boot;		/* string id of boot_id, D9_NONE */
	int		 costed;	/* has d9rec.process_cpu_ns */
	uint64_t	 v[L_N];
	uint64_t	 overflow[2];	/* allocs, frees: summed deltas */
	uint32_t	 complete;	/* value id of segment.complete */
};

static uint32_t
find(const struct d9m_model *m, const char *s)
{
	return d9_intern_find(&m->strs, s, strlen(s));
}

static void
per_segment(const struct d9m_model *m, struct segloss *sl)
{
	uint32_t k[L_N], boot = find(m, "boot_id");
	uint32_t complete = find(m, "segment.complete");

	for (int i = 0; i < L_N; i++)
		k[i] = find(m, keys[i]);
	for (size_t s = 0; s < m->segs.n; s++) {
		memset(&sl[s], 0, sizeof sl[s]);
		sl[s].boot = D9_NONE;
		sl[s].complete = D9_NONE;
	}
	for (size_t r = 0; r < m->meta.n; r++) {
		uint32_t key = m->meta.key[r], s = m->meta.seg[r];

		if (s >= m->segs.n || key == D9_NONE)
			continue;
		if (key == boot)
			sl[s].boot = m->meta.val[r];
		else if (key == complete)
			sl[s].complete = m->meta.val[r];	/* latest wins */
		for (int i = 0; i < L_N; i++) {
			uint64_t v;

			if (key != k[i])
				continue;
			v = strtoull(d9m_str(m, m->meta.val[r]), NULL, 10);
			if (v > sl[s].v[i])
				sl[s].v[i] = v;
			sl[s].costed |= i == L_PROCCPU;
		}
	}
	for (size_t r = 0; r < m->overflow.n; r++) {
		uint32_t s = m->overflow.seg[r];

		if (s >= m->segs.n)
			continue;
		sl[s].overflow[0] += m->overflow.allocs[r];
		sl[s].overflow[1] += m->overflow.frees[r];
	}
}

/* Whether segment s is marked incomplete. */
static int
incomplete(const struct d9m_model *m, const struct segloss *sl, size_t s,
    uint32_t no)
{
	if (m->segs.cut[s] == D9M_SEG_CUT)
		return 1;
	if (no == D9_NONE || sl[s].complete != no ||
	    m->segs.cut[s] == D9M_SEG_WRITTEN)
		return 0;	/* complete, or not yet: nothing lost */
	if (!m->following || m->segs.input[s] == D9_NONE)
		return 1;
	return !d9p_is_active(d9m_str(m, m->segs.input[s]));
}

static uint64_t
max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Add one boot's figures: the largest counters, the summed deltas;
 * its cost when a segment told it. */
static void
add_boot(struct d9m_model *m, const uint64_t *v, const uint64_t *of,
    int costed)
{
	struct d9m_loss *l = &m->loss;

	l->dropped_events += v[L_EVENTS];
	l->lost_batches += v[L_BATCHES];
	l->dropped_allocs += max64(v[L_ALLOCS], of[0]);
	l->dropped_frees += max64(v[L_FREES], of[1]);
	l->lost_cpu += v[L_CPU];
	l->deleted += v[L_DELETED];
	l->deleted_bytes += v[L_DELBYTES];
	if (costed) {
		m->cost.recorder_cpu_ns += v[L_RECCPU];
		m->cost.process_cpu_ns += v[L_PROCCPU];
		m->cost.boots++;
	}
}

/* One input's segment number: of "<prefix>.N.bin" (then ".active",
 * ".gz", ".zst" in any number), prefix the directory and stem. */
struct segnum {
	const char	*path;
	size_t		 prefix;	/* length */
	uint32_t	 boot;		/* string id, D9_NONE */
	uint64_t	 n;
};

/* 0 and *x filled, or -1 when path is not so named. */
static int
segnum_of(const char *path, struct segnum *x)
{
	static const char *const suf[] = { ".active", ".gz", ".zst" };
	size_t len = strlen(path), k, d;

	do {
		for (k = 0; k < sizeof suf / sizeof suf[0]; k++) {
			size_t sl = strlen(suf[k]);

			if (len >= sl && memcmp(path + len - sl, suf[k],
			    sl) == 0) {
				len -= sl;
				break;
			}
		}
	} while (k < sizeof suf / sizeof suf[0]);
	if (len < 4 || memcmp(path + len - 4, ".bin", 4) != 0)
		return -1;
	len -= 4;
	for (d = len; d > 0 && path[d - 1] >= '0' && path[d - 1] <= '9'; d--)
		;
	if (d == len || len - d > 9 || d == 0 || path[d - 1] != '.')
		return -1;
	x->path = path;
	x->prefix = d - 1;
	x->n = strtoull(path + d, NULL, 10);
	return 0;
}

/* By boot, then prefix (group_cmp), then number. */
static int
group_cmp(const struct segnum *x, const struct segnum *y)
{
	if (x->boot != y->boot)
		return x->boot < y->boot ? -1 : 1;
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return memcmp(x->path, y->path, x->prefix);
}

static int
segnum_cmp(const void *a, const void *b)
{
	const struct segnum *x = a, *y = b;
	int c = group_cmp(x, y);

	if (c != 0)
		return c;
	return x->n < y->n ? -1 : x->n > y->n;
}

#define UNNAMED	(D9_NONE - 1)	/* an input not named trace.N.bin */

/* The numbers missing between each (boot, prefix)'s first and last; a
 * file's boot is that of any of its segments. -1 out of memory. */
static int
missing(struct d9m_model *m, const struct segloss *sl)
{
	size_t n = m->segs.n, k = 0;
	struct segnum *v = calloc(n ? n : 1, sizeof *v);
	struct d9_hmap at;	/* input's name -> its v row, or UNNAMED */
	int rc = 0;

	if (v == NULL)
		return -1;
	d9_hmap_init(&at);
	for (size_t s = 0; rc == 0 && s < n; s++) {
		uint32_t in = m->segs.input[s], j;

		if (in == D9_NONE)
			continue;
		if ((j = d9_hmap_get(&at, in)) == D9_NONE) {
			j = UNNAMED;
			if (segnum_of(d9m_str(m, in), &v[k]) == 0) {
				v[k].boot = D9_NONE;
				j = (uint32_t)k++;
			}
			rc = d9_hmap_put(&at, in, j);
		}
		if (j != UNNAMED && sl[s].boot != D9_NONE)
			v[j].boot = sl[s].boot;
	}
	d9_hmap_free(&at);
	if (rc < 0) {
		free(v);
		return -1;
	}
	qsort(v, k, sizeof *v, segnum_cmp);
	for (size_t i = 1; i < k; i++)
		if (group_cmp(&v[i - 1], &v[i]) == 0 &&
		    v[i].n > v[i - 1].n + 1)
			m->loss.missing += v[i].n - v[i - 1].n - 1;
	free(v);
	return 0;
}

int
d9m_loss_derive(struct d9m_model *m)
{
	struct d9m_loss *l = &m->loss;
	size_t n = m->segs.n;
	struct segloss *sl = calloc(n ? n : 1, sizeof *sl);
	uint64_t *order = malloc((n ? n : 1) * sizeof *order);
	uint32_t no = find(m, "false");
	int rc;

	memset(l, 0, sizeof *l);
	memset(&m->cost, 0, sizeof m->cost);
	l->copies = m->segs.copies;
	l->damaged = m->segs.damaged;
	l->unread = m->segs.unread;
	if (sl == NULL || order == NULL) {
		free(sl);
		free(order);
		return -1;
	}
	per_segment(m, sl);
	/* segments grouped by boot (no boot_id: one group of their own) */
	for (size_t s = 0; s < n; s++) {
		order[s] = (uint64_t)sl[s].boot << 32 | s;
		l->incomplete += (uint64_t)incomplete(m, sl, s, no);
	}
	if (d9m_sort_u64(order, n) < 0) {
		free(sl);
		free(order);
		return -1;
	}
	for (size_t i = 0; i < n; ) {
		uint64_t v[L_N] = { 0 }, of[2] = { 0 };
		uint32_t boot = (uint32_t)(order[i] >> 32);
		int costed = 0;

		for (; i < n && (uint32_t)(order[i] >> 32) == boot; i++) {
			const struct segloss *x = &sl[(uint32_t)order[i]];

			for (int k = 0; k < L_N; k++)
				v[k] = max64(v[k], x->v[k]);
			of[0] += x->overflow[0];
			of[1] += x->overflow[1];
			costed |= x->costed;
		}
		add_boot(m, v, of, costed);
	}
	rc = missing(m, sl);
	free(sl);
	free(order);
	return rc;
}

/* The words of each loss, in the order they are told. */
static const struct {
	size_t		 off;		/* of the count in struct d9m_loss */
	const char	*one, *many;
} words[] = {
	{ offsetof(struct d9m_loss, dropped_events), "runtime event dropped",
	    "runtime events dropped" },
	{ offsetof(struct d9m_loss, lost_batches), "batch not written",
	    "batches not written" },
	{ offsetof(struct d9m_loss, dropped_allocs),
	    "allocation sample dropped", "allocation samples dropped" },
	{ offsetof(struct d9m_loss, dropped_frees), "free sample dropped",
	    "free samples dropped" },
	{ offsetof(struct d9m_loss, lost_cpu), "CPU sample lost",
	    "CPU samples lost" },
	{ offsetof(struct d9m_loss, incomplete), "segment incomplete",
	    "segments incomplete" },
	{ offsetof(struct d9m_loss, damaged), "segment damaged",
	    "segments damaged" },
	{ offsetof(struct d9m_loss, missing), "segment missing",
	    "segments missing" },
	{ offsetof(struct d9m_loss, unread), "file left unread for memory",
	    "files left unread for memory" },
	/* last: the report says where the trace starts after it */
	{ offsetof(struct d9m_loss, deleted),
	    "older segment deleted by the size cap",
	    "older segments deleted by the size cap" },
};

static uint64_t
count(const struct d9m_loss *l, size_t i)
{
	uint64_t n;

	memcpy(&n, (const char *)l + words[i].off, sizeof n);
	return n;
}

int
d9m_loss_any(const struct d9m_loss *l)
{
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (count(l, i) > 0)
			return 1;
	return 0;
}

/* " (12.3 MB)": what the size cap deleted. */
static int
bytes_text(char *buf, size_t cap, uint64_t n)
{
	char b[32];

	return snprintf(buf, cap, " (%s)", d9_fmt_bytes(b, sizeof b,
	    (double)n));
}

size_t
d9m_loss_text(const struct d9m_loss *l, char *buf, size_t cap)
{
	size_t len = 0;

	if (cap == 0)
		return 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		uint64_t n = count(l, i);
		int k;

		if (n == 0 || len >= cap)
			continue;
		k = snprintf(buf + len, cap - len, "%s%" PRIu64 " %s",
		    len ? ", " : "", n, n == 1 ? words[i].one : words[i].many);
		if (k > 0)
			len += (size_t)k;
		if (words[i].off == offsetof(struct d9m_loss, deleted) &&
		    l->deleted_bytes > 0 && len < cap && (k = bytes_text(buf +
		    len, cap - len, l->deleted_bytes)) > 0)
			len += (size_t)k;
	}
	return len < cap ? len : cap - 1;
}

double
d9m_cost_pct(const struct d9m_cost *c)
{
	if (c->boots == 0 || c->process_cpu_ns == 0)
		return -1;
	return 100.0 * (double)c->recorder_cpu_ns /
	    (double)c->process_cpu_ns;
}
