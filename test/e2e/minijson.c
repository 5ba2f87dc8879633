/* minijson.c: recursive descent over a NUL-terminated buffer. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minijson.h"

struct p {
	const char	*s;
	size_t		 i;
	char		*err;
	size_t		 errlen;
	int		 depth;
};

static int value(struct p *, struct mj *);

static void
ws(struct p *p)
{
	while (isspace((unsigned char)p->s[p->i]))
		p->i++;
}

static int
fail(struct p *p, const char *why)
{
	snprintf(p->err, p->errlen, "byte %zu: %s", p->i, why);
	return -1;
}

static int
str(struct p *p, char **out)
{
	size_t cap = 16, n = 0;
	char *b = malloc(cap);

	p->i++;	/* opening quote */
	for (;;) {
		char c = p->s[p->i++];

		if (n + 8 > cap)
			b = realloc(b, cap *= 2);
		if (c == '\0' || (unsigned char)c < 0x20) {
			free(b);
			return fail(p, "bad string");
		}
		if (c == '"')
			break;
		if (c == '\\') {
			char e = p->s[p->i++];
			unsigned u;

			switch (e) {
			case 'n': b[n++] = '\n'; break;
			case 't': b[n++] = '\t'; break;
			case 'r': b[n++] = '\r'; break;
			case 'b': b[n++] = '\b'; break;
			case 'f': b[n++] = '\f'; break;
			case 'u':
				if (sscanf(p->s + p->i, "%4x", &u) != 1) {
					free(b);
					return fail(p, "bad \\u escape");
				}
				p->i += 4;
				b[n++] = u < 0x80 ? (char)u : '?';
				break;
			case '"': case '\\': case '/': b[n++] = e; break;
			default:
				free(b);
				return fail(p, "bad escape");
			}
			continue;
		}
		b[n++] = c;
	}
	b[n] = '\0';
	*out = b;
	return 0;
}

static int
items(struct p *p, struct mj *v, char close, int keyed)
{
	size_t cap = 0;

	p->i++;
	ws(p);
	if (p->s[p->i] == close) {
		p->i++;
		return 0;
	}
	for (;;) {
		struct mj *k;

		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->kids = realloc(v->kids, cap * sizeof *v->kids);
		}
		k = &v->kids[v->n];
		memset(k, 0, sizeof *k);
		ws(p);
		if (keyed) {
			if (p->s[p->i] != '"' || str(p, &k->key) < 0)
				return fail(p, "expected a key");
			ws(p);
			if (p->s[p->i++] != ':')
				return fail(p, "expected ':'");
		}
		v->n++;
		if (value(p, k) < 0)
			return -1;
		ws(p);
		if (p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->s[p->i] == close) {
			p->i++;
			return 0;
		}
		return fail(p, "expected ',' or a closing bracket");
	}
}

static int
value(struct p *p, struct mj *v)
{
	char *end;
	int rc = 0;

	if (++p->depth > 64)
		return fail(p, "too deep");
	ws(p);
	switch (p->s[p->i]) {
	case '{':
		v->type = MJ_OBJ;
		rc = items(p, v, '}', 1);
		break;
	case '[':
		v->type = MJ_ARR;
		rc = items(p, v, ']', 0);
		break;
	case '"':
		v->type = MJ_STR;
		rc = str(p, &v->str);
		break;
	case 't':
	case 'f':
	case 'n':
		if (strncmp(p->s + p->i, "true", 4) == 0) {
			v->type = MJ_BOOL;
			v->num = 1;
			p->i += 4;
		} else if (strncmp(p->s + p->i, "false", 5) == 0) {
			v->type = MJ_BOOL;
			p->i += 5;
		} else if (strncmp(p->s + p->i, "null", 4) == 0) {
			v->type = MJ_NULL;
			p->i += 4;
		} else
			return fail(p, "bad literal");
		break;
	default:
		v->type = MJ_NUM;
		v->num = strtod(p->s + p->i, &end);
		if (end == p->s + p->i)
			return fail(p, "unexpected character");
		p->i = (size_t)(end - p->s);
	}
	p->depth--;
	return rc;
}

static void
clear(struct mj *v)
{
	for (size_t i = 0; i < v->n; i++)
		clear(&v->kids[i]);
	free(v->kids);
	free(v->str);
	free(v->key);
}

void
mj_free(struct mj *v)
{
	if (v == NULL)
		return;
	clear(v);
	free(v);
}

struct mj *
mj_parse(const char *text, char *err, size_t errlen)
{
	struct p p = { text, 0, err, errlen, 0 };
	struct mj *v = calloc(1, sizeof *v);

	if (value(&p, v) < 0) {
		mj_free(v);
		return NULL;
	}
	ws(&p);
	if (text[p.i] != '\0') {
		fail(&p, "trailing bytes");
		mj_free(v);
		return NULL;
	}
	return v;
}

const struct mj *
mj_member(const struct mj *v, const char *key)
{
	if (v == NULL || v->type != MJ_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->kids[i].key, key) == 0)
			return &v->kids[i];
	return NULL;
}

const struct mj *
mj_get(const struct mj *v, const char *path)
{
	char part[256];

	while (v != NULL && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof part)
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		path += n + (path[n] == '.');
		if (v->type == MJ_ARR) {
			char *end;
			unsigned long i = strtoul(part, &end, 10);

			v = *end == '\0' && i < v->n ? &v->kids[i] : NULL;
		} else
			v = mj_member(v, part);
	}
	return v;
}

char *
mj_read_file(const char *path)
{
	size_t n;

	return mj_read_file_n(path, &n);
}

char *
mj_read_file_n(const char *path, size_t *np)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t n = 0, cap = 0, r;

	if (f == NULL)
		return NULL;
	do {
		if (n + 4096 >= cap)
			b = realloc(b, cap = cap ? cap * 2 : 65536);
		r = fread(b + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	b[n] = '\0';
	*np = n;
	return b;
}
