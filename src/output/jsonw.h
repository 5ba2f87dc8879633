/*
 * jsonw.h: a streaming JSON writer that tracks commas and indentation.
 * Strings are escaped with d9_text_put_json (controls never leak).
 */
#ifndef D9O_JSONW_H
#define D9O_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define D9O_JSON_DEPTH 32

struct d9o_jw {
	FILE	*f;
	int	 depth;
	int	 count[D9O_JSON_DEPTH];	/* items written at each depth */
	int	 after_key;
	int	 flat;		/* > 0: what is this deep is on one line */
};

void	d9o_jw_init(struct d9o_jw *w, FILE *f);
void	d9o_jw_obj(struct d9o_jw *w);
void	d9o_jw_arr(struct d9o_jw *w);
void	d9o_jw_end(struct d9o_jw *w, char close);	/* '}' or ']' */
void	d9o_jw_key(struct d9o_jw *w, const char *k);
void	d9o_jw_str(struct d9o_jw *w, const char *s);
void	d9o_jw_strn(struct d9o_jw *w, const char *s, size_t n);
void	d9o_jw_u64(struct d9o_jw *w, uint64_t v);
void	d9o_jw_i64(struct d9o_jw *w, int64_t v);
void	d9o_jw_dbl(struct d9o_jw *w, double v);
/* v thousandths, written with three decimals (ns as microseconds). */
void	d9o_jw_milli(struct d9o_jw *w, uint64_t v);
void	d9o_jw_bool(struct d9o_jw *w, int v);
void	d9o_jw_null(struct d9o_jw *w);
/* key + value shorthands */
void	d9o_jw_kstr(struct d9o_jw *w, const char *k, const char *s);
void	d9o_jw_ku64(struct d9o_jw *w, const char *k, uint64_t v);
void	d9o_jw_kdbl(struct d9o_jw *w, const char *k, double v);
/* Open an object with p's percentiles (count too with with_count), null
 * when it counts nothing; the caller adds keys and ends it. */
struct d9m_pct;
void	d9o_jw_pct(struct d9o_jw *w, const struct d9m_pct *p, int with_count);

#endif
