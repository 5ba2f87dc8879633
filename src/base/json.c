/*
 * json.c: see json.h. A recursive descent over the text; each array or
 * object collects its values in a growing scratch vector and moves them
 * into the document's arena when it closes, so the tree is one block
 * per container and is freed with the arena.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"
#include "base/vec.h"

struct jp {
	const char	*s;
	size_t		 i, n;
	int		 depth;
	struct d9_arena	*arena;
	struct d9_err	*e;
};

static int value(struct jp *p, struct d9_jval *out);

static int
fail(struct jp *p, const char *what)
{
	if (p->i >= p->n)
		return d9_err_set(p->e, D9_ERR_BAD_VALUE, p->i,
		    "JSON: %s, found the end", what);
	return d9_err_set(p->e, D9_ERR_BAD_VALUE, p->i, "JSON: %s, found "
	    "'%c'", what, (unsigned char)p->s[p->i] >= 0x20 &&
	    (unsigned char)p->s[p->i] < 0x7f ? p->s[p->i] : '?');
}

static void
blank(struct jp *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
	    p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static int
word(struct jp *p, const char *w, struct d9_jval *out, enum d9_jtype t,
    double num)
{
	size_t k = strlen(w);

	if (p->n - p->i < k || memcmp(p->s + p->i, w, k) != 0)
		return fail(p, "expected a value");
	p->i += k;
	out->type = t;
	out->num = num;
	return 0;
}

static int
hex4(struct jp *p, unsigned *u)
{
	*u = 0;
	if (p->n - p->i < 4)
		return fail(p, "expected four hex digits");
	for (int k = 0; k < 4; k++) {
		char c = p->s[p->i + (size_t)k];

		*u <<= 4;
		if (c >= '0' && c <= '9')
			*u |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*u |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*u |= (unsigned)(c - 'A' + 10);
		else
			return fail(p, "expected four hex digits");
	}
	p->i += 4;
	return 0;
}

/* An escape after the backslash at p->i - 1, appended at o. */
static int
escape(struct jp *p, char *o, size_t *k)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at;
	unsigned cp, lo;

	if (p->i >= p->n)
		return fail(p, "expected an escape");
	if (p->s[p->i] != 'u') {
		if ((at = memchr(from, p->s[p->i], sizeof from - 1)) == NULL)
			return fail(p, "expected an escape");
		o[(*k)++] = to[at - from];
		p->i++;
		return 0;
	}
	p->i++;
	if (hex4(p, &cp) < 0)
		return -D9_ERR_BAD_VALUE;
	if (cp >= 0xd800 && cp < 0xdc00 && p->n - p->i >= 6 &&
	    p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
		size_t back = p->i;

		p->i += 2;
		if (hex4(p, &lo) < 0)
			return -D9_ERR_BAD_VALUE;
		if (lo >= 0xdc00 && lo < 0xe000)
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		else
			p->i = back;
	}
	if (cp >= 0xd800 && cp < 0xe000)
		cp = 0xfffd;	/* a lone surrogate */
	*k += d9_text_utf8_put(o + *k, cp);
	return 0;
}

static int
string(struct jp *p, const char **out, size_t *len)
{
	size_t start = ++p->i, k = 0;
	char *o;

	/* decoding never makes a string longer than its literal */
	while (p->i < p->n && p->s[p->i] != '"')
		p->i += p->s[p->i] == '\\' ? 2 : 1;
	if (p->i >= p->n)
		return fail(p, "expected the end of a string");
	if ((o = d9_arena_alloc(p->arena, p->i - start + 1, 1)) == NULL)
		return d9_err_set(p->e, D9_ERR_NOMEM, p->i, "out of memory");
	for (p->i = start; p->s[p->i] != '"'; ) {
		unsigned char c = (unsigned char)p->s[p->i];

		if (c < 0x20)
			return fail(p, "expected no control character in a "
			    "string");
		p->i++;
		if (c != '\\')
			o[k++] = (char)c;
		else if (escape(p, o, &k) < 0)
			return -D9_ERR_BAD_VALUE;
	}
	p->i++;
	o[k] = '\0';
	*out = o;
	*len = k;
	return 0;
}

static size_t
digits(struct jp *p)
{
	size_t k = 0;

	while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
		p->i++;
		k++;
	}
	return k;
}

static int
number(struct jp *p, struct d9_jval *out)
{
	size_t start = p->i;
	char buf[64], *end;

	if (p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0')
		p->i++;
	else if (digits(p) == 0)
		return fail(p, "expected a digit");
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (digits(p) == 0)
			return fail(p, "expected a digit");
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (digits(p) == 0)
			return fail(p, "expected a digit");
	}
	if (p->i - start >= sizeof buf)
		return d9_err_set(p->e, D9_ERR_BAD_VALUE, start,
		    "JSON: a number of %zu characters", p->i - start);
	memcpy(buf, p->s + start, p->i - start);
	buf[p->i - start] = '\0';
	out->type = D9_JNUM;
	out->num = strtod(buf, &end);
	return 0;
}

/* The items of an array or the members of an object, after its opener. */
static int
container(struct jp *p, struct d9_jval *out, char close)
{
	struct d9_jval *v = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	out->type = close == ']' ? D9_JARR : D9_JOBJ;
	if (++p->depth > D9_JSON_DEPTH)
		return d9_err_set(p->e, D9_ERR_BAD_VALUE, p->i, "JSON: nested "
		    "more than %d deep", D9_JSON_DEPTH);
	p->i++;
	blank(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		size_t klen;

		if (d9_grow(&v, &cap, n + 1, sizeof *v) < 0) {
			rc = d9_err_set(p->e, D9_ERR_NOMEM, p->i, "out of memory");
			break;
		}
		blank(p);
		if (close == '}') {
			if (p->i >= p->n || p->s[p->i] != '"') {
				rc = fail(p, "expected a member name");
				break;
			}
			if ((rc = string(p, &key, &klen)) < 0)
				break;
			blank(p);
			if (p->i >= p->n || p->s[p->i] != ':') {
				rc = fail(p, "expected ':'");
				break;
			}
			p->i++;
		}
		memset(&v[n], 0, sizeof v[n]);
		if ((rc = value(p, &v[n])) < 0)
			break;
		v[n++].key = key;
		blank(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == close) {
			p->i++;
			break;
		}
		rc = fail(p, close == ']' ? "expected ',' or ']'" :
		    "expected ',' or '}'");
		break;
	}
	if (rc == 0 && (out->kids = d9_arena_memdup(p->arena, v,
	    n * sizeof *v)) == NULL)
		rc = d9_err_set(p->e, D9_ERR_NOMEM, p->i, "out of memory");
	out->n = rc == 0 ? n : 0;
	free(v);
	p->depth--;
	return rc;
}

static int
value(struct jp *p, struct d9_jval *out)
{
	blank(p);
	if (p->i >= p->n)
		return fail(p, "expected a value");
	switch (p->s[p->i]) {
	case '{': return container(p, out, '}');
	case '[': return container(p, out, ']');
	case '"':
		out->type = D9_JSTR;
		return string(p, &out->str, &out->len);
	case 't': return word(p, "true", out, D9_JBOOL, 1);
	case 'f': return word(p, "false", out, D9_JBOOL, 0);
	case 'n': return word(p, "null", out, D9_JNULL, 0);
	default:
		if (p->s[p->i] == '-' || (p->s[p->i] >= '0' &&
		    p->s[p->i] <= '9'))
			return number(p, out);
		return fail(p, "expected a value");
	}
}

int
d9_json_parse(struct d9_json *doc, const char *text, size_t len,
    struct d9_err *e)
{
	struct jp p = { text, 0, len, 0, &doc->arena, e };
	int rc;

	d9_arena_init(&doc->arena, 0);
	d9_err_clear(e);
	doc->root = d9_arena_alloc(&doc->arena, sizeof *doc->root,
	    _Alignof(struct d9_jval));
	if (doc->root == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "out of memory");
	memset(doc->root, 0, sizeof *doc->root);
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		p.i = 3;	/* a byte order mark some editors add */
	if ((rc = value(&p, doc->root)) < 0)
		return rc;
	blank(&p);
	if (p.i < p.n)
		return fail(&p, "expected the end of the document");
	return 0;
}

void
d9_json_free(struct d9_json *doc)
{
	d9_arena_free(&doc->arena);
	doc->root = NULL;
}

const struct d9_jval *
d9_json_member(const struct d9_jval *v, const char *key)
{
	for (size_t i = 0; v != NULL && v->type == D9_JOBJ && i < v->n; i++)
		if (strcmp(v->kids[i].key, key) == 0)
			return &v->kids[i];
	return NULL;
}

int
d9_json_looks(const void *text, size_t len)
{
	const unsigned char *s = text;
	size_t i = 0;

	if (len >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		i = 3;		/* a byte order mark some editors add */
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	return i < len && s[i] == '{';
}
