/*
 * inflate.h: how fast a gzip file decompresses in memory, two ways, in
 * MB/s of output: zlib streaming into 256 KiB chunks, member after member
 * (what parse/input.c does), and libdeflate into one buffer sized from
 * the ISIZE trailer (what parse/whole.c does). Printed as
 * inflate_zlib_mb_s, inflate_libdeflate_mb_s and their ratio.
 */
#ifndef D9_BENCH_INFLATE_H
#define D9_BENCH_INFLATE_H

/* Best of runs each; prints the figures, or why there are none. */
void	bench_inflate(const char *path, int runs);

#endif
