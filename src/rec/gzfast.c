/*
 * gzfast.c: gzip in Huffman codes only, the default compression of
 * sealed segments (D9REC_COMPRESS_GZIP_FAST).
 *
 * A segment's bytes are coded as deflate literals, without looking for
 * repeated strings: each block of BLOCK input bytes gets its own
 * Huffman code, built from the block's byte counts. Finding repeats is
 * what costs a deflate compressor most of its time: on libd9rec's
 * segments (bench/rec/d9rec-gzip) this runs 2 to 2.3 times as fast as
 * libdeflate at level 1 (550 against 230 to 270 MB/s here) and makes
 * files 2 to 2.4 times smaller where deflate makes them 3.2 to 3.9. The
 * output is plain single-member gzip (RFC 1951 dynamic blocks, a stored
 * block where coding would not shrink the bytes), which every gzip
 * reader takes, dial9's included.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#ifdef D9REC_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "base/io.h"
#include "rec/rec.h"

#define CHUNK	((size_t)1 << 17)	/* input bytes read at once */
#define BLOCK	((size_t)1 << 15)	/* input bytes per deflate block */
#define NLIT	257			/* the byte values and end of block */
#define EOB	256
#define NCL	19			/* the code length code's symbols */
#define MAXBITS	15
#define MAXCL	7

_Static_assert(BLOCK < 65535, "a block's counts must fit 16 bits");

/* The output: bits are added from the low end of buf; after each
 * addition, the whole bytes among them are stored (eight bytes written,
 * the pointer moved by the whole ones: no branch), so fewer than 8 wait
 * and up to 56 can be added at once. The buffer has 8 bytes to spare. */
struct bits {
	uint8_t		*p;
	uint64_t	 buf;
	unsigned	 n;
};

static inline void
store64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
#endif
}

static inline void
put(struct bits *b, uint64_t v, unsigned n)
{
	b->buf |= v << b->n;
	b->n += n;
	store64(b->p, b->buf);
	b->p += b->n >> 3;
	b->buf >>= b->n & 56;
	b->n &= 7;
}

/* To a byte boundary. */
static void
align(struct bits *b)
{
	if (b->n > 0)
		put(b, 0, 8 - b->n);
}

struct sym {
	uint32_t	 freq;
	uint16_t	 sym;
};

/* s[0..k) by ascending freq (below 2^16), in two stable passes of a
 * byte each through tmp[]: no comparisons, a few microseconds a block
 * where qsort took a fifth of the compressor's time. */
static void
sort_syms(struct sym *s, struct sym *tmp, int k)
{
	struct sym *from = s, *to = tmp;

	for (int shift = 0; shift < 16; shift += 8) {
		unsigned pos[257] = { 0 };

		for (int i = 0; i < k; i++)
			pos[((from[i].freq >> shift) & 0xff) + 1]++;
		for (int d = 1; d < 257; d++)
			pos[d] += pos[d - 1];
		for (int i = 0; i < k; i++)
			to[pos[(from[i].freq >> shift) & 0xff]++] = from[i];
		from = to;
		to = to == tmp ? s : tmp;
	}
}

/* Code lengths of the n weights w[], sorted ascending, in place: the
 * minimum-redundancy lengths (Moffat and Katajainen's in-place method),
 * w[i] becoming the length of the i-th lightest symbol. n >= 2. */
static void
min_redundancy(uint32_t *w, int n)
{
	int root = 0, leaf = 2, next, avail, used, depth;

	w[0] += w[1];
	for (next = 1; next < n - 1; next++) {
		if (leaf >= n || w[root] < w[leaf]) {
			w[next] = w[root];
			w[root++] = (uint32_t)next;
		} else
			w[next] = w[leaf++];
		if (leaf >= n || (root < next && w[root] < w[leaf])) {
			w[next] += w[root];
			w[root++] = (uint32_t)next;
		} else
			w[next] += w[leaf++];
	}
	w[n - 2] = 0;
	for (next = n - 3; next >= 0; next--)
		w[next] = w[w[next]] + 1;
	avail = 1;
	used = depth = 0;
	root = n - 2;
	next = n - 1;
	while (avail > 0) {
		while (root >= 0 && (int)w[root] == depth) {
			used++;
			root--;
		}
		while (avail > used) {
			w[next--] = (uint32_t)depth;
			avail--;
		}
		avail = 2 * used;
		depth++;
		used = 0;
	}
}

/* Huffman code lengths (at most limit bits) of the n symbols counted in
 * freq[]; a complete code: a lone symbol is paired with another. */
static void
code_lengths(const uint32_t *freq, int n, unsigned limit, uint8_t *len)
{
	struct sym s[NLIT], tmp[NLIT];
	uint32_t w[NLIT];
	int k = 0, shift = 0, ok;

	memset(len, 0, (size_t)n);
	for (int i = 0; i < n; i++)
		if (freq[i] > 0)
			s[k++] = (struct sym){ freq[i], (uint16_t)i };
	if (k < 2) {
		len[k == 1 ? s[0].sym : 0] = 1;
		len[k == 1 && s[0].sym == 0 ? 1 : 0] = 1;
		return;
	}
	do {	/* flatter counts until the longest code fits */
		for (int i = 0; i < k; i++)
			s[i].freq = shift ? (freq[s[i].sym] >> shift) | 1 :
			    freq[s[i].sym];
		sort_syms(s, tmp, k);
		for (int i = 0; i < k; i++)
			w[i] = s[i].freq;
		min_redundancy(w, k);
		ok = w[0] <= limit;
		shift++;
	} while (!ok);
	for (int i = 0; i < k; i++)
		len[s[i].sym] = (uint8_t)w[i];
}

/* Canonical codes of the lengths, bit-reversed for the LSB-first
 * stream. */
static void
codes(const uint8_t *len, int n, uint16_t *code)
{
	uint16_t count[MAXBITS + 1] = { 0 }, next[MAXBITS + 1];
	unsigned c = 0;

	for (int i = 0; i < n; i++)
		count[len[i]]++;
	count[0] = 0;
	for (int b = 1; b <= MAXBITS; b++) {
		c = (c + count[b - 1]) << 1;
		next[b] = (uint16_t)c;
	}
	for (int i = 0; i < n; i++) {
		unsigned v = len[i] ? next[len[i]]++ : 0;

		v = (v >> 1 & 0x5555) | (v & 0x5555) << 1;	/* reversed */
		v = (v >> 2 & 0x3333) | (v & 0x3333) << 2;
		v = (v >> 4 & 0x0f0f) | (v & 0x0f0f) << 4;
		v = (v >> 8 & 0x00ff) | (v & 0x00ff) << 8;
		code[i] = (uint16_t)(len[i] ? v >> (16 - len[i]) : 0);
	}
}

/* The run-length coding of the code lengths (RFC 1951 3.2.7): symbols
 * into rl[] (the extra bits' value above bit 8); how many. */
static int
rle(const uint8_t *len, int n, uint16_t *rl)
{
	int k = 0;

	for (int i = 0; i < n; ) {
		int run = 1;

		while (i + run < n && len[i + run] == len[i])
			run++;
		i += run;
		if (len[i - run] == 0) {
			for (; run >= 11; run -= run > 138 ? 138 : run)
				rl[k++] = (uint16_t)(18 | ((run > 138 ? 138 :
				    run) - 11) << 8);
			if (run >= 3) {
				rl[k++] = (uint16_t)(17 | (run - 3) << 8);
				run = 0;
			}
		} else {
			rl[k++] = len[i - run];
			for (run--; run >= 3; run -= run > 6 ? 6 : run)
				rl[k++] = (uint16_t)(16 | ((run > 6 ? 6 :
				    run) - 3) << 8);
		}
		while (run-- > 0)
			rl[k++] = len[i - 1];
	}
	return k;
}

static const uint8_t cl_order[NCL] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

/* A stored block of in[0..n), n <= 65535. */
static void
stored(struct bits *b, const uint8_t *in, size_t n)
{
	put(b, 0, 3);		/* not final, stored */
	align(b);
	b->p[0] = (uint8_t)n;
	b->p[1] = (uint8_t)(n >> 8);
	b->p[2] = (uint8_t)~n;
	b->p[3] = (uint8_t)(~n >> 8);
	memcpy(b->p + 4, in, n);
	b->p += 4 + n;
}

/* The literals in[0..n) with the codes ent[] (the code, its length
 * above bit 16), three at a time (at most 45 bits), through a copy of
 * the output that stays in registers. */
static void
encode(struct bits *b, const uint32_t *ent, const uint8_t *in, size_t n)
{
	struct bits l = *b;
	size_t i = 0;

	for (; i + 3 <= n; i += 3) {
		uint32_t x = ent[in[i]], y = ent[in[i + 1]], z = ent[in[i + 2]];
		unsigned lx = x >> 16, ly = y >> 16;

		put(&l, (uint64_t)(x & 0xffff) | (uint64_t)(y & 0xffff) << lx |
		    (uint64_t)(z & 0xffff) << (lx + ly), lx + ly + (z >> 16));
	}
	for (; i < n; i++)
		put(&l, ent[in[i]] & 0xffff, ent[in[i]] >> 16);
	*b = l;
}

/* One block of in[0..n): a dynamic block of literals, or a stored one
 * when that is smaller. */
static void
block(struct bits *b, const uint8_t *in, size_t n)
{
	uint32_t f[4][256] = { { 0 } }, freq[NLIT], clf[NCL] = { 0 };
	uint8_t len[NLIT + 2], cll[NCL];
	uint16_t code[NLIT], clc[NCL], rl[NLIT + 2];
	uint32_t ent[NLIT];
	uint64_t cost = 0;
	size_t i = 0;
	int nrl, ncl = NCL;

	for (; i + 4 <= n; i += 4) {	/* four counts: no store stalls */
		f[0][in[i]]++;
		f[1][in[i + 1]]++;
		f[2][in[i + 2]]++;
		f[3][in[i + 3]]++;
	}
	for (; i < n; i++)
		f[0][in[i]]++;
	for (int s = 0; s < 256; s++)
		freq[s] = f[0][s] + f[1][s] + f[2][s] + f[3][s];
	freq[EOB] = 1;
	code_lengths(freq, NLIT, MAXBITS, len);
	len[NLIT] = len[NLIT + 1] = 1;	/* two unused distance codes */
	nrl = rle(len, NLIT + 2, rl);
	for (int k = 0; k < nrl; k++)
		clf[rl[k] & 0xff]++;
	code_lengths(clf, NCL, MAXCL, cll);
	codes(cll, NCL, clc);
	while (ncl > 4 && cll[cl_order[ncl - 1]] == 0)
		ncl--;
	for (int s = 0; s < NLIT; s++)
		cost += (uint64_t)freq[s] * len[s];
	if (cost / 8 + 300 >= n) {
		for (i = 0; i < n; i += 65535)
			stored(b, in + i, n - i < 65535 ? n - i : 65535);
		return;
	}
	codes(len, NLIT, code);
	put(b, 2 << 1, 3);		/* not final, dynamic */
	put(b, NLIT - 257, 5);
	put(b, 2 - 1, 5);
	put(b, (uint32_t)ncl - 4, 4);
	for (int k = 0; k < ncl; k++)
		put(b, cll[cl_order[k]], 3);
	for (int k = 0; k < nrl; k++) {
		unsigned s = rl[k] & 0xff, x = rl[k] >> 8;

		put(b, clc[s], cll[s]);
		if (s >= 16)
			put(b, x, s == 16 ? 2 : s == 17 ? 3 : 7);
	}
	for (int s = 0; s < NLIT; s++)
		ent[s] = code[s] | (uint32_t)len[s] << 16;
	encode(b, ent, in, n);
	put(b, code[EOB], len[EOB]);
}

static uint32_t
crc(uint32_t c, const uint8_t *p, size_t n)
{
#ifdef D9REC_LIBDEFLATE
	return libdeflate_crc32(c, p, n);
#else
	return (uint32_t)crc32(c, p, (uInt)n);
#endif
}

static void
le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int
d9rec_gzip_fast_fd(int in, int out)
{
	static const uint8_t head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	size_t cap = CHUNK + CHUNK / 64 + 4096;
	uint8_t *ib = malloc(CHUNK), *ob = malloc(cap);
	struct bits b = { ob, 0, 0 };
	uint32_t sum = 0, size = 0;
	ssize_t k = 0;
	int rc = ib != NULL && ob != NULL ? 0 : -1;

	if (rc == 0)
		rc = d9_write_all(out, head, sizeof head);
	while (rc == 0 && (k = d9_read_full(in, ib, CHUNK)) > 0) {
		sum = crc(sum, ib, (size_t)k);
		size += (uint32_t)k;
		for (size_t i = 0; i < (size_t)k; i += BLOCK)
			block(&b, ib + i, (size_t)k - i < BLOCK ?
			    (size_t)k - i : BLOCK);
		rc = d9_write_all(out, ob, (size_t)(b.p - ob));
		b.p = ob;
	}
	if (k < 0)
		rc = -1;
	if (rc == 0) {
		put(&b, 1 | 1 << 1, 3);	/* final, fixed codes: */
		put(&b, 0, 7);		/* end of block */
		align(&b);
		le32(b.p, sum);
		le32(b.p + 4, size);
		rc = d9_write_all(out, ob, (size_t)(b.p - ob) + 8);
	}
	free(ib);
	free(ob);
	return rc;
}
