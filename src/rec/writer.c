/*
 * writer.c: the writer's life (open, close, flush, rotate, stats), its
 * options, thread registration and the trace clock (its tables:
 * tables.c).
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

#include "rec/rec.h"

#define D9REC_VERSION	"0.1.0"

void
d9rec_options_init(struct d9rec_options *o)
{
	if (o == NULL)
		return;
	memset(o, 0, sizeof *o);
	o->compression = D9REC_COMPRESS_GZIP_FAST;
	o->cpu_profile = 1;
	o->sched_profile = 1;
	o->alloc_profile = 1;
	o->symbols = 1;
}

/* ---- clock ---- */

uint64_t
d9rec_mono_ns(void)
{
	return d9rec_clock_ns(CLOCK_MONOTONIC);
}

uint64_t
d9rec_clock_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of the thread th, ns (0 when it cannot be read). */
static uint64_t
thread_cpu(pthread_t th)
{
	clockid_t c;

	return pthread_getcpuclockid(th, &c) == 0 ? d9rec_clock_ns(c) : 0;
}

void
d9rec_cost_of(struct d9rec_writer *w, int on_flusher, uint64_t *rec,
    uint64_t *proc)
{
	/* the flush thread reads its own clock: flusher_started is set
	 * by the opening thread after the flush thread began */
	*rec = (on_flusher ? d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID) :
	    w->flusher_started ? thread_cpu(w->flusher) : 0) +
	    (w->compressor_started ? thread_cpu(w->compressor) : 0);
	*proc = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - w->proc_cpu0;
}

void
d9rec_cost(d9rec_writer *w, uint64_t *recorder_cpu_ns,
    uint64_t *process_cpu_ns)
{
	*recorder_cpu_ns = *process_cpu_ns = 0;
	if (w != NULL && !atomic_load(&w->forked))
		d9rec_cost_of(w, 0, recorder_cpu_ns, process_cpu_ns);
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
	if (w != NULL && w->opt.clock != NULL)
		return w->opt.clock(w->opt.clock_ctx);
	return d9rec_mono_ns();
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
	t->fast_cap = w->opt.clock != NULL ? 0 : cap;
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
	t->name = d9rec_strtab_add(w, name, 0);
	pthread_mutex_unlock(&w->lock);
	if (t->name == UINT32_MAX) {
		free(t->buf);
		free(t);
		return NULL;
	}
	d9rec_perf_thread(w, t);
	if (w->cpu_timer)
		t->cputimer = d9rec_cputimer_start(w->opt.cpu_frequency_hz);
	pthread_mutex_lock(&w->lock);
	t->next = w->threads;
	w->threads = t;
	d9rec_perf_listed(w, t);
	pthread_mutex_unlock(&w->lock);
	return t;
}

void
d9rec_thread_unregister(struct d9rec_thread **t)
{
	if (t == NULL || *t == NULL)
		return;
	d9rec_cputimer_stop((*t)->cputimer);
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
	if (w->cpu_on) {
		rc |= d9rec_set_meta(w, "d9rec.cpu_sampler",
		    w->sampler_reason);
		/* samples per second of a thread's CPU time: a reader
		 * expects a poll on CPU all along to carry about D x this
		 * (ANALYSIS 17.1) */
		snprintf(buf, sizeof buf, "%u", w->opt.cpu_frequency_hz);
		rc |= d9rec_set_meta(w, "d9rec.cpu_frequency_hz", buf);
	}
	rc |= d9rec_set_meta(w, "d9rec.sched_profile", w->sched_reason);
	if (w->sched_on) {
		snprintf(buf, sizeof buf, "%u", d9rec_sched_stands_for(w));
		rc |= d9rec_set_meta(w, "d9rec.sched_sample_period", buf);
		snprintf(buf, sizeof buf, "%u", w->opt.sched_duty_pct);
		rc |= d9rec_set_meta(w, "d9rec.sched_duty_pct", buf);
		snprintf(buf, sizeof buf, "%u", D9REC_SCHED_CYCLE_MS);
		rc |= d9rec_set_meta(w, "d9rec.sched_duty_cycle_ms", buf);
		snprintf(buf, sizeof buf, "%u", d9rec_sched_event_period(w));
		rc |= d9rec_set_meta(w, "d9rec.sched_event_period", buf);
		rc |= d9rec_set_meta(w, "d9rec.sched_threads",
		    w->opt.sched_all_threads ? "all" : "workers");
	}
	return rc ? -ENOMEM : 0;
}

/* The one environment variable a library reads: D9REC_SYMBOLS is
 * libd9rec's documented interface (d9rec.3), for programs that link the
 * recorder and cannot pass options; d9top's own are read in src/app. */
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
	if (o->sched_duty_pct == 0)
		o->sched_duty_pct = o->sched_sample_period == 0 ?
		    D9REC_SCHED_DUTY : 100;
	if (o->sched_sample_period == 0)
		o->sched_sample_period = D9REC_SCHED_PERIOD;
	if (env != NULL && strcmp(env, "0") == 0)
		o->symbols = 0;
}

/* A segment's own headers and seal take about a KiB. */
#define MIN_FILE_SIZE	((uint64_t)16 << 10)
#define BATCH_MAX	((size_t)1023 << 10)	/* like dial9: ~1 MiB */

int
d9rec_options_check(const struct d9rec_options *o, char *msg, size_t len)
{
	struct d9rec_options d;
	struct stat sb;
	char none[1];

	if (msg == NULL || len == 0) {
		msg = none;
		len = sizeof none;
	}
	msg[0] = 0;
	if (o == NULL || o->dir == NULL || o->dir[0] == '\0') {
		snprintf(msg, len, "no trace directory (dir)");
		return -EINVAL;
	}
	if (stat(o->dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	    d9rec_dir_check(o->dir, &sb, msg, len) < 0)
		return -EPERM;
	if (o->compression < 0 || o->compression > D9REC_COMPRESS_GZIP_FAST) {
		snprintf(msg, len, "compression %d is not one of "
		    "D9REC_COMPRESS_NONE, _GZIP, _GZIP_FAST, _ZSTD",
		    o->compression);
		return -EINVAL;
	}
	if (o->sched_duty_pct > 100) {
		snprintf(msg, len, "sched_duty_pct %u is above 100 (the share "
		    "of time context switches are sampled, in %%)",
		    o->sched_duty_pct);
		return -EINVAL;
	}
	d = *o;
	apply_defaults(&d);
	if (d.max_file_size < MIN_FILE_SIZE) {
		snprintf(msg, len, "max_file_size %llu is below %llu bytes "
		    "(a segment's own headers need room)",
		    (unsigned long long)d.max_file_size,
		    (unsigned long long)MIN_FILE_SIZE);
		return -EINVAL;
	}
	if (d.max_total_size / 2 < d.max_file_size) {
		char raise[64] = "";

		if (d.max_file_size <= UINT64_MAX / 2)	/* else no total can */
			snprintf(raise, sizeof raise, "raise it to %llu or ",
			    (unsigned long long)d.max_file_size * 2);
		snprintf(msg, len, "max_total_size %llu cannot hold two "
		    "segments of max_file_size %llu (the newest complete one "
		    "and the one being written): %slower max_file_size",
		    (unsigned long long)d.max_total_size,
		    (unsigned long long)d.max_file_size, raise);
		return -EINVAL;
	}
	return 0;
}

static void writer_free(struct d9rec_writer *w);

int
d9rec_open(d9rec_writer **out, const struct d9rec_options *o)
{
	struct d9rec_writer *w;
	int rc;

	if (out == NULL)
		return -EINVAL;
	*out = NULL;
	if ((rc = d9rec_options_check(o, NULL, 0)) < 0)
		return rc;
	if ((w = calloc(1, sizeof *w)) == NULL)
		return -ENOMEM;
	w->opt = *o;
	w->ksyms_after = d9rec_mono_ns() + D9REC_KSYMS_FIRST_NS;
	w->proc_cpu0 = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	apply_defaults(&w->opt);
	w->batch_max = w->opt.max_file_size / 4 < BATCH_MAX ?
	    (size_t)(w->opt.max_file_size / 4) : BATCH_MAX;
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
	if ((rc = d9rec_tables_init(w)) < 0 ||
	    (rc = default_meta(w)) < 0 ||
	    (o->service != NULL && (rc = d9rec_set_meta(w, "service",
	    o->service)) < 0) ||
	    (rc = d9rec_enc_init(&w->enc) < 0 ? -ENOMEM : 0) < 0 ||
	    (rc = d9rec_enc_init(&w->aux) < 0 ? -ENOMEM : 0) < 0 ||
	    (rc = d9rec_enc_init(&w->tail) < 0 ? -ENOMEM : 0) < 0 ||
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

	if (w == NULL)
		return -EINVAL;
	if (atomic_load(&w->forked))
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
	if (st == NULL)
		return;
	memset(st, 0, sizeof *st);
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	for (struct d9rec_thread *t = w->threads; t; t = t->next) {
		st->events += atomic_load(&t->events);
		st->dropped += atomic_load(&t->dropped) +
		    atomic_load(&t->dropped_unguarded);
	}
	pthread_mutex_unlock(&w->lock);
	st->events += atomic_load(&w->retired_events);
	st->dropped += atomic_load(&w->retired_dropped) +
	    atomic_load(&w->ring_lost);
	st->written_events = atomic_load(&w->written_events);
	st->bytes_written = atomic_load(&w->bytes_written);
	st->write_errors = atomic_load(&w->write_errors);
	st->lost_batches = atomic_load(&w->lost_batches);
	st->segments = atomic_load(&w->segments);
	st->recovered_segments = atomic_load(&w->recovered);
	st->deleted_segments = atomic_load(&w->deleted_segments);
	st->deleted_bytes = atomic_load(&w->deleted_bytes);
	st->cpu_samples = atomic_load(&w->cpu_samples);
	st->cpu_lost = atomic_load(&w->cpu_lost);
	st->last_errno = atomic_load(&w->last_errno);
	st->stopped = atomic_load(&w->suspended);
	st->cpu_profile_on = w->cpu_on;
	st->sched_profile_on = w->sched_on;
	d9rec_alloc_stats(w, st);
}

void
d9rec_thread_free(struct d9rec_thread *t)
{
	d9rec_perf_close(t);
	d9rec_cputimer_free(t->cputimer);
	free(t->buf);
	free(t);
}

/* Whether a thread is still registered: it may record after the close,
 * so its handle, its ring and the writer's tables it reads stay (its
 * events fill the ring nobody drains and are dropped); its CPU timer
 * and perf events stop. */
static int
threads_live(struct d9rec_writer *w)
{
	int live = 0;

	for (struct d9rec_thread *t = w->threads; t != NULL; t = t->next)
		if (!atomic_load_explicit(&t->dead, memory_order_acquire)) {
			d9rec_cputimer_stop(t->cputimer);
			d9rec_perf_close(t);
			live = 1;
		}
	return live;
}

/* The writer's files closed and its allocation sampling stopped (also
 * for a writer kept for live threads). */
static void
files_close(struct d9rec_writer *w)
{
	d9rec_alloc_stop(w);
	if (w->fd >= 0)
		close(w->fd);
	if (w->lockfd >= 0)
		close(w->lockfd);
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->fd = w->lockfd = w->dirfd = -1;
}

static void
writer_free(struct d9rec_writer *w)
{
	struct d9rec_thread *t, *next;

	for (t = w->threads; t != NULL; t = next) {
		next = t->next;
		d9rec_thread_free(t);
	}
	files_close(w);
	d9rec_symcache_free(w);
	d9rec_ksyms_free(&w->ksyms);
	d9rec_enc_free(&w->enc);
	d9rec_enc_free(&w->aux);
	d9rec_enc_free(&w->tail);
	d9_hmap_free(&w->addrs);
	d9rec_tables_free(w);
	free(w->cq);
	free(w->plan);
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
	if (threads_live(w))
		files_close(w);		/* kept: a thread records on */
	else
		writer_free(w);
	return rc;
}
