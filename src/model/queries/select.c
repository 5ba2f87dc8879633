/*
 * select.c: see select.h. A first pass counts the values and finds the
 * largest; then one pass per 16-bit digit, from the highest digit the
 * largest has down to the lowest: the values whose digits above agree
 * with a rank's prefix are counted by their digit here, and the bucket
 * where the rank falls becomes the prefix's next digit. The first pass
 * also counts every value by its digit at 16 (bits 16 to 31): when the
 * largest is below 2^32 (delays and durations in ns, up to 4 s), that
 * was the highest digit's pass, and one more (the lowest digit) ends
 * the selection. Up to FEW values are copied and selected instead (512
 * KiB at most), without the first pass when the source knows how many
 * it has.
 */
#include <stdlib.h>
#include <string.h>

#include "model/core/table.h"
#include "model/queries/select.h"

#define CHUNK	4096
#define DIGIT	16
#define BUCKETS	(1u << DIGIT)
#define FEW	((size_t)1 << 16)	/* selected in a copy */

/* Count each value of src into hist[r] whose digits above shift are
 * prefix[r] (the two ranks share one count when their prefixes agree). */
static void
count_digit(const struct d9m_values *src, uint64_t *buf, unsigned shift,
    const uint64_t prefix[2], uint32_t *hist[2])
{
	int two = prefix[0] != prefix[1];
	size_t cur = 0, n;

	while ((n = src->fill(src->ctx, &cur, buf, CHUNK)) > 0)
		for (size_t i = 0; i < n; i++) {
			uint64_t v = buf[i];
			uint64_t hi = shift + DIGIT >= 64 ? 0 :
			    v >> (shift + DIGIT);
			unsigned d = (unsigned)(v >> shift) & (BUCKETS - 1);

			if (hi == prefix[0])
				hist[0][d]++;
			if (two && hi == prefix[1])
				hist[1][d]++;
		}
	if (!two)
		memcpy(hist[1], hist[0], BUCKETS * sizeof *hist[1]);
}

/* The bucket of hist where rank *k falls; *k becomes its rank there. */
static unsigned
digit_of(const uint32_t *hist, uint64_t *k)
{
	uint64_t below = 0;
	unsigned d = 0;

	while (d + 1 < BUCKETS && below + hist[d] <= *k)
		below += hist[d++];
	*k -= below;
	return d;
}

/* Few values (out->count): copied and selected (d9m_pct_of), faster
 * than passes. */
static int
few(const struct d9m_values *src, struct d9m_pct *out)
{
	size_t n = out->count, cur = 0, got = 0, k;
	uint64_t *v = malloc(n * sizeof *v);

	if (v == NULL)
		return -1;
	while (got < n && (k = src->fill(src->ctx, &cur, v + got,
	    n - got)) > 0)
		got += k;
	d9m_pct_of(v, got, out);
	free(v);
	return 0;
}

/* The first pass: out->count and out->max, and each value counted by
 * its digit at DIGIT into hist (meant for values below 2^32; the
 * counts of larger ones are not used). */
static void
first_pass(const struct d9m_values *src, uint64_t *buf, uint32_t *hist,
    struct d9m_pct *out)
{
	size_t cur = 0, n;
	uint64_t max = 0;

	while ((n = src->fill(src->ctx, &cur, buf, CHUNK)) > 0) {
		for (size_t i = 0; i < n; i++) {
			max = buf[i] > max ? buf[i] : max;
			hist[(uint32_t)buf[i] >> DIGIT]++;
		}
		out->count += n;
	}
	out->max = max;
}

int
d9m_pct_pass(const struct d9m_values *src, struct d9m_pct *out)
{
	uint64_t *buf, prefix[2] = { 0, 0 };
	uint64_t k[2];
	uint32_t *hist[2];
	unsigned top = 0;

	memset(out, 0, sizeof *out);
	if (src->n > 0 && src->n <= FEW) {
		out->count = src->n;
		return few(src, out);
	}
	buf = malloc(CHUNK * sizeof *buf);
	hist[0] = calloc(2 * BUCKETS, sizeof *hist[0]);
	if (buf == NULL || hist[0] == NULL) {
		free(buf);
		free(hist[0]);
		return -1;
	}
	hist[1] = hist[0] + BUCKETS;
	first_pass(src, buf, hist[0], out);
	if (out->count <= FEW) {
		free(buf);
		free(hist[0]);
		return out->count == 0 ? 0 : few(src, out);
	}
	k[0] = d9m_rank(out->count, 99) - 1;
	k[1] = d9m_rank(out->count, 50) - 1;
	while (top + DIGIT < 64 && out->max >> (top + DIGIT) != 0)
		top += DIGIT;
	if (top == DIGIT) {
		/* below 2^32: the first pass counted the highest digit,
		 * where both ranks' prefixes are still empty */
		for (int r = 0; r < 2; r++)
			prefix[r] = digit_of(hist[0], &k[r]);
		top = 0;
	}
	for (int shift = (int)top; shift >= 0; shift -= DIGIT) {
		memset(hist[0], 0, 2 * BUCKETS * sizeof *hist[0]);
		count_digit(src, buf, (unsigned)shift, prefix, hist);
		for (int r = 0; r < 2; r++)
			prefix[r] = prefix[r] << DIGIT | digit_of(hist[r],
			    &k[r]);
	}
	out->p99 = prefix[0];
	out->p50 = prefix[1];
	free(hist[0]);
	free(buf);
	return 0;
}

size_t
d9m_rank(size_t n, unsigned p)
{
	/* p % of n rounded to the nearest rank, at least 1: the rank
	 * HdrHistogram (and so dial9's report) uses; the value returned is
	 * the exact sample, not a bucket bound */
	size_t r = (n * p + 50) / 100;

	return r < 1 ? 1 : r > n ? n : r;
}

void
d9m_pct_of(uint64_t *v, size_t n, struct d9m_pct *out)
{
	size_t k99 = d9m_rank(n, 99) - 1;

	memset(out, 0, sizeof *out);
	out->count = n;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		out->max = v[i] > out->max ? v[i] : out->max;
	/* the ranks alone, not a sort: p50's is among those below p99's */
	out->p99 = d9m_nth_u64(v, n, k99);
	out->p50 = d9m_nth_u64(v, k99 + 1, d9m_rank(n, 50) - 1);
}
