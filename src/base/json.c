/*
 * json.c: see json.h. A recursive descent over the text, run twice: the
 * first run checks the syntax and the caps and counts the words of the
 * tape, the second (which cannot fail) writes them into a tape of that
 * size. A word's low three bits are its tag, the other 29 its payload:
 * the value of a small integer or a boolean, the decoded length of a
 * string (its bytes and a NUL follow, padded to a word), the words of an
 * array or object (itself included). An object's members are each a
 * KEY string followed by its value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"

enum tag { T_NULL, T_BOOL, T_INT, T_DBL, T_STR, T_ARR, T_OBJ, T_KEY };

#define TAG(w)		((enum tag)((w) & 7))
#define PAYLOAD(w)	((w) >> 3)
#define WORD(t, p)	((uint32_t)(t) | (uint32_t)(p) << 3)
#define INT_MIN29	(-(1l << 28))
#define INT_MAX29	((1l << 28) - 1)

struct jp {
	const char	*s;
	size_t		 i, n;
	int		 depth;
	struct d9_jval	*out;		/* NULL in the first run */
	size_t		 w;		/* words so far */
	size_t		 values;
	struct d9_err	*e;
};

static int value(struct jp *p);

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

static void
emit(struct jp *p, uint32_t word)
{
	if (p->out != NULL)
		p->out[p->w].w = word;
	p->w++;
}

static int
word(struct jp *p, const char *w, enum tag t, unsigned payload)
{
	size_t k = strlen(w);

	if (p->n - p->i < k || memcmp(p->s + p->i, w, k) != 0)
		return fail(p, "expected a value");
	p->i += k;
	emit(p, WORD(t, payload));
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

/* Bytes of a decoded string: written at o (when not NULL), counted. */
static void
put(char *o, size_t *k, const char *b, size_t n)
{
	if (o != NULL)
		memcpy(o + *k, b, n);
	*k += n;
}

/* An escape after the backslash at p->i - 1, appended at o. */
static int
escape(struct jp *p, char *o, size_t *k)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at;
	char u8[4];
	unsigned cp, lo;

	if (p->i >= p->n)
		return fail(p, "expected an escape");
	if (p->s[p->i] != 'u') {
		if ((at = memchr(from, p->s[p->i], sizeof from - 1)) == NULL)
			return fail(p, "expected an escape");
		put(o, k, &to[at - from], 1);
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
	put(o, k, u8, d9_text_utf8_put(u8, cp));
	return 0;
}

/* A string at p->i (its '"') as a STR or KEY entry. */
static int
string(struct jp *p, enum tag t)
{
	char *o = p->out != NULL ? (char *)&p->out[p->w + 1] : NULL;
	size_t k = 0;

	p->i++;
	for (;;) {
		unsigned char c;
		size_t run = p->i;

		/* plain bytes in one go */
		while (p->i < p->n && (unsigned char)p->s[p->i] >= 0x20 &&
		    p->s[p->i] != '"' && p->s[p->i] != '\\')
			p->i++;
		put(o, &k, p->s + run, p->i - run);
		if (p->i >= p->n)
			return fail(p, "expected the end of a string");
		if ((c = (unsigned char)p->s[p->i]) == '"')
			break;
		if (c < 0x20)
			return fail(p, "expected no control character in a "
			    "string");
		p->i++;
		if (escape(p, o, &k) < 0)
			return -D9_ERR_BAD_VALUE;
	}
	p->i++;
	/* the tape is zeroed: the NUL and the padding are there */
	emit(p, WORD(t, k));
	p->w += (k + 4) / 4;
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
number(struct jp *p)
{
	size_t start = p->i, nd;
	int plain = 1;
	char buf[64];
	double d;

	if (p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0') {
		p->i++;
		nd = 1;
	} else if ((nd = digits(p)) == 0)
		return fail(p, "expected a digit");
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		plain = 0;
		if (digits(p) == 0)
			return fail(p, "expected a digit");
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		plain = 0;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (digits(p) == 0)
			return fail(p, "expected a digit");
	}
	if (p->i - start >= sizeof buf)
		return d9_err_set(p->e, D9_ERR_BAD_VALUE, start,
		    "JSON: a number of %zu characters", p->i - start);
	if (plain && nd <= 9) {		/* most of them: an integer */
		long v = 0;

		for (size_t j = start + (p->s[start] == '-'); j < p->i; j++)
			v = v * 10 + (p->s[j] - '0');
		d = p->s[start] == '-' ? -(double)v : (double)v;
	} else {
		memcpy(buf, p->s + start, p->i - start);
		buf[p->i - start] = '\0';
		d = strtod(buf, NULL);
	}
	if (d == floor(d) && d >= INT_MIN29 && d <= INT_MAX29) {
		emit(p, WORD(T_INT, (uint32_t)(long)d & 0x1fffffff));
		return 0;
	}
	emit(p, WORD(T_DBL, 0));
	if (p->out != NULL)
		memcpy(&p->out[p->w], &d, sizeof d);
	p->w += 2;
	return 0;
}

/* One item of an array, or member of an object (its key, ':', value). */
static int
item(struct jp *p, char close)
{
	int rc;

	blank(p);
	if (close == '}') {
		if (p->i >= p->n || p->s[p->i] != '"')
			return fail(p, "expected a member name");
		if ((rc = string(p, T_KEY)) < 0)
			return rc;
		blank(p);
		if (p->i >= p->n || p->s[p->i] != ':')
			return fail(p, "expected ':'");
		p->i++;
	}
	return value(p);
}

/* The items of an array or the members of an object, after its opener. */
static int
container(struct jp *p, char close)
{
	size_t start = p->w;
	int rc;

	if (++p->depth > D9_JSON_DEPTH)
		return d9_err_set(p->e, D9_ERR_BAD_VALUE, p->i, "JSON: nested "
		    "more than %d deep", D9_JSON_DEPTH);
	p->w++;
	p->i++;
	blank(p);
	if (p->i < p->n && p->s[p->i] == close)
		p->i++;
	else
		for (;;) {
			if ((rc = item(p, close)) < 0)
				return rc;
			blank(p);
			if (p->i < p->n && p->s[p->i] == ',') {
				p->i++;
				continue;
			}
			if (p->i < p->n && p->s[p->i] == close) {
				p->i++;
				break;
			}
			return fail(p, close == ']' ? "expected ',' or ']'" :
			    "expected ',' or '}'");
		}
	if (p->out != NULL)
		p->out[start].w = WORD(close == ']' ? T_ARR : T_OBJ,
		    p->w - start);
	p->depth--;
	return 0;
}

static int
value(struct jp *p)
{
	blank(p);
	if (p->i >= p->n)
		return fail(p, "expected a value");
	if (++p->values > D9_JSON_MAX_VALUES)
		return d9_err_set(p->e, D9_ERR_TOO_BIG, p->i, "JSON: more "
		    "than %u values", D9_JSON_MAX_VALUES);
	switch (p->s[p->i]) {
	case '{': return container(p, '}');
	case '[': return container(p, ']');
	case '"': return string(p, T_STR);
	case 't': return word(p, "true", T_BOOL, 1);
	case 'f': return word(p, "false", T_BOOL, 0);
	case 'n': return word(p, "null", T_NULL, 0);
	default:
		if (p->s[p->i] == '-' || (p->s[p->i] >= '0' &&
		    p->s[p->i] <= '9'))
			return number(p);
		return fail(p, "expected a value");
	}
}

/* One run over the whole text. */
static int
document(struct jp *p)
{
	int rc;

	if (p->n >= 3 && memcmp(p->s, "\xef\xbb\xbf", 3) == 0)
		p->i = 3;	/* a byte order mark some editors add */
	if ((rc = value(p)) < 0)
		return rc;
	blank(p);
	if (p->i < p->n)
		return fail(p, "expected the end of the document");
	return 0;
}

int
d9_json_parse(struct d9_json *doc, const char *text, size_t len,
    struct d9_err *e)
{
	struct jp p = { text, 0, len, 0, NULL, 0, 0, e };
	int rc;

	memset(doc, 0, sizeof *doc);
	d9_err_clear(e);
	if (len > D9_JSON_MAX_TEXT)
		return d9_err_set(e, D9_ERR_TOO_BIG, D9_JSON_MAX_TEXT, "JSON: "
		    "larger than %u MiB", D9_JSON_MAX_TEXT >> 20);
	if ((rc = document(&p)) < 0)
		return rc;
	if ((doc->tape = calloc(p.w, sizeof *doc->tape)) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "out of memory");
	doc->n = p.w;
	p.out = doc->tape;
	p.i = 0;
	p.w = 0;
	p.values = 0;
	document(&p);	/* the same run again: it cannot fail */
	doc->root = doc->tape;
	return 0;
}

void
d9_json_free(struct d9_json *doc)
{
	free(doc->tape);
	memset(doc, 0, sizeof *doc);
}

/* Words of a string entry: its tag, its bytes and NUL. */
static size_t
str_words(uint32_t w)
{
	return 1 + (PAYLOAD(w) + 4) / 4;
}

/* The value itself: a member is its key, then it. */
static const struct d9_jval *
val(const struct d9_jval *v)
{
	return v != NULL && TAG(v->w) == T_KEY ? v + str_words(v->w) : v;
}

/* Words of a value or member. */
static size_t
span(const struct d9_jval *v)
{
	const struct d9_jval *x = val(v);
	size_t k = (size_t)(x - v);

	switch (TAG(x->w)) {
	case T_DBL: return k + 3;
	case T_STR: return k + str_words(x->w);
	case T_ARR:
	case T_OBJ: return k + PAYLOAD(x->w);
	default: return k + 1;
	}
}

enum d9_jtype
d9_json_type(const struct d9_jval *v)
{
	static const enum d9_jtype of[] = { D9_JNULL, D9_JBOOL, D9_JNUM,
	    D9_JNUM, D9_JSTR, D9_JARR, D9_JOBJ, D9_JSTR };

	return v == NULL ? D9_JNULL : of[TAG(val(v)->w)];
}

double
d9_json_num(const struct d9_jval *v)
{
	double d;
	int32_t i;

	if ((v = val(v)) == NULL)
		return 0;
	switch (TAG(v->w)) {
	case T_BOOL: return PAYLOAD(v->w);
	case T_INT:
		i = (int32_t)PAYLOAD(v->w);
		return i >= 1 << 28 ? i - (1 << 29) : i;
	case T_DBL:
		memcpy(&d, v + 1, sizeof d);
		return d;
	default: return 0;
	}
}

const char *
d9_json_str(const struct d9_jval *v, size_t *len)
{
	if ((v = val(v)) == NULL || TAG(v->w) != T_STR)
		return NULL;
	if (len != NULL)
		*len = PAYLOAD(v->w);
	return (const char *)(v + 1);
}

const char *
d9_json_key(const struct d9_jval *v)
{
	return v != NULL && TAG(v->w) == T_KEY ? (const char *)(v + 1) : NULL;
}

const struct d9_jval *
d9_json_next(const struct d9_jval *v, const struct d9_jval *kid)
{
	const struct d9_jval *next;

	if ((v = val(v)) == NULL ||
	    (TAG(v->w) != T_ARR && TAG(v->w) != T_OBJ))
		return NULL;
	next = kid == NULL ? v + 1 : kid + span(kid);
	return next < v + PAYLOAD(v->w) ? next : NULL;
}

size_t
d9_json_n(const struct d9_jval *v)
{
	size_t n = 0;

	for (const struct d9_jval *k = d9_json_next(v, NULL); k != NULL;
	    k = d9_json_next(v, k))
		n++;
	return n;
}

const struct d9_jval *
d9_json_kid(const struct d9_jval *v, size_t i)
{
	const struct d9_jval *k = d9_json_next(v, NULL);

	while (k != NULL && i-- > 0)
		k = d9_json_next(v, k);
	return k;
}

const struct d9_jval *
d9_json_member(const struct d9_jval *v, const char *key)
{
	if (d9_json_type(v) != D9_JOBJ)
		return NULL;
	for (const struct d9_jval *k = d9_json_next(v, NULL); k != NULL;
	    k = d9_json_next(v, k))
		if (strcmp(d9_json_key(k), key) == 0)
			return k;
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
