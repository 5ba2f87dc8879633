/* units.c: see units.h. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

const char *
d9_fmt_dur(char *buf, size_t len, uint64_t ns, int utf8)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.2fms", (double)ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%.1f%s", (double)ns / 1e3,
		    utf8 ? "\xc2\xb5s" : "us");
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	return buf;
}

/* b in units of base (1000 or 1024), up to the fourth: "512 B", then
 * one decimal; the unit moves up where the figure would round to base. */
static const char *
fmt_scaled(char *buf, size_t len, double b, double base,
    const char *const unit[4])
{
	double v = b / base, a = b < 0 ? -b : b;
	size_t u = 0;

	if (a < base - 0.5) {
		snprintf(buf, len, "%.0f B", b);
		return buf;
	}
	while ((v < 0 ? -v : v) >= base - 0.05 && u + 1 < 4) {
		v /= base;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

const char *
d9_fmt_bytes(char *buf, size_t len, double b)
{
	static const char *const unit[] = { "kB", "MB", "GB", "TB" };

	return fmt_scaled(buf, len, b, 1e3, unit);
}

const char *
d9_fmt_ibytes(char *buf, size_t len, double b)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };

	return fmt_scaled(buf, len, b, 1024, unit);
}

int
d9_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	const char *u;
	uint64_t n = 0, frac = 0, scale = 1;
	unsigned shift = 0;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {	/* "1.5G": up to 6 decimals count */
		if (s[1] < '0' || s[1] > '9')
			return -1;
		for (s++; *s >= '0' && *s <= '9'; s++)
			if (scale < 1000000) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				scale *= 10;
			}
	}
	if ((*s & ~0x20) != '\0' && (u = strchr(units, *s & ~0x20)) != NULL) {
		shift = 10 * (unsigned)(u - units + 1);
		s++;
		if (*s == 'i' && s[1] == 'B')
			s += 2;
		else if (*s == 'B' || *s == 'b')
			s++;
	}
	if (*s != '\0' || n > UINT64_MAX >> shift)
		return -1;
	/* frac / scale of a unit: below 2^40 * 10^6, no overflow */
	*out = (n << shift) + (frac << shift) / scale;
	return *out < (n << shift) ? -1 : 0;
}

int
d9_parse_dur(const char *s, double unit_ns, double *ns)
{
	static const struct { const char *u; double f; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 },
		{ "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	size_t len;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	v = strtod(s, &end);
	/* a decimal number only: not strtod's "inf", "nan" or hexadecimal */
	if (end == s || strspn(s, "0123456789.eE+-") < (size_t)(end - s) ||
	    isnan(v))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	len = strlen(end);
	while (len > 0 && isspace((unsigned char)end[len - 1]))
		len--;
	if (len == 0) {
		*ns = v * unit_ns;
		return 0;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strlen(units[i].u) == len &&
		    memcmp(end, units[i].u, len) == 0) {
			*ns = v * units[i].f;
			return 0;
		}
	return -1;
}
