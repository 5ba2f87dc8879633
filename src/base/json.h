/*
 * json.h: a JSON reader. d9top reads back what it wrote (--json outputs
 * of earlier runs, for --diff, --check and --baseline). Strict RFC 8259
 * syntax; numbers are doubles; strings are decoded (\uXXXX to UTF-8,
 * surrogate pairs joined) and NUL-terminated; object members keep their
 * order.
 *
 * A document is one array of 32-bit words (a tape), sized exactly by a
 * first pass that only checks: a value takes one word (null, a boolean,
 * a small integer, an array or object, which holds its own size), three
 * (another number) or one plus its decoded bytes (a string), so the tape
 * is at most three times the text (and a word). The text is capped at
 * D9_JSON_MAX_TEXT bytes, the nesting at D9_JSON_DEPTH and the count of
 * values at D9_JSON_MAX_VALUES, so hostile input only fails.
 *
 * Values are read through the functions below; a pointer to a value
 * stays valid until the document is freed. The kids of an object are
 * its members: each a value that also has a key (d9_json_key).
 */
#ifndef D9_JSON_H
#define D9_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define D9_JSON_DEPTH		64
#define D9_JSON_MAX_TEXT	(64u << 20)	/* a --json output: far less */
#define D9_JSON_MAX_VALUES	(1u << 23)

enum d9_jtype { D9_JNULL, D9_JBOOL, D9_JNUM, D9_JSTR, D9_JARR, D9_JOBJ };

/* A word of the tape: only ever used through a pointer. */
struct d9_jval {
	uint32_t	 w;
};

struct d9_json {
	struct d9_jval		*tape;
	size_t			 n;	/* words */
	const struct d9_jval	*root;
};

/* 0, or -D9_ERR_BAD_VALUE / -D9_ERR_TOO_BIG (e: the byte offset and what
 * was expected) or -D9_ERR_NOMEM. The document must be freed either
 * way. */
int	d9_json_parse(struct d9_json *doc, const char *text, size_t len,
	    struct d9_err *e);
void	d9_json_free(struct d9_json *doc);

enum d9_jtype	 d9_json_type(const struct d9_jval *v);
/* A number (a boolean: 0 or 1); 0 for another type. */
double		 d9_json_num(const struct d9_jval *v);
/* A string, NUL-terminated (len, when not NULL: its bytes, as a \u0000
 * may be inside); NULL for another type. */
const char	*d9_json_str(const struct d9_jval *v, size_t *len);
/* A member's key; NULL for a value that is not a member of an object. */
const char	*d9_json_key(const struct d9_jval *v);
/* The items of an array or the members of an object: how many, the
 * i-th (NULL past the end), the one after kid (the first for NULL; NULL
 * after the last). 0 and NULL for another type. */
size_t		 d9_json_n(const struct d9_jval *v);
const struct d9_jval *d9_json_kid(const struct d9_jval *v, size_t i);
const struct d9_jval *d9_json_next(const struct d9_jval *v,
		    const struct d9_jval *kid);
/* The member of an object with this key, NULL (also for a non-object). */
const struct d9_jval *d9_json_member(const struct d9_jval *v, const char *key);
/* Whether text (its first byte that is not white space) opens a JSON
 * object: how a --json output is told from a trace, by content. */
int	d9_json_looks(const void *text, size_t len);

#endif
