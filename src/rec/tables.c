/*
 * tables.c: the writer's tables: strings (spawn locations, thread names,
 * span names), schemas (the built-in ones first, then custom events and
 * span sites) and the segment metadata.
 *
 * Strings and schemas live in chunked tables whose entries never move:
 * they are added under the writer's lock and published with a release
 * store of the count, so the flush thread and the recording calls read
 * published entries without the lock. Locations are interned through a
 * hash map of string ids. Metadata is a key/value list under the lock,
 * with a version the flush thread compares to what it last wrote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "rec/rec.h"

/* Built-in schemas, in enum sch_builtin order (the type id of schema i
 * is i + 1); names and fields come from base/schemas.h. */
static const uint8_t builtins[S_NBUILTIN] = {
	[S_CLOCK] = D9_SCH_CLOCK_SYNC, [S_META] = D9_SCH_SEGMENT_META,
	[S_POLL_START] = D9_SCH_POLL_START, [S_POLL_END] = D9_SCH_POLL_END,
	[S_PARK] = D9_SCH_PARK, [S_UNPARK] = D9_SCH_UNPARK,
	[S_WAKE] = D9_SCH_WAKE, [S_SPAWN] = D9_SCH_SPAWN,
	[S_TERMINATE] = D9_SCH_TERMINATE, [S_RUNTIME] = D9_SCH_RT_METRICS,
	[S_CPU] = D9_SCH_CPU, [S_ALLOC] = D9_SCH_ALLOC, [S_FREE] = D9_SCH_FREE,
	[S_OVERFLOW] = D9_SCH_MEM_OVERFLOW, [S_SPAN_CLOSE] = D9_SCH_SPAN_CLOSE,
	[S_MAPS] = D9_SCH_MAPS, [S_SYMBOL] = D9_SCH_SYMBOL,
};

const char *
d9rec_str(struct d9rec_writer *w, uint32_t id)
{
	return w->strs.chunk[id / TAB_CHUNK][id % TAB_CHUNK];
}

struct schema *
d9rec_schema_get(struct d9rec_writer *w, uint32_t id)
{
	return &w->schemas.chunk[id / TAB_CHUNK][id % TAB_CHUNK];
}

/* With w->lock held. */
uint32_t
d9rec_strtab_add(struct d9rec_writer *w, const char *s, int named)
{
	uint32_t n = atomic_load_explicit(&w->strs.n, memory_order_relaxed);
	char **c;

	if (n >= TAB_CHUNK * TAB_CHUNKS)
		return UINT32_MAX;
	if (w->strs.named[n / TAB_CHUNK] == NULL &&
	    (w->strs.named[n / TAB_CHUNK] = calloc(TAB_CHUNK, 1)) == NULL)
		return UINT32_MAX;
	if ((c = w->strs.chunk[n / TAB_CHUNK]) == NULL) {
		if ((c = calloc(TAB_CHUNK, sizeof *c)) == NULL)
			return UINT32_MAX;
		w->strs.chunk[n / TAB_CHUNK] = c;
	}
	if ((c[n % TAB_CHUNK] = strdup(s)) == NULL)
		return UINT32_MAX;
	w->strs.named[n / TAB_CHUNK][n % TAB_CHUNK] = named != 0;
	atomic_store_explicit(&w->strs.n, n + 1, memory_order_release);
	return n;
}

int
d9rec_str_named(struct d9rec_writer *w, uint32_t id)
{
	return id < atomic_load_explicit(&w->strs.n, memory_order_acquire) &&
	    w->strs.named[id / TAB_CHUNK][id % TAB_CHUNK];
}

/* With w->lock held; takes ownership of name and fields. */
static int
schtab_add(struct d9rec_writer *w, char *name, struct sch_field *f,
    uint16_t nf, enum sch_kind kind)
{
	uint32_t n = atomic_load_explicit(&w->schemas.n, memory_order_relaxed);
	struct schema *c;

	if (n >= 65535 - 1)
		return -ENOSPC;
	if ((c = w->schemas.chunk[n / TAB_CHUNK]) == NULL) {
		if ((c = calloc(TAB_CHUNK, sizeof *c)) == NULL)
			return -ENOMEM;
		w->schemas.chunk[n / TAB_CHUNK] = c;
	}
	c[n % TAB_CHUNK].name = name;
	c[n % TAB_CHUNK].fields = f;
	c[n % TAB_CHUNK].nfields = nf;
	c[n % TAB_CHUNK].kind = (uint8_t)kind;
	atomic_store_explicit(&w->schemas.n, n + 1, memory_order_release);
	return (int)n;
}

/* A location looked for in the writer's string table. */
struct want_loc {
	struct d9rec_writer *w;
	const char	*loc;
};

static int
same_loc(const void *ctx, uint32_t id)
{
	const struct want_loc *q = ctx;

	return strcmp(d9rec_str(q->w, id), q->loc) == 0;
}

static uint64_t
loc_hash(const void *ctx, uint32_t id)
{
	const struct want_loc *q = ctx;
	const char *s = d9rec_str(q->w, id);

	return d9_hash(s, strlen(s));
}

static uint32_t
add_loc(void *ctx)
{
	const struct want_loc *q = ctx;

	return d9rec_strtab_add(q->w, q->loc, 1);  /* UINT32_MAX: D9_NONE */
}

static const struct d9_hmap_rows loc_rows = { loc_hash, add_loc };

uint32_t
d9rec_location(d9rec_writer *w, const char *loc)
{
	struct want_loc q = { w, loc };
	uint32_t id;

	if (w == NULL || loc == NULL)
		return UINT32_MAX;
	pthread_mutex_lock(&w->lock);
	id = d9_hmap_find_or_add(&w->locs, d9_hash(loc, strlen(loc)), same_loc,
	    &loc_rows, &q);
	pthread_mutex_unlock(&w->lock);
	return id;
}

static struct sch_field *
fields_new(unsigned n)
{
	return calloc(n ? n : 1, sizeof(struct sch_field));
}

static void
fields_free(struct sch_field *f, unsigned n)
{
	for (unsigned i = 0; f != NULL && i < n; i++)
		free(f[i].name);
	free(f);
}

/* A copy of the fields of def, then n declared fields (span sites:
 * optional pooled strings); NULL when out of memory. */
static struct sch_field *
fields_of(const struct d9_schema_def *def, const char *const *declared,
    unsigned n)
{
	unsigned nf = def->nfields + n;
	struct sch_field *f = fields_new(nf);

	for (unsigned i = 0; f != NULL && i < nf; i++) {
		int fixed = i < def->nfields;

		f[i].type = fixed ? def->fields[i].type :
		    D9_FT_POOLED_STRING | D9_FT_OPTIONAL;
		f[i].name = strdup(fixed ? def->fields[i].name :
		    declared[i - def->nfields]);
		if (f[i].name == NULL) {
			fields_free(f, nf);
			return NULL;
		}
	}
	return f;
}

int
d9rec_schema(d9rec_writer *w, const char *name,
    const struct d9rec_field *fields, unsigned nfields)
{
	struct sch_field *f;
	char *nm;
	int rc, have = 0;

	if (w == NULL || name == NULL || nfields > 64 || (nfields > 0 &&
	    fields == NULL))
		return -EINVAL;
	for (unsigned i = 0; i < nfields; i++) {
		if (fields[i].name == NULL)
			return -EINVAL;
		switch (fields[i].type) {
		case D9REC_T_U64: case D9REC_T_I64: case D9REC_T_F64:
		case D9REC_T_BOOL: case D9REC_T_STR: case D9REC_T_U8:
		case D9REC_T_U16: case D9REC_T_U32:
			break;
		default:
			return -EINVAL;
		}
	}
	if ((f = fields_new(nfields)) == NULL || (nm = strdup(name)) == NULL) {
		free(f);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nfields; i++) {
		f[i].type = (uint8_t)fields[i].type;
		if ((f[i].name = strdup(fields[i].name)) == NULL) {
			fields_free(f, nfields);
			free(nm);
			return -ENOMEM;
		}
	}
	for (unsigned i = 0; i < nfields; i++) {
		have |= strcmp(f[i].name, "worker_id") == 0;
		have |= (strcmp(f[i].name, "tid") == 0) << 1;
	}
	pthread_mutex_lock(&w->lock);
	rc = schtab_add(w, nm, f, (uint16_t)nfields, SCH_CUSTOM);
	if (rc >= 0)	/* before any event of it: under the lock */
		d9rec_schema_get(w, (uint32_t)rc)->thread_fields =
		    (uint8_t)(~have & 3);
	pthread_mutex_unlock(&w->lock);
	if (rc < 0) {
		fields_free(f, nfields);
		free(nm);
	}
	return rc;
}

/* One span schema: enter (with parent) or exit, named after the site. */
static int
span_schema(d9rec_writer *w, enum d9_schema sch, const char *site,
    const char *const *fields, unsigned nfields, uint32_t nameid)
{
	const struct d9_schema_def *def = d9_schema(sch);
	unsigned nf = def->nfields + nfields;
	struct sch_field *f = fields_of(def, fields, nfields);
	char *nm = malloc(strlen(def->name) + strlen(site) + 1);
	int rc = -ENOMEM;

	if (f == NULL || nm == NULL)
		goto fail;
	sprintf(nm, "%s%s", def->name, site);
	if ((rc = schtab_add(w, nm, f, (uint16_t)nf, sch == D9_SCH_SPAN_ENTER ?
	    SCH_SPAN_ENTER : SCH_SPAN_EXIT)) < 0)
		goto fail;
	d9rec_schema_get(w, (uint32_t)rc)->ndeclared = (uint16_t)nfields;
	d9rec_schema_get(w, (uint32_t)rc)->span_name = nameid;
	return rc;
fail:
	fields_free(f, nf);
	free(nm);
	return rc;
}

int
d9rec_span_site(d9rec_writer *w, const char *target, const char *name,
    const char *file, unsigned line, const char *const *fields,
    unsigned nfields)
{
	char site[1024];
	uint32_t nameid, tgt, fid;
	int rc;

	if (w == NULL || name == NULL || nfields > 32 || (nfields > 0 &&
	    fields == NULL))
		return -EINVAL;
	for (unsigned i = 0; i < nfields; i++)
		if (fields[i] == NULL)
			return -EINVAL;
	target = target ? target : "";
	file = file ? file : "";
	snprintf(site, sizeof site, "%s::%s:%s:%u", target, name, file, line);
	pthread_mutex_lock(&w->lock);
	/* the close (d9rec_span_close) names the site by these */
	nameid = d9rec_strtab_add(w, name, 0);
	tgt = d9rec_strtab_add(w, target, 0);
	fid = d9rec_strtab_add(w, file, 0);
	rc = nameid == UINT32_MAX || tgt == UINT32_MAX || fid == UINT32_MAX ?
	    -ENOMEM : span_schema(w, D9_SCH_SPAN_ENTER, site, fields, nfields,
	    nameid);
	if (rc >= 0 && span_schema(w, D9_SCH_SPAN_EXIT, site, fields, nfields,
	    nameid) < 0)
		rc = -ENOMEM;	/* the orphan enter schema is harmless */
	if (rc >= 0) {
		struct schema *sc = d9rec_schema_get(w, (uint32_t)rc);

		sc->span_target = tgt;
		sc->span_file = fid;
		sc->span_line = line;
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

int
d9rec_set_meta(d9rec_writer *w, const char *key, const char *value)
{
	struct meta_kv *kv;
	char *v;
	int rc = 0;

	if (w == NULL || key == NULL || value == NULL)
		return -EINVAL;
	if (strnlen(key, D9REC_META_MAX + 1) > D9REC_META_MAX ||
	    strnlen(value, D9REC_META_MAX + 1) > D9REC_META_MAX)
		return -E2BIG;	/* a reader would cut it */
	if ((v = strdup(value)) == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&w->lock);
	for (size_t i = 0; i < w->nmeta; i++)
		if (strcmp(w->meta[i].key, key) == 0) {
			if (strcmp(w->meta[i].val, v) == 0) {
				free(v);	/* no change: nothing to write */
				goto out;
			}
			free(w->meta[i].val);
			w->meta[i].val = v;
			goto done;
		}
	if ((kv = realloc(w->meta, (w->nmeta + 1) * sizeof *kv)) == NULL ||
	    (kv[w->nmeta].key = strdup(key)) == NULL) {
		if (kv != NULL)
			w->meta = kv;
		free(v);
		rc = -ENOMEM;
		goto out;
	}
	w->meta = kv;
	kv[w->nmeta++].val = v;
done:
	w->meta_version++;
out:
	pthread_mutex_unlock(&w->lock);
	return rc;
}

int
d9rec_runtime(d9rec_writer *w, const char *name, uint32_t first, uint32_t n)
{
	char key[256], val[2048];
	size_t len = 0;

	/* worker ids below D9REC_BLOCKING_WORKER, none wrapped round */
	if (w == NULL || name == NULL || n == 0 ||
	    first >= D9REC_BLOCKING_WORKER || n > D9REC_BLOCKING_WORKER - first)
		return -EINVAL;
	snprintf(key, sizeof key, "runtime.%s", name);
	val[0] = 0;
	for (uint32_t i = 0; i < n && len + 12 < sizeof val; i++)
		len += (size_t)snprintf(val + len, sizeof val - len, "%s%u",
		    i ? "," : "", first + i);
	return d9rec_set_meta(w, key, val);
}

int
d9rec_tables_init(struct d9rec_writer *w)
{
	for (int i = 0; i < S_NBUILTIN; i++) {
		const struct d9_schema_def *def = d9_schema(builtins[i]);
		struct sch_field *f = fields_of(def, NULL, 0);
		char *nm = NULL;

		if (f == NULL || (nm = strdup(def->name)) == NULL ||
		    schtab_add(w, nm, f, def->nfields, SCH_BUILTIN) < 0) {
			free(nm);
			fields_free(f, def->nfields);
			return -ENOMEM;
		}
	}
	return 0;
}

void
d9rec_tables_free(struct d9rec_writer *w)
{
	uint32_t n = atomic_load(&w->strs.n);

	for (uint32_t i = 0; i < n; i++)
		free(w->strs.chunk[i / TAB_CHUNK][i % TAB_CHUNK]);
	for (uint32_t i = 0; i < TAB_CHUNKS; i++) {
		free(w->strs.chunk[i]);
		free(w->strs.named[i]);
	}
	n = atomic_load(&w->schemas.n);
	for (uint32_t i = 0; i < n; i++) {
		struct schema *s = d9rec_schema_get(w, i);

		free(s->name);
		fields_free(s->fields, s->nfields);
	}
	for (uint32_t i = 0; i < TAB_CHUNKS; i++)
		free(w->schemas.chunk[i]);
	for (size_t i = 0; i < w->nmeta; i++) {
		free(w->meta[i].key);
		free(w->meta[i].val);
	}
	free(w->meta);
	d9_hmap_free(&w->locs);
}
