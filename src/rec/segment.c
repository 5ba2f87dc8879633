/*
 * segment.c: segment files (FORMAT 1.4 to 1.6).
 *
 * {dir}/trace.N.bin.active while open, trace.N.bin once sealed (rename),
 * trace.N.bin.gz or .zst once the compressor thread is done with it (the
 * compressed copy is written as the hidden .trace.N.bin.gz.tmp, renamed,
 * then the .bin is removed). Every file is created with O_EXCL |
 * O_NOFOLLOW and mode 0600. The directory holds a .lock file that the
 * writer keeps flock()ed, so that removing stale .active files at start
 * cannot hit a live writer. The directory must be the calling user's
 * and writable by nobody else (d9rec_dir_check); one it makes is 0700.
 *
 * A segment starts with a ClockSyncEvent batch and a metadata batch
 * (segment.complete=false and the loss counters so far); sealing writes
 * the metadata again (segment.complete=true, the counters) and the
 * appendix batch (ProcMapsEntry rows, SymbolTableEntry table). Each batch
 * goes out in one write(), so a kill -9 leaves complete frames only; a
 * writer that starts in the directory seals what a crashed one left open
 * (trace.N.bin.active -> trace.N.bin) and counts it.
 *
 * A failing write (ENOSPC, EFBIG, EIO, EROFS) cuts the segment: the file
 * is truncated back to its last whole batch, ends with a metadata batch
 * (segment.complete=false, the counters) when that still fits, and is
 * sealed. Batches drained meanwhile are counted as lost; every flush
 * cycle tries a new segment (whose metadata carries the counters), also
 * in a re-created directory when the old one was removed. Nothing here
 * blocks or stops the host program.
 *
 * The size cap (retain.c) is planned as a seal begins, so that the
 * seal's metadata counts what it deletes, and carried out once the seal
 * is renamed. A data batch that would take the active segment past
 * max_file_size first seals it and opens the next: segments stay near
 * max_file_size whatever a flush cycle drains. Headers, metadata and
 * seals are encoded in w->aux, so that rotating never touches the data
 * batch waiting in w->enc.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/io.h"
#include "rec/rec.h"

#define OFLAGS	(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)

/* "trace.N.bin<rest>": 0 and the index, or -1. */
int
d9rec_seg_parse_name(const char *name, uint32_t *idx, const char **rest)
{
	char *end;
	unsigned long v;

	if (strncmp(name, "trace.", 6) != 0 || name[6] < '0' || name[6] > '9')
		return -1;
	v = strtoul(name + 6, &end, 10);
	if (v > UINT32_MAX || strncmp(end, ".bin", 4) != 0)
		return -1;
	*idx = (uint32_t)v;
	*rest = end + 4;
	return 0;
}

static void
seg_name(char *buf, size_t n, uint32_t idx, const char *suffix)
{
	snprintf(buf, n, "trace.%" PRIu32 ".bin%s", idx, suffix);
}

/* A fresh listing of the segment directory (the dup shares the offset
 * of w->dirfd, hence the rewind). */
DIR *
d9rec_seg_dir(struct d9rec_writer *w)
{
	int fd = dup(w->dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	rewinddir(d);
	return d;
}

/*
 * Whether the trace directory dir, as sb describes it, may hold the
 * trace: owned by this user (the effective uid), writable by nobody
 * else, as d9top asks of its index directory. Another user's directory,
 * or one anyone may write to, lets someone else plant segments (a
 * second process in the trace) or replace the real ones. 0, or -EPERM
 * with the reason in msg (dir's control characters shown as '?').
 */
int
d9rec_dir_check(const char *dir, const struct stat *sb, char *msg,
    size_t len)
{
	char name[256];
	size_t i;

	if (sb->st_uid == geteuid() && !(sb->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	for (i = 0; dir[i] != '\0' && i < sizeof name - 1; i++)
		name[i] = (unsigned char)dir[i] < 0x20 || dir[i] == 0x7f ?
		    '?' : dir[i];
	name[i] = '\0';
	if (sb->st_uid != geteuid())
		snprintf(msg, len, "the trace directory %s is refused: it "
		    "belongs to another user (uid %u, not %u)", name,
		    (unsigned)sb->st_uid, (unsigned)geteuid());
	else
		snprintf(msg, len, "the trace directory %s is refused: its "
		    "group or other users may write to it (mode %04o)", name,
		    (unsigned)(sb->st_mode & 07777));
	return -EPERM;
}

/* The directory (created when missing, 0700) and its lock: 0 or
 * -errno (-EPERM: not ours alone, d9rec_dir_check). */
static int
dir_lock(struct d9rec_writer *w)
{
	struct stat sb;
	char why[1];

	if (mkdir(w->dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	w->dirfd = d9rec_fd_high(open(w->dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC));
	if (w->dirfd < 0)
		return -errno;
	if (fstat(w->dirfd, &sb) < 0)
		return -errno;
	if (d9rec_dir_check(w->dir, &sb, why, sizeof why) < 0)
		return -EPERM;
	w->lockfd = d9rec_fd_high(openat(w->dirfd, ".lock", O_RDWR | O_CREAT |
	    O_NOFOLLOW | O_CLOEXEC, 0600));
	if (w->lockfd < 0)
		return -errno;
	if (flock(w->lockfd, LOCK_EX | LOCK_NB) < 0)
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	return 0;
}

/* The directory was removed under the writer: make it again. */
static int
dir_again(struct d9rec_writer *w)
{
	struct stat sb;

	if (fstat(w->dirfd, &sb) < 0 || sb.st_nlink > 0)
		return -1;	/* still there: nothing to do */
	close(w->dirfd);
	if (w->lockfd >= 0)
		close(w->lockfd);
	w->dirfd = w->lockfd = -1;
	return dir_lock(w) < 0 ? -1 : 0;
}

/* Queue segment idx for the compressor (the writer's lock held). */
static void
queue_compress(struct d9rec_writer *w, uint32_t idx)
{
	uint32_t *q;

	if (w->opt.compression == D9REC_COMPRESS_NONE)
		return;
	if (w->cq_n == w->cq_cap) {
		size_t nc = w->cq_cap ? w->cq_cap * 2 : 8;

		if ((q = realloc(w->cq, nc * sizeof *q)) != NULL) {
			w->cq = q;
			w->cq_cap = nc;
		}
	}
	if (w->cq_n < w->cq_cap) {
		w->cq[w->cq_n++] = idx;
		pthread_cond_signal(&w->cq_cond);
	}
}

/* A segment a crashed writer left open: sealed under its own sealed name
 * (link, then unlink: never over an existing file), else kept as it is;
 * d9top reads either, and its metadata says segment.complete=false. An
 * empty file recorded nothing and goes. Returns 0 when it was deleted. */
static int
recover(struct d9rec_writer *w, const char *name, uint32_t idx)
{
	struct stat sb;
	char to[64];

	if (fstatat(w->dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(sb.st_mode) && sb.st_size == 0) {
		unlinkat(w->dirfd, name, 0);
		return 0;
	}
	seg_name(to, sizeof to, idx, "");
	if (linkat(w->dirfd, name, w->dirfd, to, 0) == 0 &&
	    unlinkat(w->dirfd, name, 0) == 0) {
		pthread_mutex_lock(&w->lock);
		queue_compress(w, idx);
		pthread_mutex_unlock(&w->lock);
	}
	atomic_fetch_add(&w->recovered, 1);
	return 1;
}

int
d9rec_seg_scan(struct d9rec_writer *w)
{
	uint32_t idx, max = 0;
	int found = 0, rc;
	struct dirent *de;
	const char *rest;
	char buf[32];
	DIR *d;

	if ((rc = dir_lock(w)) < 0)
		return rc;
	if ((d = d9rec_seg_dir(w)) == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (strncmp(de->d_name, ".trace.", 7) == 0 && len > 4 &&
		    strcmp(de->d_name + len - 4, ".tmp") == 0) {
			unlinkat(w->dirfd, de->d_name, 0);
			continue;
		}
		if (d9rec_seg_parse_name(de->d_name, &idx, &rest) < 0)
			continue;
		if (strcmp(rest, ".active") == 0 &&
		    recover(w, de->d_name, idx) == 0)
			continue;
		if (!found || idx > max)
			max = idx;
		found = 1;
	}
	closedir(d);
	w->index = found ? max + 1 : 0;
	if (atomic_load(&w->recovered) > 0) {
		snprintf(buf, sizeof buf, "%" PRIu64, atomic_load(&w->recovered));
		if (d9rec_set_meta(w, "d9rec.recovered_segments", buf) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Drop counters into the metadata, so the trace tells what it lacks
 * (d9top, ANALYSIS 19: counts since the writer started). Returns their
 * sum. */
uint64_t
d9rec_seg_counters(struct d9rec_writer *w)
{
	static const char *const keys[] = { "d9rec.dropped_events",
	    "d9rec.write_errors", "d9rec.lost_batches", "d9rec.cpu_lost",
	    "d9rec.alloc_dropped", "d9rec.free_dropped" };
	struct d9rec_stats st;
	uint64_t v[6], sum = 0;
	char buf[32];

	d9rec_stats(w, &st);
	v[0] = st.dropped;
	v[1] = st.write_errors;
	v[2] = st.lost_batches;
	v[3] = st.cpu_lost;
	v[4] = st.alloc_dropped;
	v[5] = st.free_dropped;
	for (size_t i = 0; i < 6; i++) {
		snprintf(buf, sizeof buf, "%" PRIu64, v[i]);
		d9rec_set_meta(w, keys[i], buf);
		sum += v[i];
	}
	/* retention, not loss: readers learn what the cap removed, with
	 * what the seal being written is about to remove */
	snprintf(buf, sizeof buf, "%" PRIu64, st.deleted_segments + w->plan_n);
	d9rec_set_meta(w, "d9rec.deleted_segments", buf);
	snprintf(buf, sizeof buf, "%" PRIu64, st.deleted_bytes +
	    w->plan_bytes);
	d9rec_set_meta(w, "d9rec.deleted_bytes", buf);
	return sum;
}

/* What recording has cost so far, for readers (d9top's "recorder"): at
 * seals only (the flush thread's), so that the metadata does not change
 * every second. */
static void
cost_meta(struct d9rec_writer *w)
{
	uint64_t rec, proc;
	char buf[32];

	d9rec_cost_of(w, 1, &rec, &proc);
	snprintf(buf, sizeof buf, "%" PRIu64, rec);
	d9rec_set_meta(w, "d9rec.recorder_cpu_ns", buf);
	snprintf(buf, sizeof buf, "%" PRIu64, proc);
	d9rec_set_meta(w, "d9rec.process_cpu_ns", buf);
}

static uint64_t
loss_sum(struct d9rec_writer *w)
{
	struct d9rec_stats st;

	d9rec_stats(w, &st);
	return st.dropped + st.write_errors + st.lost_batches + st.cpu_lost +
	    st.alloc_dropped + st.free_dropped;
}

/* ClockSyncEvent: realtime read between two monotonic reads. */
static void
clock_event(struct d9rec_writer *w, struct enc *e)
{
	struct timespec rt;
	uint64_t a = d9rec_mono_ns(), b, ts;

	clock_gettime(CLOCK_REALTIME, &rt);
	b = d9rec_mono_ns();
	ts = w->opt.clock ? w->opt.clock(w->opt.clock_ctx) : a + (b - a) / 2;
	d9rec_enc_event(w, e, S_CLOCK, ts);
	d9rec_enc_varint(e, (uint64_t)rt.tv_sec * 1000000000u +
	    (uint64_t)rt.tv_nsec);
}

/* The metadata batch (and its ClockSyncEvent) into e. */
static void
meta_batch(struct d9rec_writer *w, struct enc *e)
{
	d9rec_enc_clear(e);
	d9rec_enc_batch(e);
	d9rec_enc_event(w, e, S_META, d9rec_now(w));
	pthread_mutex_lock(&w->lock);
	d9rec_enc_map(e, w->meta, w->nmeta);
	w->meta_written = w->meta_version;
	pthread_mutex_unlock(&w->lock);
	clock_event(w, e);
}

/* The active file, closed, becomes trace.N.bin (queued for the
 * compressor); the next segment is N + 1. written: the sum of the loss
 * counters its metadata holds, UINT64_MAX when they did not fit. When
 * the file is gone (its directory was removed) its batches are lost. */
static void
seal_file(struct d9rec_writer *w, uint64_t written)
{
	char from[64], to[64];
	int sealed;

	seg_name(from, sizeof from, w->index, ".active");
	seg_name(to, sizeof to, w->index, "");
	pthread_mutex_lock(&w->lock);
	if ((sealed = renameat(w->dirfd, from, w->dirfd, to) == 0)) {
		atomic_fetch_add(&w->segments, 1);
		queue_compress(w, w->index);
		if (written != UINT64_MAX)
			w->loss_sealed = written;
	} else if (errno == ENOENT)
		atomic_fetch_add(&w->lost_batches, w->seg_batches);
	w->index++;
	if (sealed && w->plan_n > 0)
		d9rec_retain_apply(w);	/* now the newest complete one */
	w->plan_n = w->plan_bytes = 0;
	pthread_mutex_unlock(&w->lock);
}

/* Close the active file: a segment with data is sealed, and so is one
 * whose metadata holds loss counters no sealed segment has yet (written:
 * their sum, see seal_file); one with nothing else is deleted. */
static void
seg_close(struct d9rec_writer *w, uint64_t written)
{
	char name[64];

	close(w->fd);
	w->fd = -1;
	w->seg_bytes = 0;
	if (w->seg_data || (written != UINT64_MAX &&
	    written != w->loss_sealed)) {
		seal_file(w, written);
		return;
	}
	w->plan_n = w->plan_bytes = 0;	/* nothing sealed, nothing goes */
	seg_name(name, sizeof name, w->index, ".active");
	unlinkat(w->dirfd, name, 0);
}

/* The file open at fd ends at off again, and the next write goes there
 * (a write that failed part way moved the file's offset past off: the
 * metadata batch written next would leave a hole of zeros before it). */
static void
back_to(int fd, uint64_t off)
{
	(void)!ftruncate(fd, (off_t)off);
	(void)lseek(fd, (off_t)off, SEEK_SET);
}

/*
 * A write failed at segment offset off: the file goes back to its last
 * whole batch, ends with a metadata batch that says what was lost when
 * that fits, and is closed; the next cycle tries a new segment.
 */
static void
seg_cut(struct d9rec_writer *w, uint64_t off)
{
	struct enc *e = &w->aux;
	uint64_t written = UINT64_MAX;

	atomic_store(&w->suspended, 1);
	if (!w->seg_data) {
		seg_close(w, written);	/* a start that found no room */
		return;
	}
	back_to(w->fd, off);
	d9rec_set_meta(w, "segment.complete", "false");
	written = d9rec_seg_counters(w);
	meta_batch(w, e);
	if (e->oom || d9_write_all(w->fd, e->p, e->n) < 0) {
		back_to(w->fd, off);
		written = UINT64_MAX;
	}
	d9rec_enc_clear(e);
	seg_close(w, written);
}

static int seg_start(struct d9rec_writer *w, int keep_addrs);

void
d9rec_seg_write(struct d9rec_writer *w, struct enc *e, int data)
{
	uint64_t off;

	if (e->n == 0)
		return;
	if (data && w->fd >= 0 && w->seg_data &&
	    w->seg_bytes + e->n > w->opt.max_file_size) {
		/* the batch's callchain addresses are in w->addrs already:
		 * the next segment keeps them for its symbol table */
		d9rec_seg_seal(w, 0);
		seg_start(w, 1);
	}
	off = w->seg_bytes;
	if (w->fd < 0 || e->oom) {
		if (data)
			atomic_fetch_add(&w->lost_batches, 1);
		return;
	}
	if (d9_write_all(w->fd, e->p, e->n) < 0) {
		atomic_store(&w->last_errno, errno);
		atomic_fetch_add(&w->write_errors, 1);
		atomic_fetch_add(&w->lost_batches, data != 0);
		seg_cut(w, off);
		return;
	}
	w->seg_bytes += e->n;
	atomic_fetch_add(&w->bytes_written, e->n);
	if (data) {
		w->seg_data = 1;
		w->seg_batches++;
		atomic_fetch_add(&w->written_events, e->events);
	}
}

void
d9rec_seg_meta(struct d9rec_writer *w)
{
	meta_batch(w, &w->aux);
	d9rec_seg_write(w, &w->aux, 0);
	d9rec_enc_clear(&w->aux);
}

/* A new active segment; keep_addrs: the address set carries over (a
 * rotation in the middle of a cycle). 0 or -errno. */
static int
seg_start(struct d9rec_writer *w, int keep_addrs)
{
	char name[64];
	int fd = -1;

	for (int again = 0; again < 2 && fd < 0; again++) {
		for (int tries = 0; tries < 1000; tries++) {
			seg_name(name, sizeof name, w->index, ".active");
			fd = d9rec_fd_high(openat(w->dirfd, name, O_WRONLY |
			    OFLAGS, 0600));
			if (fd >= 0 || errno != EEXIST)
				break;
			w->index++;
		}
		if (fd < 0 && (errno != ENOENT || dir_again(w) < 0))
			break;
	}
	if (fd < 0) {
		atomic_store(&w->last_errno, errno);
		atomic_fetch_add(&w->write_errors, 1);
		atomic_store(&w->suspended, 1);
		return -atomic_load(&w->last_errno);
	}
	w->fd = fd;
	w->seg_bytes = 0;
	w->seg_data = 0;
	w->seg_batches = 0;
	w->seg_start_ns = d9rec_now(w);
	atomic_store(&w->suspended, 0);
	if (!keep_addrs)
		d9_hmap_clear(&w->addrs);
	d9rec_set_meta(w, "segment.complete", "false");
	d9rec_seg_counters(w);
	d9rec_enc_clear(&w->aux);
	d9rec_enc_batch(&w->aux);
	clock_event(w, &w->aux);
	d9rec_seg_write(w, &w->aux, 0);
	d9rec_enc_clear(&w->aux);
	d9rec_seg_meta(w);
	return 0;
}

int
d9rec_seg_open(struct d9rec_writer *w)
{
	return seg_start(w, 0);
}

/* What a seal's metadata adds at most, for the size cap. */
#define SEAL_META_ROOM	4096

/* A segment without data is deleted, unless its metadata is the first
 * to hold the loss counters as they are now. The last one (final) has
 * no next segment to make room for: the cap is applied before its
 * metadata, which so counts every deletion; after any other seal the
 * next segment's metadata does. */
void
d9rec_seg_seal(struct d9rec_writer *w, int final)
{
	uint64_t written;

	if (w->fd < 0)
		return;
	if (!w->seg_data && loss_sum(w) == w->loss_sealed) {
		seg_close(w, UINT64_MAX);	/* deleted: nothing to plan */
		return;
	}
	d9rec_enc_clear(&w->tail);
	if (w->seg_data)
		d9rec_appendix(w, &w->tail, w->opt.symbols, final);
	d9rec_retain_plan(w, final ? 0 : w->opt.max_file_size,
	    w->tail.n + SEAL_META_ROOM);
	d9rec_set_meta(w, "segment.complete", "true");
	cost_meta(w);
	written = d9rec_seg_counters(w);
	d9rec_seg_meta(w);
	if (w->fd >= 0)
		d9rec_seg_write(w, &w->tail, 0);
	d9rec_enc_clear(&w->tail);
	if (w->fd >= 0)		/* else cut and closed */
		seg_close(w, written);
}

/* ---- compression (compress.c does the bytes) ---- */

int
d9rec_compress_file(struct d9rec_writer *w, uint32_t index)
{
	const char *ext = w->opt.compression == D9REC_COMPRESS_ZSTD ? ".zst" :
	    ".gz";
	char src[64], dst[64], tmp[80], sfx[16];
	int in, out, rc;
	struct stat sb;

	seg_name(src, sizeof src, index, "");
	seg_name(dst, sizeof dst, index, ext);
	snprintf(sfx, sizeof sfx, "%s.tmp", ext);
	tmp[0] = '.';
	seg_name(tmp + 1, sizeof tmp - 1, index, sfx);
	if ((in = openat(w->dirfd, src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -errno;
	if ((out = d9rec_fd_high(openat(w->dirfd, tmp, O_WRONLY | OFLAGS,
	    0600))) < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	rc = w->opt.compression == D9REC_COMPRESS_ZSTD ? d9rec_zstd_fd(in, out) :
	    w->opt.compression == D9REC_COMPRESS_GZIP_FAST ?
	    d9rec_gzip_fast_fd(in, out) : d9rec_gzip_fd(in, out);
	close(in);
	if (close(out) < 0)
		rc = -1;
	pthread_mutex_lock(&w->lock);
	if (rc == 0 && fstatat(w->dirfd, src, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	    renameat(w->dirfd, tmp, w->dirfd, dst) == 0)
		unlinkat(w->dirfd, src, 0);
	else
		unlinkat(w->dirfd, tmp, 0);
	pthread_mutex_unlock(&w->lock);
	return rc;
}

void *
d9rec_compress_main(void *arg)
{
	struct d9rec_writer *w = arg;
	uint32_t idx;

	d9rec_background("d9rec-compress");
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->cq_n == 0 && !w->flush_exited)
			pthread_cond_wait(&w->cq_cond, &w->lock);
		if (w->cq_n == 0)
			break;
		idx = w->cq[0];
		memmove(w->cq, w->cq + 1, --w->cq_n * sizeof *w->cq);
		pthread_mutex_unlock(&w->lock);
		d9rec_compress_file(w, idx);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}
