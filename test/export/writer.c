/*
 * writer.c: writes test/export's round-trip file: every kind and shape
 * of src/export/pqwriter.h, nulls, empty lists and maps, three row
 * groups, several pages, a dictionary that overflows into PLAIN. Row i
 * is a formula of i that writer.mjs computes again to compare every
 * value each reader gives back.
 *
 * Usage: test-export-writer FILE [ROWS]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/pqwriter.h"

static const struct d9x_field fields[] = {
	{ "b", D9X_BOOL, D9X_REQ },
	{ "u8", D9X_U8, D9X_OPT },
	{ "u32", D9X_U32, D9X_REQ },
	{ "i64", D9X_I64, D9X_REQ },
	{ "u64", D9X_U64, D9X_OPT },
	{ "d", D9X_DOUBLE, D9X_REQ },
	{ "s", D9X_STRING, D9X_OPT },
	{ "uniq", D9X_STRING, D9X_REQ },
	{ "id", D9X_ID16, D9X_REQ },
	{ "frames", D9X_STRING, D9X_LIST },
	{ "fields", D9X_STRING, D9X_MAP },
};
enum { F_B, F_U8, F_U32, F_I64, F_U64, F_D, F_S, F_UNIQ, F_ID, F_FRAMES,
	F_FIELDS, NF };

static void
row(struct d9x_pq *w, uint64_t i)
{
	char s[64], k[32];
	uint8_t id[16];

	d9x_pq_int(w, F_B, i % 3 == 0);
	if (i % 7 == 0)
		d9x_pq_null(w, F_U8);
	else
		d9x_pq_int(w, F_U8, i % 256);
	d9x_pq_int(w, F_U32, 4000000000u + i);
	d9x_pq_int(w, F_I64, (uint64_t)(((int64_t)i - 150000) * 1000000007));
	if (i % 5 == 0)
		d9x_pq_null(w, F_U64);
	else
		d9x_pq_int(w, F_U64, (1ull << 63) + i);
	d9x_pq_dbl(w, F_D, (double)i / 4);
	if (i % 11 == 0)
		d9x_pq_null(w, F_S);
	else {
		snprintf(s, sizeof s, "loc-%u", (unsigned)(i % 100));
		d9x_pq_str(w, F_S, s, strlen(s));
	}
	snprintf(s, sizeof s, "u%llu", (unsigned long long)i);
	d9x_pq_str(w, F_UNIQ, s, strlen(s));
	for (int b = 0; b < 16; b++)
		id[b] = (uint8_t)((i % 1000) + (uint64_t)b * 7);
	d9x_pq_str(w, F_ID, id, 16);
	d9x_pq_begin(w, F_FRAMES);
	for (uint64_t f = 0; f < i % 4; f++) {
		snprintf(s, sizeof s, "f%u_%u", (unsigned)(i % 13),
		    (unsigned)f);
		d9x_pq_str(w, F_FRAMES, s, strlen(s));
	}
	d9x_pq_end(w, F_FRAMES);
	d9x_pq_begin(w, F_FIELDS);
	for (uint64_t f = 0; f < i % 3; f++) {
		snprintf(k, sizeof k, "k%u", (unsigned)f);
		snprintf(s, sizeof s, "v%llu", (unsigned long long)(i * f));
		d9x_pq_entry(w, F_FIELDS, k, strlen(k), s, strlen(s));
	}
	d9x_pq_end(w, F_FIELDS);
}

int
main(int argc, char **argv)
{
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 300000;
	struct d9x_pq *w;
	struct d9_err e;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: test-export-writer FILE [ROWS]\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || d9x_pq_open(&w, fd, fields, NF, 0, &e) < 0) {
		perror(argv[1]);
		return 1;
	}
	for (uint64_t i = 0; i < n; i++)
		if ((row(w, i), d9x_pq_row(w)) < 0)
			break;
	if (d9x_pq_close(&w, &e) < 0 || close(fd) < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], e.msg);
		return 1;
	}
	return 0;
}
