/*
 * json.h: a JSON reader. d9top reads back what it wrote (--json outputs
 * of earlier runs, for --diff, --check and --baseline), so a whole
 * document becomes a tree of values held in one arena. Strict RFC 8259
 * syntax; numbers are doubles; strings are decoded (\uXXXX to UTF-8,
 * surrogate pairs joined) and NUL-terminated; object members keep their
 * order. Nesting is capped, so hostile input only fails.
 */
#ifndef D9_JSON_H
#define D9_JSON_H

#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"

#define D9_JSON_DEPTH	64

enum d9_jtype { D9_JNULL, D9_JBOOL, D9_JNUM, D9_JSTR, D9_JARR, D9_JOBJ };

struct d9_jval {
	enum d9_jtype	 type;
	double		 num;		/* NUM; BOOL: 0 or 1 */
	const char	*str;		/* STR: decoded, NUL-terminated */
	size_t		 len;		/* STR: bytes (a \u0000 may be inside) */
	const char	*key;		/* a member of an object: its key */
	struct d9_jval	*kids;		/* ARR items, OBJ members */
	size_t		 n;
};

struct d9_json {
	struct d9_arena	 arena;
	struct d9_jval	*root;
};

/* 0, or -D9_ERR_BAD_VALUE (e: the byte offset and what was expected) or
 * -D9_ERR_NOMEM. The document must be freed either way. */
int	d9_json_parse(struct d9_json *doc, const char *text, size_t len,
	    struct d9_err *e);
void	d9_json_free(struct d9_json *doc);
/* The member of an object with this key, NULL (also for a non-object). */
const struct d9_jval *d9_json_member(const struct d9_jval *v, const char *key);
/* Whether text (its first byte that is not white space) opens a JSON
 * object: how a --json output is told from a trace, by content. */
int	d9_json_looks(const void *text, size_t len);

#endif
