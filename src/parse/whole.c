/*
 * whole.c: see whole.h. The compressed file is read with pread in
 * slices (a cancel is seen between them) and checked not to have changed
 * size; then member after member goes through
 * libdeflate_gzip_decompress_ex into the mapping, which starts at the
 * size the last member's ISIZE trailer gives (mod 2^32: a guess) and
 * doubles whenever libdeflate wants more room, up to the caps.
 *
 * Where libdeflate and zlib disagree: libdeflate skips a gzip header CRC
 * (FHCRC) unchecked, so a member with one is left to zlib.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(D9P_LIBDEFLATE)
#include <libdeflate.h>
#endif

#include "base/pages.h"
#include "base/wire.h"
#include "parse/whole.h"

#define READ_SLICE	(8u << 20)	/* pread at once */
#define OUT_FLOOR	(1u << 20)	/* decoded cap of a tiny file */
#define RELEASE_STEP	(4u << 20)	/* give pages back by this much, up
					 * to a huge page's boundary */
#define GZ_FHCRC	0x02
#define GZ_MIN_MEMBER	18		/* header, empty block, trailer */

/* Whether w's mapping goes back to its spares when freed. */
static int
kept(const struct d9p_whole *w)
{
	return w->home != NULL && w->released == 0 && w->map <= D9P_SPARE_BIG;
}

void
d9p_whole_free(struct d9p_whole *w)
{
	if (kept(w))
		d9p_spares_give(w->home, w->p, w->map);
	else if (w->p != NULL)
		munmap(w->p, w->map);
	memset(w, 0, sizeof *w);
}

void
d9p_whole_release(struct d9p_whole *w, size_t upto)
{
	/* whole 2 MiB pages only (hundreds of splits a directory) */
	if (w->p == NULL || kept(w) || upto < w->released + RELEASE_STEP)
		return;
	w->released = (size_t)((const uint8_t *)d9_pages_drop_whole(w->p +
	    w->released, upto - w->released) - w->p);
}

#if !defined(D9P_LIBDEFLATE)

int
d9p_whole_available(void)
{
	return 0;
}

enum d9p_whole_rc
d9p_whole_load(int fd, uint64_t limit, _Atomic int *cancel,
    struct d9p_spares *spares, struct d9p_whole *w)
{
	(void)fd;
	(void)limit;
	(void)cancel;
	(void)spares;
	memset(w, 0, sizeof *w);
	return D9P_WHOLE_STREAM;
}

#else

int
d9p_whole_available(void)
{
	return 1;
}

static size_t
page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (n + pg - 1) / pg * pg;
}

/* n rounded up to where a 2 MiB page of w's mapping ends: cutting one
 * splits it */
static size_t
huge_round(const struct d9p_whole *w, size_t n)
{
	uintptr_t end = (uintptr_t)w->p + n;

	return (size_t)((end + D9_PAGES_HUGE - 1) / D9_PAGES_HUGE *
	    D9_PAGES_HUGE - (uintptr_t)w->p);
}

static int
cancelled(_Atomic int *cancel)
{
	return cancel != NULL && atomic_load(cancel);
}

/* pread n bytes at off; 0, or -1 when the file ended early or failed. */
static int
read_at(int fd, uint8_t *p, size_t n, uint64_t off, _Atomic int *cancel)
{
	size_t got = 0;

	while (got < n) {
		size_t want = n - got < READ_SLICE ? n - got : READ_SLICE;
		ssize_t r;

		if (cancelled(cancel))
			return -1;
		r = pread(fd, p + got, want, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* Grow the mapping to at least want bytes, at most cap (a spare taken
 * may be larger already); -1 when it cannot. */
static int
grow(struct d9p_whole *w, size_t want, size_t cap)
{
	size_t n = w->map > 0 ? w->map : want;
	void *q;

	if (w->p != NULL && w->map >= want)
		return 0;
	while (n < want)
		n = n > cap / 2 ? cap : n * 2;
	n = page_round(n);
	if (n < want || n > page_round(cap))
		return -1;
	q = w->p == NULL ? mmap(NULL, n, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) :
	    mremap(w->p, w->map, n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return -1;
#ifdef MADV_HUGEPAGE
	/* 2 MiB pages where the kernel has them: a 10 MB segment faulted
	 * in 4 KiB at a time cost as much as a tenth of an export */
	madvise(q, n, MADV_HUGEPAGE);
#endif
	w->p = q;
	w->map = n;
	return 0;
}

/* A mapping from w's spares (if any) of about want bytes into w (none
 * held: w stays without one). */
static void
take_spare(struct d9p_whole *w, size_t want)
{
	if (w->home != NULL && w->p == NULL)
		(void)d9p_spares_take(w->home, want, &w->p, &w->map);
}

/*
 * The compressed file from offset off, size bytes, into in's mapping;
 * STREAM when it is not a gzip file or changed size, CANCEL, or OK.
 */
static enum d9p_whole_rc
read_input(int fd, uint64_t off, size_t size, _Atomic int *cancel,
    struct d9p_whole *in)
{
	struct stat sb;
	uint8_t magic[2], extra;

	if (pread(fd, magic, 2, (off_t)off) != 2 ||
	    magic[0] != D9_GZIP_MAGIC0 || magic[1] != D9_GZIP_MAGIC1)
		return D9P_WHOLE_STREAM;
	if (grow(in, size, size) < 0)
		return D9P_WHOLE_STREAM;
	in->n = size;
	if (read_at(fd, in->p, size, off, cancel) == 0 &&
	    pread(fd, &extra, 1, (off_t)(off + size)) == 0 &&
	    fstat(fd, &sb) == 0 && (uint64_t)sb.st_size == off + size)
		return D9P_WHOLE_OK;
	return cancelled(cancel) ? D9P_WHOLE_CANCEL : D9P_WHOLE_STREAM;
}

/* Every member of in[0, size) into w; OK, STREAM, BIG or CANCEL. */
static enum d9p_whole_rc
inflate_all(struct libdeflate_decompressor *d, const uint8_t *in, size_t size,
    size_t cap, _Atomic int *cancel, struct d9p_whole *w)
{
	size_t pos = 0, isize = (size_t)in[size - 4] | (size_t)in[size - 3] <<
	    8 | (size_t)in[size - 2] << 16 | (size_t)in[size - 1] << 24;

	take_spare(w, isize < cap ? isize : cap);
	if (grow(w, isize < cap ? (isize > 0 ? isize : 1) : cap, cap) < 0)
		return D9P_WHOLE_STREAM;
	while (pos < size) {
		size_t used = 0, out = 0, room = w->map < cap ? w->map : cap;
		enum libdeflate_result r;

		if (cancelled(cancel))
			return D9P_WHOLE_CANCEL;
		/* raw bytes or a zstd frame next: zlib's path mixes them */
		if (size - pos < GZ_MIN_MEMBER || in[pos] != D9_GZIP_MAGIC0 ||
		    in[pos + 1] != D9_GZIP_MAGIC1 || (in[pos + 3] & GZ_FHCRC))
			return D9P_WHOLE_STREAM;
		/* a spare may be larger than the caps allow */
		r = libdeflate_gzip_decompress_ex(d, in + pos, size - pos,
		    w->p + w->n, room - w->n, &used, &out);
		if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
			if (room >= cap)
				return D9P_WHOLE_BIG;
			if (grow(w, w->map + 1, cap) < 0)
				return D9P_WHOLE_STREAM;
			continue;	/* this member again, with room */
		}
		if (r != LIBDEFLATE_SUCCESS || used == 0)
			return D9P_WHOLE_STREAM;
		pos += used;
		w->n += out;
	}
	return D9P_WHOLE_OK;
}

/* The decoded bytes the caps allow for size compressed ones. */
static size_t
out_cap(size_t size, uint64_t limit)
{
	uint64_t cap = (uint64_t)size * D9P_WHOLE_RATIO;

	if (cap < OUT_FLOOR)
		cap = OUT_FLOOR;
	if (cap > D9P_WHOLE_OUT_MAX)
		cap = D9P_WHOLE_OUT_MAX;
	if (limit != 0 && cap > limit - size)
		cap = limit - size;
	return cap > SIZE_MAX / 4 ? SIZE_MAX / 4 : (size_t)cap;
}

enum d9p_whole_rc
d9p_whole_load(int fd, uint64_t limit, _Atomic int *cancel,
    struct d9p_spares *spares, struct d9p_whole *w)
{
	struct libdeflate_decompressor *d;
	struct d9p_whole in = { .home = spares };
	enum d9p_whole_rc rc;
	struct stat sb;
	off_t off;
	size_t size;

	memset(w, 0, sizeof *w);
	w->home = spares;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    (off = lseek(fd, 0, SEEK_CUR)) < 0 || sb.st_size < off)
		return D9P_WHOLE_STREAM;
	if ((uint64_t)(sb.st_size - off) > D9P_WHOLE_IN_MAX ||
	    (uint64_t)(sb.st_size - off) < GZ_MIN_MEMBER)
		return D9P_WHOLE_STREAM;
	size = (size_t)(sb.st_size - off);
	if (limit != 0 && size + OUT_FLOOR / 16 > limit)
		return D9P_WHOLE_BIG;
	take_spare(&in, size);
	if ((rc = read_input(fd, (uint64_t)off, size, cancel, &in)) !=
	    D9P_WHOLE_OK) {
		d9p_whole_free(&in);
		return rc;
	}
	if ((d = libdeflate_alloc_decompressor()) == NULL)
		rc = D9P_WHOLE_STREAM;
	else
		rc = inflate_all(d, in.p, size, out_cap(size, limit), cancel,
		    w);
	libdeflate_free_decompressor(d);
	d9p_whole_free(&in);
	w->csize = size;
	if (rc == D9P_WHOLE_BIG && out_cap(size, 0) == out_cap(size, limit))
		rc = D9P_WHOLE_STREAM;	/* the caps, not the limit */
	if (rc != D9P_WHOLE_OK)
		d9p_whole_free(w);
	else if (w->home == NULL && huge_round(w, w->n) < w->map) {
		/* the slack goes (a spare's stays, to be filled again) */
		size_t keep = w->n > 0 ? huge_round(w, w->n) : w->map;
		void *q = mremap(w->p, w->map, keep, 0);

		if (q != MAP_FAILED)
			w->map = keep;
	}
	return rc;
}

#endif
