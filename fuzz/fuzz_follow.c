/*
 * fuzz_follow.c: the same bytes give the same answer whether they are
 * read at once or followed while they are written (DESIGN.md; ANALYSIS
 * 23). The input is
 *
 *	byte 0		the number of pieces, 1 + (byte 0 modulo 8), and
 *			how the segment arrives (bit 3): 0 as a recorder
 *			writes it, 1 copied in (below)
 *	next ones	where each piece ends after the first: a byte each,
 *			its fraction (of 256) of the trace's length
 *	the rest	one segment file (any bytes: raw, gzip, zstd)
 *
 * The segment is written piece by piece as DIR/seg.bin.active, the
 * model following it (d9m_model_follow); after each piece a copy of what
 * it holds is finished and dropped, as the browser's --follow shows it
 * (src/tui/loader.c: the model that loads is never finished itself).
 * Then it is sealed (renamed seg.bin), followed once more and finished.
 * Copied in, it is written piece by piece as DIR/seg.bin, its final
 * name, into a directory followed while it was empty (cp, scp), then
 * followed until it settles (D9P_FOLLOW_QUIET polls with no growth).
 * Its --json must equal, byte for byte, the --json of DIR read afresh
 * (but for the file's name in the messages said while it was
 * seg.bin.active): a difference aborts, with where they part, as does a
 * crash, an access out of bounds or a hang.
 *
 * The first piece holds the first 4 bytes at least (a recorder writes
 * its header at once). A segment that holds a gzip member or a zstd
 * frame is written at once: an .active segment is never compressed
 * (FORMAT 1.4), and where the decompressor finds damage in a member
 * depends on how much of it it was given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/wire.h"
#include "model/core/model.h"
#include "parse/follow.h"
#include "render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define D9F_PIECES	8

/* Whether t[0 .. n) holds the start of a gzip member or a zstd frame. */
static int
compressed(const uint8_t *t, size_t n)
{
	static const uint8_t gz[] = { D9_GZIP_MAGIC0, D9_GZIP_MAGIC1 },
	    zs[] = { D9_ZSTD_MAGIC & 0xff, D9_ZSTD_MAGIC >> 8 & 0xff,
	    D9_ZSTD_MAGIC >> 16 & 0xff, D9_ZSTD_MAGIC >> 24 };

	return memmem(t, n, gz, sizeof gz) != NULL ||
	    memmem(t, n, zs, sizeof zs) != NULL;
}

/* Append p[0 .. n) to path: 0, or -1. */
static int
append(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "ab");
	int rc;

	if (f == NULL)
		return -1;
	rc = fwrite(p, 1, n, f) == n ? 0 : -1;
	return fclose(f) != 0 ? -1 : rc;
}

/* Follow dir's segment written in pieces: the model, finished, with
 * what followed it; NULL when it read nothing. */
static struct d9m_model *
followed(const char *dir, const uint8_t *t, size_t n, const size_t *cut,
    size_t ncut, int copied)
{
	const char *paths[] = { dir };
	char active[4200], sealed[4200];
	struct d9p_read_stats st;
	struct d9p_follow *f;
	struct d9m_model *m, *snap;
	size_t at = 0;

	snprintf(active, sizeof active, "%s/seg.bin.active", dir);
	snprintf(sealed, sizeof sealed, "%s/seg.bin", dir);
	if ((m = d9m_model_new()) == NULL ||
	    (f = d9p_follow_new(paths, 1)) == NULL)
		abort();
	memset(&st, 0, sizeof st);
	if (copied && d9m_model_follow(m, f, NULL, &st) < 0)
		abort();	/* the directory, empty */
	for (size_t i = 0; i <= ncut; i++) {
		size_t end = i < ncut ? cut[i] : n;

		if (append(copied ? sealed : active, t + at, end - at) != 0)
			abort();
		at = end;
		if (d9m_model_follow(m, f, NULL, &st) < 0 ||
		    (snap = d9m_model_snapshot(m)) == NULL ||
		    d9m_model_finish(snap) < 0)
			abort();	/* out of memory, on a few KiB */
		d9m_model_free(&snap);
	}
	if (!copied && rename(active, sealed) != 0)
		abort();
	for (int i = 0; i < (copied ? D9P_FOLLOW_QUIET : 1); i++)
		if (d9m_model_follow(m, f, NULL, &st) < 0)
			abort();
	if (d9m_model_finish(m) < 0)
		abort();
	d9p_follow_free(&f);
	if (st.read_ok == 0) {
		d9m_model_free(&m);
		return NULL;
	}
	return m;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz_follow-XXXXXX", path[4200], sealed[4200];
	size_t cut[D9F_PIECES], ncut, n;
	const uint8_t *t;
	struct d9m_model *a, *b;

	if (size < 1)
		return 0;
	ncut = data[0] % D9F_PIECES;
	if (size < 1 + ncut)
		return 0;
	t = data + 1 + ncut;
	n = size - 1 - ncut;
	if (compressed(t, n))
		ncut = 0;
	for (size_t i = 0; i < ncut; i++) {	/* ascending ends */
		cut[i] = n * data[1 + i] / 256;
		if (cut[i] < 4)
			cut[i] = n < 4 ? n : 4;
		if (i > 0 && cut[i] < cut[i - 1])
			cut[i] = cut[i - 1];
	}
	if (mkdtemp(dir) == NULL)
		abort();
	a = followed(dir, t, n, cut, ncut, data[0] >> 3 & 1);
	b = t_read(dir);
	if ((a == NULL) != (b == NULL)) {
		fprintf(stderr, "fuzz_follow: %s read nothing, the other did\n",
		    a == NULL ? "following" : "the fresh read");
		abort();
	}
	if (a != NULL) {
		char *ja, *jb = t_json(b, dir), *tmp = t_json(a, dir);

		snprintf(path, sizeof path, "%s/seg.bin.active", dir);
		snprintf(sealed, sizeof sealed, "%s/seg.bin", dir);
		ja = t_renamed(tmp, path, sealed);
		free(tmp);
		if (strcmp(ja, jb) != 0) {
			t_say_diff("fuzz_follow: followed and fresh --json",
			    "followed", ja, "fresh   ", jb);
			abort();
		}
		free(ja);
		free(jb);
	}
	d9m_model_free(&a);
	d9m_model_free(&b);
	snprintf(path, sizeof path, "%s/seg.bin", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}
