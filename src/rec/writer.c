/*
 * writer.c: the writer's life (open, close, flush, rotate, stats), its
 * tables (strings, schemas, metadata), thread registration and the trace
 * clock.
 *
 * Clock: on x86 the hot path stores raw TSC values (about 10 ns cheaper
 * than clock_gettime here) and the flush thread converts them to
 * CLOCK_MONOTONIC ns with a rate measured over the writer's whole life
 * and an anchor refreshed at every flush. Elsewhere, and when the test
 * hook opt.clock is set, raw values already are ns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "rec/rec.h"

#define D9REC_VERSION	"0.1.0"

/* Built-in schemas, in enum sch_builtin order (the type id of schema i
 * is i + 1); names and fields come from base/schemas.h. */
static const uint8_t builtins[S_NBUILTIN] = {
	[S_CLOCK] = D9_SCH_CLOCK_SYNC, [S_META] = D9_SCH_SEGMENT_META,
	[S_POLL_START] = D9_SCH_POLL_START, [S_POLL_END] = D9_SCH_POLL_END,
	[S_PARK] = D9_SCH_PARK, [S_UNPARK] = D9_SCH_UNPARK,
	[S_WAKE] = D9_SCH_WAKE, [S_SPAWN] = D9_SCH_SPAWN,
	[S_TERMINATE] = D9_SCH_TERMINATE, [S_QUEUE] = D9_SCH_QUEUE,
	[S_CPU] = D9_SCH_CPU, [S_ALLOC] = D9_SCH_ALLOC, [S_FREE] = D9_SCH_FREE,
	[S_OVERFLOW] = D9_SCH_MEM_OVERFLOW, [S_SPAN_CLOSE] = D9_SCH_SPAN_CLOSE,
	[S_MAPS] = D9_SCH_MAPS, [S_SYMBOL] = D9_SCH_SYMBOL,
};

void
d9rec_options_init(struct d9rec_options *o)
{
	memset(o, 0, sizeof *o);
	o->compression = D9REC_COMPRESS_GZIP;
	o->cpu_profile = 1;
	o->sched_profile = 1;
	o->alloc_profile = 1;
	o->symbols = 1;
}

/* ---- clock ---- */

uint64_t
d9rec_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A raw time and the monotonic time it was read at: the closest of a
 * few tries (a preemption between the reads would put the two apart). */
static void
clock_pair(uint64_t *raw, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	*raw = *ns = 0;
	for (int i = 0; i < 5 && best > 2000; i++) {
		uint64_t a = d9rec_mono_ns(), r = d9rec_raw_now();
		uint64_t b = d9rec_mono_ns();

		if (b - a < best) {
			best = b - a;
			*raw = r;
			*ns = a + (b - a) / 2;
		}
	}
}

void
d9rec_clock_anchor(struct d9rec_writer *w)
{
	uint64_t raw, ns;

	if (!w->tsc)
		return;
	clock_pair(&raw, &ns);
	if (raw > w->raw0 && ns > w->ns0)
		w->rate = (double)(ns - w->ns0) / (double)(raw - w->raw0);
	w->anchor_raw = raw;
	w->anchor_ns = ns;
}

uint64_t
d9rec_raw_to_ns(struct d9rec_writer *w, uint64_t raw)
{
	double d;

	if (!w->tsc)
		return raw;
	d = (double)(int64_t)(raw - w->anchor_raw) * w->rate;
	return w->anchor_ns + (uint64_t)(int64_t)d;
}

static void
clock_init(struct d9rec_writer *w)
{
	uint64_t raw, ns;

#if defined(__x86_64__) || defined(__i386__)
	w->tsc = w->opt.clock == NULL;
#endif
	if (!w->tsc)
		return;
	clock_pair(&w->raw0, &w->ns0);
	do
		clock_pair(&raw, &ns);
	while (ns - w->ns0 < 2000000);
	w->rate = (double)(ns - w->ns0) / (double)(raw - w->raw0);
	w->anchor_raw = raw;
	w->anchor_ns = ns;
}

uint64_t
d9rec_now(d9rec_writer *w)
{
	if (w->opt.clock != NULL)
		return w->opt.clock(w->opt.clock_ctx);
	return d9rec_mono_ns();
}

/* ---- tables ---- */

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
d9rec_strtab_add(struct d9rec_writer *w, const char *s)
{
	uint32_t n = atomic_load_explicit(&w->strs.n, memory_order_relaxed);
	char **c;

	if (n >= TAB_CHUNK * TAB_CHUNKS)
		return UINT32_MAX;
	if ((c = w->strs.chunk[n / TAB_CHUNK]) == NULL) {
		if ((c = calloc(TAB_CHUNK, sizeof *c)) == NULL)
			return UINT32_MAX;
		w->strs.chunk[n / TAB_CHUNK] = c;
	}
	if ((c[n % TAB_CHUNK] = strdup(s)) == NULL)
		return UINT32_MAX;
	atomic_store_explicit(&w->strs.n, n + 1, memory_order_release);
	return n;
}

/* With w->lock held; takes ownership of name and fields. */
static int
schtab_add(struct d9rec_writer *w, char *name, struct sch_field *f,
    uint16_t nf)
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

	return d9rec_strtab_add(q->w, q->loc);	/* UINT32_MAX is D9_NONE */
}

static const struct d9_hmap_rows loc_rows = { loc_hash, add_loc };

uint32_t
d9rec_location(d9rec_writer *w, const char *loc)
{
	struct want_loc q = { w, loc };
	uint32_t id;

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
	int rc;

	if (name == NULL || nfields > 64)
		return -EINVAL;
	for (unsigned i = 0; i < nfields; i++)
		switch (fields[i].type) {
		case D9REC_T_U64: case D9REC_T_I64: case D9REC_T_F64:
		case D9REC_T_BOOL: case D9REC_T_STR: case D9REC_T_U8:
		case D9REC_T_U16: case D9REC_T_U32:
			break;
		default:
			return -EINVAL;
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
	pthread_mutex_lock(&w->lock);
	rc = schtab_add(w, nm, f, (uint16_t)nfields);
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
	if ((rc = schtab_add(w, nm, f, (uint16_t)nf)) < 0)
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
	uint32_t nameid;
	int rc;

	if (name == NULL || nfields > 32)
		return -EINVAL;
	snprintf(site, sizeof site, "%s::%s:%s:%u", target ? target : "",
	    name, file ? file : "", line);
	pthread_mutex_lock(&w->lock);
	nameid = d9rec_strtab_add(w, name);
	rc = nameid == UINT32_MAX ? -ENOMEM :
	    span_schema(w, D9_SCH_SPAN_ENTER, site, fields, nfields, nameid);
	if (rc >= 0 && span_schema(w, D9_SCH_SPAN_EXIT, site, fields, nfields,
	    nameid) < 0)
		rc = -ENOMEM;	/* the orphan enter schema is harmless */
	pthread_mutex_unlock(&w->lock);
	return rc;
}

int
d9rec_set_meta(d9rec_writer *w, const char *key, const char *value)
{
	struct meta_kv *kv;
	char *v;
	int rc = 0;

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

	snprintf(key, sizeof key, "runtime.%s", name);
	val[0] = 0;
	for (uint32_t i = 0; i < n && len + 12 < sizeof val; i++)
		len += (size_t)snprintf(val + len, sizeof val - len, "%s%u",
		    i ? "," : "", first + i);
	return d9rec_set_meta(w, key, val);
}

/* ---- threads ---- */

struct d9rec_thread *
d9rec_thread_register(d9rec_writer *w, const char *name, uint32_t worker_id)
{
	struct d9rec_thread *t;
	size_t cap = 8192;
	char comm[17] = "";

	if (w == NULL || atomic_load(&w->forked))
		return NULL;
	while (cap < w->opt.thread_buffer_size && cap < ((size_t)1 << 30))
		cap *= 2;
	if ((t = aligned_alloc(64, sizeof *t)) == NULL)
		return NULL;
	memset(t, 0, sizeof *t);
	if ((t->buf = malloc(cap)) == NULL) {
		free(t);
		return NULL;
	}
	memset(t->buf, 0, cap);	/* fault the pages in now, not when recording */
	t->mask = cap - 1;
	t->clock = w->opt.clock;
	t->clock_ctx = w->opt.clock_ctx;
	t->w = w;
	t->worker = worker_id > D9REC_NO_WORKER ? D9REC_NO_WORKER : worker_id;
	t->tid = (uint32_t)gettid();
	t->perf_fd[0] = t->perf_fd[1] = -1;
	if (name == NULL) {
		prctl(PR_GET_NAME, comm, 0, 0, 0);
		name = comm;
	}
	pthread_mutex_lock(&w->lock);
	t->name = d9rec_strtab_add(w, name);
	pthread_mutex_unlock(&w->lock);
	if (t->name == UINT32_MAX) {
		free(t->buf);
		free(t);
		return NULL;
	}
	d9rec_perf_thread(w, t);
	pthread_mutex_lock(&w->lock);
	t->next = w->threads;
	w->threads = t;
	pthread_mutex_unlock(&w->lock);
	return t;
}

void
d9rec_thread_unregister(struct d9rec_thread **t)
{
	if (t == NULL || *t == NULL)
		return;
	atomic_store_explicit(&(*t)->dead, 1, memory_order_release);
	*t = NULL;
}

/* ---- life ---- */

static void
random_letters(char *out, int n)
{
	unsigned char r[8] = { 0 };

	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		uint64_t x = d9rec_mono_ns() ^ (uint64_t)getpid() << 32;

		memcpy(r, &x, sizeof r);
	}
	for (int i = 0; i < n; i++)
		out[i] = (char)('a' + r[i] % 26);
	out[n] = 0;
}

static int
default_meta(struct d9rec_writer *w)
{
	char buf[64], svc[64] = "";
	int rc = 0;

	if (w->opt.service == NULL)
		prctl(PR_GET_NAME, svc, 0, 0, 0);
	rc |= d9rec_set_meta(w, "service", w->opt.service ? w->opt.service :
	    svc);
	rc |= d9rec_set_meta(w, "host", w->host);
	rc |= d9rec_set_meta(w, "boot_id", w->boot_id);
	rc |= d9rec_set_meta(w, "d9rec.version", D9REC_VERSION);
	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	rc |= d9rec_set_meta(w, "process.available_parallelism", buf);
	if (w->opt.alloc_profile) {
		snprintf(buf, sizeof buf, "%llu",
		    (unsigned long long)w->opt.alloc_sample_rate);
		rc |= d9rec_set_meta(w, "memory.sample_rate_bytes", buf);
	}
	rc |= d9rec_set_meta(w, "d9rec.cpu_profile", w->cpu_reason);
	rc |= d9rec_set_meta(w, "d9rec.sched_profile", w->sched_reason);
	return rc ? -ENOMEM : 0;
}

static int
builtin_schemas(struct d9rec_writer *w)
{
	for (int i = 0; i < S_NBUILTIN; i++) {
		const struct d9_schema_def *def = d9_schema(builtins[i]);
		struct sch_field *f = fields_of(def, NULL, 0);
		char *nm = NULL;

		if (f == NULL || (nm = strdup(def->name)) == NULL ||
		    schtab_add(w, nm, f, def->nfields) < 0) {
			free(nm);
			fields_free(f, def->nfields);
			return -ENOMEM;
		}
	}
	return 0;
}

static void
apply_defaults(struct d9rec_options *o)
{
	const char *env = getenv("D9REC_SYMBOLS");

	if (o->max_total_size == 0)
		o->max_total_size = (uint64_t)1 << 30;
	if (o->max_file_size == 0) {
		o->max_file_size = o->max_total_size / 4;
		if (o->max_file_size > (uint64_t)100 << 20)
			o->max_file_size = (uint64_t)100 << 20;
	}
	if (o->rotation_period_ms == 0)
		o->rotation_period_ms = 60000;
	if (o->flush_interval_ms == 0)
		o->flush_interval_ms = 50;
	if (o->thread_buffer_size == 0)
		o->thread_buffer_size = (size_t)1 << 20;
	if (o->cpu_frequency_hz == 0)
		o->cpu_frequency_hz = 99;
	if (o->alloc_sample_rate == 0)
		o->alloc_sample_rate = 524288;
	if (env != NULL && strcmp(env, "0") == 0)
		o->symbols = 0;
}

static void writer_free(struct d9rec_writer *w);

int
d9rec_open(d9rec_writer **out, const struct d9rec_options *o)
{
	struct d9rec_writer *w;
	int rc;

	*out = NULL;
	if (o == NULL || o->dir == NULL || o->compression < 0 ||
	    o->compression > D9REC_COMPRESS_ZSTD)
		return -EINVAL;
	if ((w = calloc(1, sizeof *w)) == NULL)
		return -ENOMEM;
	w->opt = *o;
	apply_defaults(&w->opt);
	w->fd = w->dirfd = w->lockfd = -1;
	w->pid = getpid();
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	pthread_cond_init(&w->done, NULL);
	pthread_cond_init(&w->cq_cond, NULL);
	if ((w->dir = strdup(o->dir)) == NULL) {
		writer_free(w);
		return -ENOMEM;
	}
	w->opt.dir = w->dir;
	w->opt.service = NULL;
	random_letters(w->boot_id, 4);
	snprintf(w->boot_id + 4, sizeof w->boot_id - 4, "-%d", (int)w->pid);
	if (gethostname(w->host, sizeof w->host - 1) < 0)
		strcpy(w->host, "unknown");
	clock_init(w);
	d9rec_perf_probe(w);
	if ((rc = builtin_schemas(w)) < 0 ||
	    (rc = default_meta(w)) < 0 ||
	    (o->service != NULL && (rc = d9rec_set_meta(w, "service",
	    o->service)) < 0) ||
	    (rc = d9rec_enc_init(&w->enc) < 0 ? -ENOMEM : 0) < 0 ||
	    (rc = d9rec_seg_scan(w)) < 0 ||
	    (rc = d9rec_seg_open(w)) < 0) {
		writer_free(w);
		return rc;
	}
	if (w->opt.alloc_profile && d9rec_alloc_start(w) < 0)
		d9rec_set_meta(w, "d9rec.alloc_profile", "off: out of memory");
	if (w->opt.compression != D9REC_COMPRESS_NONE) {
		if ((rc = -pthread_create(&w->compressor, NULL,
		    d9rec_compress_main, w)) < 0) {
			writer_free(w);
			return rc;
		}
		w->compressor_started = 1;
	}
	if ((rc = -pthread_create(&w->flusher, NULL, d9rec_flush_main, w)) <
	    0) {
		writer_free(w);
		return rc;
	}
	w->flusher_started = 1;
	d9rec_fork_register(w);
	*out = w;
	return 0;
}

/* Ask the flush thread for one cycle (and a rotation) and wait for it. */
static int
request(d9rec_writer *w, int rotate)
{
	uint64_t seq;

	if (w == NULL || atomic_load(&w->forked))
		return -EPERM;
	pthread_mutex_lock(&w->lock);
	seq = ++w->req_flush;
	if (rotate)
		w->req_rotate = 1;
	pthread_cond_signal(&w->cond);
	while (w->done_flush < seq && !w->stop)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int
d9rec_flush(d9rec_writer *w)
{
	return request(w, 0);
}

int
d9rec_rotate(d9rec_writer *w)
{
	return request(w, 1);
}

void
d9rec_stats(d9rec_writer *w, struct d9rec_stats *st)
{
	memset(st, 0, sizeof *st);
	pthread_mutex_lock(&w->lock);
	for (struct d9rec_thread *t = w->threads; t; t = t->next) {
		st->events += atomic_load(&t->events);
		st->dropped += atomic_load(&t->dropped);
	}
	pthread_mutex_unlock(&w->lock);
	st->events += atomic_load(&w->retired_events);
	st->dropped += atomic_load(&w->retired_dropped);
	st->written_events = atomic_load(&w->written_events);
	st->bytes_written = atomic_load(&w->bytes_written);
	st->write_errors = atomic_load(&w->write_errors);
	st->lost_batches = atomic_load(&w->lost_batches);
	st->segments = atomic_load(&w->segments);
	st->recovered_segments = atomic_load(&w->recovered);
	st->deleted_segments = atomic_load(&w->deleted_segments);
	st->cpu_samples = atomic_load(&w->cpu_samples);
	st->cpu_lost = atomic_load(&w->cpu_lost);
	st->last_errno = atomic_load(&w->last_errno);
	st->stopped = atomic_load(&w->stopped) || atomic_load(&w->suspended);
	st->cpu_profile_on = w->cpu_on;
	st->sched_profile_on = w->sched_on;
	d9rec_alloc_stats(w, st);
}

static void
writer_free(struct d9rec_writer *w)
{
	struct d9rec_thread *t, *next;
	uint32_t n;

	for (t = w->threads; t != NULL; t = next) {
		next = t->next;
		d9rec_perf_close(t);
		free(t->buf);
		free(t);
	}
	d9rec_alloc_stop(w);
	d9rec_symcache_free(w);
	d9rec_enc_free(&w->enc);
	d9_hmap_free(&w->addrs);
	n = atomic_load(&w->strs.n);
	for (uint32_t i = 0; i < n; i++)
		free(w->strs.chunk[i / TAB_CHUNK][i % TAB_CHUNK]);
	for (uint32_t i = 0; i < TAB_CHUNKS; i++)
		free(w->strs.chunk[i]);
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
	free(w->cq);
	if (w->fd >= 0)
		close(w->fd);
	if (w->lockfd >= 0)
		close(w->lockfd);
	if (w->dirfd >= 0)
		close(w->dirfd);
	free(w->dir);
	free(w);
}

int
d9rec_close(d9rec_writer **wp)
{
	struct d9rec_writer *w;
	int rc = 0;

	if (wp == NULL || (w = *wp) == NULL)
		return 0;
	*wp = NULL;
	d9rec_fork_unregister(w);
	if (atomic_load(&w->forked)) {
		/* a child: the threads are the parent's, so are the files */
		if (w->fd >= 0)
			close(w->fd);
		w->fd = -1;
		w->flusher_started = w->compressor_started = 0;
		writer_free(w);
		return 0;
	}
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_cond_broadcast(&w->cq_cond);
	pthread_mutex_unlock(&w->lock);
	if (w->flusher_started)
		pthread_join(w->flusher, NULL);
	if (w->compressor_started)
		pthread_join(w->compressor, NULL);
	if (atomic_load(&w->write_errors))
		rc = -atomic_load(&w->last_errno);
	writer_free(w);
	return rc;
}
