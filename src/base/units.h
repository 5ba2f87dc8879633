/*
 * units.h: the one duration and the one byte formatter of every output
 * (the report, --diff, --check, the browser, the loss line): durations
 * the way dial9 prints them, bytes in powers of 1000 spelled B, kB, MB,
 * GB, TB (the browser's spelling; --check reads KB as well).
 */
#ifndef D9_UNITS_H
#define D9_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* x.xxs, x.xxms, x.xus ("µs" when utf8) or Nns; buf returned. */
const char	*d9_fmt_dur(char *buf, size_t len, uint64_t ns, int utf8);
/* "512 B", "1.5 kB", "12.3 MB" ... (b may be < 0: a change); the unit
 * moves up where the figure would round to 1000.0. buf returned. */
const char	*d9_fmt_bytes(char *buf, size_t len, double b);
/* The same in powers of 1024 ("1.5 GiB"), as --memory takes sizes: the
 * memory d9top holds and may use. */
const char	*d9_fmt_ibytes(char *buf, size_t len, double b);
/* A size as a user writes one: digits (a fraction too: "1.5G"), then
 * K, M, G or T (powers of 1024, either case, "KiB" and "KB" too) or
 * nothing (bytes). 0 and *out, or -1 when s is not one or overflows. */
int		 d9_parse_size(const char *s, uint64_t *out);
/* A duration as a user writes one: a number (a fraction, an exponent),
 * then ns, us (or \xc2\xb5s), ms or s, or no unit (then unit_ns: 1e6 takes
 * it as ms); spaces may stand around the unit. 0 and *ns (negative or
 * infinite as written: the caller bounds it), or -1 when s is not one
 * (no number, NaN, another unit). */
int		 d9_parse_dur(const char *s, double unit_ns, double *ns);

#endif
