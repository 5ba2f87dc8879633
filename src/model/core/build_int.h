/*
 * build_int.h: the builder's insides shared by its files: build.c (the
 * sink, the schema-name switch, runtime, task, sample and framing
 * events), build_spans.c (span events, single-event spans) and
 * build_metrics.c (metrics.rs series). What the builder keeps per trace
 * schema, and the readers of a field by its place in the schema list.
 */
#ifndef D9M_BUILD_INT_H
#define D9M_BUILD_INT_H

#include <stdint.h>
#include <string.h>

#include "base/hmap.h"
#include "base/prefault.h"
#include "base/schemas.h"
#include "model/core/groups.h"
#include "model/core/model.h"
#include "model/core/tables.h"
#include "parse/schema.h"

#define D9M_K_CUSTOM	D9_SCH_COUNT	/* an application's own schema */
#define D9M_NO_FIELD	D9_NF_MAX	/* a field the schema does not have */

struct d9m_sevspan;

/* The last lookups of a schema's events, for the next event of it
 * (what they look up repeats: a span's name, worker and fields): its
 * span tag row and its field list, D9_NONE when none yet. */
#define D9M_MEMO_PAIRS	4
struct d9m_smemo {
	uint32_t	 tag;
	uint32_t	 list;		/* of pairs[0 .. n) */
	size_t		 n;
	uint64_t	 pairs[D9M_MEMO_PAIRS];
};

/* What the builder knows of a trace's schema. */
struct d9m_smap {
	uint8_t		 kind;		/* enum d9_schema, or D9M_K_CUSTOM */
	uint8_t		 compiled;	/* custom: annotations looked at (at
					 * its first event, after them) */
	int16_t		 f[D9_NF_MAX + 1]; /* trace field index of each of
					 * the kind's fields (D9_F_), -1;
					 * f[D9M_NO_FIELD] is always -1 */
	uint32_t	 name;		/* schema name string id */
	const struct d9p_schema *s;
	uint32_t	*keys;		/* field name string ids */
	uint64_t	 known;		/* bit i: field i is one the kind
					 * reads */
	struct d9m_sevspan *sev;	/* a single-event span's layout */
	uint32_t	*metric;	/* metric: row of each field, D9_NONE */
	struct d9m_smemo *memo;
};

/* Where one input is: its segment and that segment's process. An input
 * followed while it is written is read in turns with others, and each
 * turn goes on where its last one stopped. */
struct d9m_bpos {
	uint32_t	 input;		/* input name id, D9_NONE */
	uint32_t	 seg;
	int		 seg_used;	/* seg has received a batch */
	int		 seg_symbols;	/* seg has a symbol appendix */
	int		 written;	/* the input is being written: its
					 * segments D9M_SEG_WRITTEN */
	struct d9m_pending pend;	/* the process of seg (groups.h) */
	uint64_t	 first, last;	/* seg's events' times, as recorded */
	size_t		 meta0, clock0;	/* the batch's first metadata and
					 * clock rows */
};

struct d9m_builder {
	struct d9m_model *m;
	struct d9m_bpos	 at;		/* the input being read */
	/* inputs left mid-way (d9p_sink.resume): at by input id */
	struct d9_hmap	 left;
	struct d9m_bpos	*leftv;
	size_t		 nleft, capleft;
	struct d9m_prevseg prev;	/* the segment read before at.seg */
	uint32_t	 null_id;	/* "null" */
	/* span events (build_spans.c): their tags, looked up by want, and
	 * the legacy span ids, numbered as they come */
	struct d9_hmap	 tags;
	struct d9_hmap	 span_ids;
	struct d9m_spantag {
		uint8_t		 kind, legacy;
		uint32_t	 worker, name, fields;
	}		 want;
	/* each spantags row's tag again, on one cache line: a look-up
	 * compares it, not five columns that each miss the cache */
	struct d9m_spantag *tagv;
	size_t		 captagv;
	/* runtime events (build.c): rttags rows by (kind, lq, worker), and
	 * taskloc rows by (task, loc); the last tag + 1 (0: none) of each
	 * kind, for a worker's events come in bursts */
	struct d9_hmap	 rt_tags;
	struct d9_hmap	 tasklocs;
	struct {
		uint64_t	 key;
		uint32_t	 tag;
	}		 rt_last[D9M_RT_UNPARK + 1];
	/* the rows of the model's workers by (group, id) (ids.h), of its
	 * thread id maps by tid (pairs.h), of its metric series by name
	 * (build_metrics.c) */
	struct d9_hmap	 wids;
	/* the last worker looked up (a worker's events come in runs):
	 * its group, own id and row (D9_NONE: none yet) */
	struct {
		uint32_t	 group, row;
		uint64_t	 own;
	}		 wid_last;
	struct d9_hmap	 tidmap, tnames;
	struct d9_hmap	 series;
	/* the thread that brings the large columns in ahead of their rows
	 * (d9m_b_ahead), the loaded tables' rows when it was last asked, in
	 * all and by table */
	struct d9_prefault *ahead;
	size_t		 ahead_rows;
	size_t		 ahead_n[D9M_NTABLES];
	/* the input being read: the decoded bytes it is said to hold
	 * (d9p_sink.size; 0: not known) and each table's rows when it
	 * began, for the tables' room for all of it (d9m_b_room) */
	uint64_t	 in_bytes;
	size_t		 in_rows[D9M_NTABLES];
	int		 in_roomed;	/* the room is made */
};

/* Start and stop asking for the rows ahead (a whole read, not a file
 * followed); ask, at a batch's start. */
void	d9m_b_ahead_start(struct d9m_builder *b);
void	d9m_b_ahead_stop(struct d9m_builder *b);
void	d9m_b_ahead(struct d9m_builder *b);
/* The input just started holds about bytes (d9p_sink.size). */
void	d9m_b_on_size(void *ctx, uint64_t bytes);
/* At decoded offset off of the input, once an eighth of it is read:
 * each table that gained rows in it gets room for the rows all of it is
 * then guessed to bring, when it has less (one move of its columns, not
 * a doubling at a time). */
void	d9m_b_room(struct d9m_builder *b, uint64_t off);

/* The string id of s, interned in m. */
static inline uint32_t
d9m_b_intern_cstr(struct d9m_model *m, const char *s)
{
	return d9_intern(&m->strs, s, strlen(s));
}

/* Segments and inputs (build_segs.c): a new segment of the current
 * input (-1 when out of memory); the sink's input, resume, batch and loss
 * calls; whether a metadata or clock sync event says another process's
 * segment begins, and starting it there. */
int	d9m_b_new_segment(struct d9m_builder *b);
void	d9m_b_on_input(void *ctx, const char *name);
void	d9m_b_on_resume(void *ctx, const char *name);
void	d9m_b_on_renamed(void *ctx, const char *from, const char *to);
void	d9m_b_on_batch(void *ctx, uint64_t off);
void	d9m_b_on_loss(void *ctx, int what);
int	d9m_b_other_process(struct d9m_builder *b, const struct d9m_smap *sm,
	    uint64_t ts, const struct d9p_value *v);
int	d9m_b_split(struct d9m_builder *b);

/* Integer value of the kind's field i (D9_F_ constant): 0, or -1 when
 * the schema lacks it or it is absent. */
static inline int
d9m_b_int(const struct d9m_smap *sm, const struct d9p_value *v, int i,
    uint64_t *out)
{
	if (sm->f[i] < 0)
		return -1;
	return d9p_value_int(&v[sm->f[i]], out);
}

static inline uint64_t
d9m_b_u64(const struct d9m_smap *sm, const struct d9p_value *v, int i,
    uint64_t def)
{
	uint64_t x;

	return d9m_b_int(sm, v, i, &x) == 0 ? x : def;
}

static inline uint32_t
d9m_b_u32(const struct d9m_smap *sm, const struct d9p_value *v, int i,
    uint32_t def)
{
	uint64_t x;

	if (d9m_b_int(sm, v, i, &x) < 0)
		return def;
	return x > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)x;
}

/* A time of the segment's process on the model's clock (groups.h). */
static inline uint64_t
d9m_b_ts(const struct d9m_builder *b, uint64_t ts)
{
	return b->at.pend.group != D9_NONE ? d9m_pending_ts(&b->at.pend, ts) : ts;
}

/* Worker (wids row; the field absent: the wire's "not a worker") and
 * thread ids of the segment's process (ids.h). D9_NONE when out of
 * memory. */
uint32_t d9m_b_worker(struct d9m_builder *b, const struct d9m_smap *sm,
	    const struct d9p_value *v, int i);
uint32_t d9m_b_wid(struct d9m_builder *b, uint64_t own);
uint32_t d9m_b_tid(const struct d9m_builder *b, const struct d9m_smap *sm,
	    const struct d9p_value *v, int i, uint32_t def);
/* Text of any value, interned; D9_NONE for an absent optional. */
uint32_t d9m_b_text(struct d9m_builder *b, const struct d9p_value *v);
/* The kind's field i as text: D9_NONE when absent or empty. */
uint32_t d9m_b_str(struct d9m_builder *b, const struct d9m_smap *sm,
	    const struct d9p_value *v, int i);
/* Field list of an event: every field, or (skip_known) every field the
 * kind does not read itself; *any: whether it has one. */
uint32_t d9m_b_fields(struct d9m_builder *b, const struct d9m_smap *sm,
	    const struct d9p_value *v, int skip_known, int *any);
/* Field list of a StringMap value's entries, D9_NONE when it has none. */
uint32_t d9m_b_map(struct d9m_builder *b, const struct d9p_value *v);

/* build_spans.c */
int	 d9m_b_span(struct d9m_builder *b, const struct d9m_smap *sm,
	    uint64_t ts, const struct d9p_value *v);
/* A custom schema's annotations, at its first event: whether its events
 * are single-event spans (sm->sev set). -1 when out of memory. */
int	 d9m_b_sev_compile(struct d9m_builder *b, struct d9m_smap *sm);
/* One single-event span: 0, 1 when its timing cannot place it (it stays
 * an application event), -1 when out of memory. */
int	 d9m_b_sev_event(struct d9m_builder *b, const struct d9m_smap *sm,
	    uint64_t ts, const struct d9p_value *v);

/* build_metrics.c */
int	 d9m_b_metric(struct d9m_builder *b, struct d9m_smap *sm, uint64_t ts,
	    const struct d9p_value *v);
/* A custom schema's gauge and counter fields, at its first event
 * (sm->metric set when it has one); -1 when out of memory. */
int	 d9m_b_gauges_compile(struct d9m_builder *b, struct d9m_smap *sm);
/* Its samples; -1 when out of memory. */
int	 d9m_b_gauges(struct d9m_builder *b, const struct d9m_smap *sm,
	    uint64_t ts, const struct d9p_value *v);

#endif
