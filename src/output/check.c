/*
 * check.c: see check.h. Rules are parsed once, checked against the
 * document's keys before anything is printed, then evaluated; the lines
 * printed depend only on the rules and the figures, so a CI log is
 * stable from run to run.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"
#include "model/figures/diff.h"
#include "output/check.h"
#include "output/textfmt.h"

static const struct unit {
	const char	*name;
	enum d9o_unit	 kind;
	double		 scale;
} units[] = {
	{ "ns", D9O_U_TIME, 1 }, { "us", D9O_U_TIME, 1e3 },
	{ "ms", D9O_U_TIME, 1e6 }, { "s", D9O_U_TIME, 1e9 },
	{ "B", D9O_U_BYTES, 1 }, { "kB", D9O_U_BYTES, 1e3 },
	{ "KB", D9O_U_BYTES, 1e3 },
	{ "MB", D9O_U_BYTES, 1e6 }, { "GB", D9O_U_BYTES, 1e9 },
};

static const char *const op_names[] = { "<", "<=", ">", ">=", "==", "!=" };

static char *
trimmed(const char *s, size_t n)
{
	char *t;

	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if ((t = malloc(n + 1)) != NULL) {
		memcpy(t, s, n);
		t[n] = '\0';
	}
	return t;
}

/* The operator at the first of [<>=!] outside brackets; its length. */
static size_t
find_op(const char *s, size_t *at, enum d9o_op *op)
{
	int depth = 0;

	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '[')
			depth++;
		else if (s[i] == ']' && depth > 0)
			depth--;
		if (depth > 0 || strchr("<>=!", s[i]) == NULL)
			continue;
		*at = i;
		for (int k = D9O_NE; k >= 0; k--) {
			size_t len = strlen(op_names[k]);

			if (strncmp(s + i, op_names[k], len) == 0 &&
			    (len == 2 || s[i + 1] != '=')) {
				*op = (enum d9o_op)k;
				return len;
			}
		}
		return 0;
	}
	return 0;
}

static int
bad(char *err, size_t errlen, const char *rule, const char *why)
{
	snprintf(err, errlen, "--check rule '%s': %s", rule, why);
	return -1;
}

/* Whether a key path is well formed: names, '.', [x]. */
static int
key_ok(const char *k)
{
	int need_name = 1;

	if (*k == '\0' || *k == '.' || *k == '[')
		return 0;
	while (*k) {
		if (*k == '[') {
			const char *e = strchr(k, ']');

			if (e == NULL || e == k + 1)
				return 0;
			k = e + 1;
			need_name = 0;
			if (*k != '\0' && *k != '.' && *k != '[')
				return 0;
		} else if (*k == '.') {
			k++;
			need_name = 1;
			if (*k == '\0' || *k == '.')
				return 0;
		} else {
			size_t n = strcspn(k, ".[");

			if ((!need_name && k[-1] == ']') || memchr(k, ']', n))
				return 0;
			k += n;
			need_name = 0;
		}
	}
	return 1;
}

/* The next name of a well-formed key at *k (moved past it) into name:
 * 1 when it was in brackets (a location, a symbol, an index), else 0. */
static int
next_name(const char **k, char *name, size_t cap)
{
	const char *s = *k + (**k == '.');
	size_t len;
	int bracket = *s == '[';

	len = bracket ? (size_t)(strchr(s, ']') - s - 1) : strcspn(s, ".[");
	memcpy(name, s + bracket, len < cap ? len : cap - 1);
	name[len < cap ? len : cap - 1] = '\0';
	*k = s + bracket + len + bracket;
	return bracket;
}

static int
ends_in(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* What a key's figure is, by its names (DESIGN.md "JSON keys"): a time
 * when the last ends in Ns or Ms, or is the p50, p99 or max of
 * schedDelay, pollByLoc or spans; a size when it ends in Bytes; any of
 * them under metrics (each has its own unit); else a count or a ratio,
 * as is a figure named by a location, a symbol or an index. */
enum kind { K_COUNT, K_NS, K_MS, K_BYTES, K_ANY };

static enum kind
key_kind(const char *k)
{
	char first[512], last[512];
	int bracket = next_name(&k, first, sizeof first);

	if (strcmp(first, "metrics") == 0)
		return K_ANY;
	snprintf(last, sizeof last, "%s", first);
	while (*k)
		bracket = next_name(&k, last, sizeof last);
	if (bracket)
		return K_COUNT;
	if (ends_in(last, "Ns"))
		return K_NS;
	if (ends_in(last, "Ms"))
		return K_MS;
	if (ends_in(last, "Bytes"))
		return K_BYTES;
	if ((strcmp(first, "schedDelay") == 0 || strcmp(first,
	    "pollByLoc") == 0 || strcmp(first, "spans") == 0) &&
	    (strcmp(last, "p50") == 0 || strcmp(last, "p99") == 0 ||
	    strcmp(last, "max") == 0))
		return K_NS;
	return K_COUNT;
}

/* A rule's unit must be one of its key's: a usage error naming both. */
static int
unit_fits(const struct d9o_rule *r, char *err, size_t errlen)
{
	enum kind k = key_kind(r->key);
	const char *what = k == K_NS ? "a time (ns): give ns, us, ms or s, "
	    "or no unit" : k == K_MS ? "a time (ms): give ns, us, ms or s, "
	    "or no unit" : k == K_BYTES ? "a size (bytes): give B, KB, MB or "
	    "GB, or no unit" : "a count or a ratio: give no unit";
	char why[300];

	if (r->unit == D9O_U_NONE || k == K_ANY ||
	    (r->unit == D9O_U_TIME && (k == K_NS || k == K_MS)) ||
	    (r->unit == D9O_U_BYTES && k == K_BYTES))
		return 0;
	snprintf(why, sizeof why, "%s is %s, not %s", r->key, what,
	    r->unit_name);
	return bad(err, errlen, r->text, why);
}

static int
value_of(struct d9o_rule *r, const char *v, int have_baseline, char *err,
    size_t errlen)
{
	char *end;

	r->relative = *v == '+' || *v == '-';
	if (r->relative && !have_baseline)
		return bad(err, errlen, r->text, "a change (+ or -) needs "
		    "--baseline FILE, the --json output of an earlier run");
	if (!isdigit((unsigned char)v[r->relative]) && v[r->relative] != '.')
		return bad(err, errlen, r->text, "VALUE must be a number, with "
		    "an optional unit (ns us ms s, B KB MB GB)");
	r->value = strtod(v, &end);
	if (!isfinite(r->value))
		return bad(err, errlen, r->text, "VALUE is out of range");
	while (isspace((unsigned char)*end))
		end++;
	if (*end == '\0')
		return 0;
	if (strcmp(end, "%") == 0 && r->relative) {
		r->percent = 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(end, units[i].name) == 0) {
			r->unit = units[i].kind;
			r->unit_name = units[i].name;
			r->value *= units[i].scale;
			return 0;
		}
	return bad(err, errlen, r->text, r->relative ? "unknown unit (ns us "
	    "ms s, B KB MB GB, or % for a change)" : "unknown unit (ns us ms "
	    "s, B KB MB GB; % only in a change like +10%)");
}

static int
parse_one(struct d9o_rule *r, int have_baseline, char *err, size_t errlen)
{
	size_t at, len = find_op(r->text, &at, &r->op);
	char *v;

	if (len == 0)
		return bad(err, errlen, r->text, "no operator (KEY OP VALUE, "
		    "OP one of < <= > >= == !=)");
	if ((r->key = trimmed(r->text, at)) == NULL ||
	    (v = trimmed(r->text + at + len, strlen(r->text + at + len))) ==
	    NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!key_ok(r->key)) {
		free(v);
		return bad(err, errlen, r->text, "KEY must be a path into the "
		    "--json output, like schedDelay.p99 or "
		    "pollByLoc[src/a.rs:1:1].p99");
	}
	if (*v == '\0') {
		free(v);
		return bad(err, errlen, r->text, "no VALUE after the operator");
	}
	len = value_of(r, v, have_baseline, err, errlen) < 0;
	free(v);
	return len || unit_fits(r, err, errlen) < 0 ? -1 : 0;
}

int
d9o_rules_parse(struct d9o_rules *r, const char *const *texts, size_t n,
    int have_baseline, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	for (size_t t = 0; t < n; t++) {
		const char *s = texts[t];

		for (;;) {
			size_t len = 0;
			int depth = 0;
			struct d9o_rule *nv;

			while (s[len] && (s[len] != ',' || depth > 0)) {
				depth += s[len] == '[' ? 1 : s[len] == ']' &&
				    depth > 0 ? -1 : 0;
				len++;
			}
			nv = realloc(r->v, (r->n + 1) * sizeof *nv);
			if (nv == NULL) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			r->v = nv;
			memset(&r->v[r->n], 0, sizeof *nv);
			if ((r->v[r->n].text = trimmed(s, len)) == NULL) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			if (r->v[r->n++].text[0] == '\0') {
				snprintf(err, errlen, "--check: an empty rule in "
				    "'%s' (rules are separated by commas)",
				    texts[t]);
				return -1;
			}
			if (parse_one(&r->v[r->n - 1], have_baseline, err,
			    errlen) < 0)
				return -1;
			if (s[len] == '\0')
				break;
			s += len + 1;
		}
	}
	return 0;
}

void
d9o_rules_free(struct d9o_rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].text);
		free(r->v[i].key);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}

enum found { FOUND, ABSENT, NOT_KEY, NOT_NUMBER };

/* Where a path is ABSENT for want of a name in an object (walk). */
struct lack {
	const struct d9_jval	*obj;	/* NULL: not so (null, an index) */
	size_t			 path;	/* the key's bytes that lead to obj */
	char			 name[512];
};

/* The member of pollByLoc (obj) whose location is name's under any
 * cargo home (d9m_loc_key): a rule, or a baseline from another machine,
 * names a crate's location by its crate folder on. NULL: none. */
static const struct d9_jval *
loc_member(const struct d9_jval *obj, const char *name)
{
	const char *want = d9m_loc_key(name);

	for (const struct d9_jval *k = d9_json_next(obj, NULL); k != NULL;
	    k = d9_json_next(obj, k))
		if (strcmp(d9m_loc_key(d9_json_key(k)), want) == 0)
			return k;
	return NULL;
}

/* Walk key through doc: FOUND (*out: the value, maybe null), ABSENT (a
 * name or index below the first is not there, or the path goes through
 * a null: an object this run has not, as "recorder" for dial9's
 * traces), NOT_KEY (the first is not), NOT_NUMBER (it names a container
 * or a string, or goes through a value that has no members). lack (may
 * be NULL) says which object lacked the name when that made it ABSENT. */
static enum found
walk(const struct d9_jval *doc, const char *k, const struct d9_jval **out,
    struct lack *lack)
{
	const struct d9_jval *v = doc;
	const char *key = k;
	int first = 1;
	char name[512];

	while (*k) {
		const struct d9_jval *in = v;	/* where name is looked */
		const char *from = k;

		next_name(&k, name, sizeof name);
		if (d9_json_type(v) == D9_JNULL)
			return ABSENT;
		if (d9_json_type(v) == D9_JOBJ) {
			const struct d9_jval *obj = v;

			v = d9_json_member(obj, name);
			if (v == NULL && !first && d9_json_key(obj) != NULL &&
			    strcmp(d9_json_key(obj), "pollByLoc") == 0)
				v = loc_member(obj, name);
		} else if (d9_json_type(v) == D9_JARR) {
			char *end;
			unsigned long i = strtoul(name, &end, 10);

			if (*end != '\0' || !isdigit((unsigned char)name[0]))
				return NOT_NUMBER;
			v = d9_json_kid(v, i);
		} else
			return NOT_NUMBER;
		if (v == NULL && !first && lack != NULL &&
		    d9_json_type(in) == D9_JOBJ) {
			lack->obj = in;
			lack->path = (size_t)(from - key);
			snprintf(lack->name, sizeof lack->name, "%s", name);
		}
		if (v == NULL)
			return first ? NOT_KEY : ABSENT;
		first = 0;
	}
	*out = v;
	if (d9_json_type(v) == D9_JNUM || d9_json_type(v) == D9_JBOOL ||
	    d9_json_type(v) == D9_JNULL)
		return FOUND;
	return NOT_NUMBER;
}

int
d9o_rules_valid(const struct d9o_rules *r, const struct d9_jval *doc,
    char *err, size_t errlen)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct d9_jval *v;
		char why[600];

		switch (walk(doc, r->v[i].key, &v, NULL)) {
		case NOT_KEY:
			snprintf(why, sizeof why, "the --json output has no key "
			    "'%.*s'", (int)strcspn(r->v[i].key, ".["),
			    r->v[i].key);
			return bad(err, errlen, r->v[i].text, why);
		case NOT_NUMBER:
			return bad(err, errlen, r->v[i].text, "KEY names no "
			    "number (an object, an array or a text): name a "
			    "figure inside it");
		default:
			break;
		}
	}
	return 0;
}

/* The number at key, or -1 when absent or null. */
static int
number(const struct d9_jval *doc, const char *key, double *out)
{
	const struct d9_jval *v;

	if (doc == NULL || walk(doc, key, &v, NULL) != FOUND ||
	    d9_json_type(v) == D9_JNULL)
		return -1;
	*out = d9_json_num(v);
	return 0;
}

#define SAY_MEMBERS	12	/* an object of more is not listed */

/* Why key has no value in doc, for a FAIL line: the object on its path
 * that lacks the next name, with the names it has when they are few (a
 * typo, "schedDelay.p99Ns" for "schedDelay.p99", is seen at once), or
 * nothing when the path went through null or past an array's end. */
static void
say_absent(FILE *f, const struct d9_jval *doc, const char *key)
{
	const struct d9_jval *v, *k;
	struct lack lack = { NULL, 0, "" };
	char safe[512];
	size_t n = 0;

	if (doc == NULL || walk(doc, key, &v, &lack) != ABSENT ||
	    lack.obj == NULL)
		return;
	for (k = d9_json_next(lack.obj, NULL); k != NULL;
	    k = d9_json_next(lack.obj, k))
		n++;
	if (n == 0 || n > SAY_MEMBERS)
		return;
	d9_text_safe(safe, sizeof safe, key, lack.path);
	fprintf(f, " (%s has no '", safe);
	d9_text_safe(safe, sizeof safe, lack.name, strlen(lack.name));
	fprintf(f, "%s'; it has", safe);
	for (k = d9_json_next(lack.obj, NULL); k != NULL;
	    k = d9_json_next(lack.obj, k)) {
		d9_text_safe(safe, sizeof safe, d9_json_key(k),
		    strlen(d9_json_key(k)));
		fprintf(f, "%s %s", k == d9_json_next(lack.obj, NULL) ? "" :
		    ",", safe);
	}
	putc(')', f);
}

/* A figure for the line: in the rule's unit when it has one, else as
 * the report prints a time or a size. */
static void
show(char *buf, size_t len, const struct d9o_rule *r, double v)
{
	enum kind k = key_kind(r->key);
	double a = fabs(v);
	char t[48];

	for (size_t i = 0; r->unit_name != NULL &&
	    i < sizeof units / sizeof units[0]; i++)
		if (strcmp(units[i].name, r->unit_name) == 0) {
			double s = units[i].scale / (k == K_MS &&
			    r->unit == D9O_U_TIME ? 1e6 : 1);

			snprintf(buf, len, "%.6g%s", v / s, r->unit_name);
			return;
		}
	if ((k == K_NS || k == K_MS) && a < 1.8e19 / 1e6)
		snprintf(buf, len, "%s%s", v < 0 ? "-" : "", d9_fmt_dur(t,
		    sizeof t, (uint64_t)llround(k == K_MS ? a * 1e6 : a), 0));
	else if (k == K_BYTES)
		d9_fmt_bytes(buf, len, v);
	else
		snprintf(buf, len, "%.15g", v);
}

static int
holds(enum d9o_op op, double a, double b)
{
	switch (op) {
	case D9O_LT: return a < b;
	case D9O_LE: return a <= b;
	case D9O_GT: return a > b;
	case D9O_GE: return a >= b;
	case D9O_EQ: return a == b;
	default: return a != b;
	}
}

size_t
d9o_rules_check(const struct d9o_rules *r, const struct d9_jval *doc,
    const struct d9_jval *base, FILE *f)
{
	size_t failed = 0;

	for (size_t i = 0; i < r->n; i++) {
		const struct d9o_rule *x = &r->v[i];
		double actual, b = 0, limit = x->value;
		char a[64], bs[64], ls[64];
		int ok;

		if (x->unit == D9O_U_TIME && key_kind(x->key) == K_MS)
			limit /= 1e6;	/* the key is in milliseconds */
		if (number(doc, x->key, &actual) < 0) {
			fprintf(f, "FAIL %s: no value in this run", x->text);
			say_absent(f, doc, x->key);
			putc('\n', f);
			failed++;
			continue;
		}
		show(a, sizeof a, x, actual);
		if (x->relative) {
			if (number(base, x->key, &b) < 0) {
				fprintf(f, "FAIL %s: actual %s, the baseline has "
				    "no value\n", x->text, a);
				failed++;
				continue;
			}
			limit = x->percent ? b * (1 + x->value / 100) :
			    b + limit;
			show(bs, sizeof bs, x, b);
			show(ls, sizeof ls, x, limit);
		}
		ok = holds(x->op, actual, limit);
		failed += !ok;
		if (x->relative)
			fprintf(f, "%s %s: actual %s, baseline %s, limit %s\n",
			    ok ? "PASS" : "FAIL", x->text, a, bs, ls);
		else
			fprintf(f, "%s %s: actual %s\n", ok ? "PASS" : "FAIL",
			    x->text, a);
	}
	return failed;
}
