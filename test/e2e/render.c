/* render.c: see render.h. No Check here: fuzz/fuzz_follow.c renders too,
 * outside a test; a failure aborts (a Check test reports the signal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/resolver.h"
#include "render.h"

void
t_analyze(const struct d9m_model *m, struct d9m_analysis *a,
    struct d9m_resolver **r)
{
	struct d9s_resolver_opts ro;
	struct d9m_analysis_opts ao;
	struct d9_err e;

	memset(&ro, 0, sizeof ro);
	if (d9s_resolver_new(NULL, &ro, r, &e) != 0) {
		fprintf(stderr, "t_analyze: no resolver\n");
		abort();
	}
	memset(&ao, 0, sizeof ao);
	ao.win.hi = UINT64_MAX;
	ao.worst = 10;
	ao.resolver = *r;
	if (d9m_analyze(m, &ao, a) != 0) {
		fprintf(stderr, "t_analyze: the analysis failed\n");
		abort();
	}
}

struct d9m_model *
t_read(const char *path)
{
	const char *paths[] = { path };
	struct d9p_read_stats st;
	struct d9m_model *m = d9m_model_new();

	if (m == NULL)
		abort();
	memset(&st, 0, sizeof st);
	if (d9m_model_load(m, paths, 1, NULL, NULL, NULL, &st) < 0 ||
	    d9m_model_finish_last(m) < 0) {
		fprintf(stderr, "t_read: %s: out of memory\n", path);
		abort();
	}
	if (st.read_ok == 0)
		d9m_model_free(&m);
	return m;
}

char *
t_json(const struct d9m_model *m, const char *path)
{
	struct d9m_analysis a;
	struct d9m_resolver *r;
	char *buf;

	t_analyze(m, &a, &r);
	buf = t_render(m, &a, r, path, d9o_json);
	d9m_analysis_free(&a);
	d9s_resolver_free(&r);
	return buf;
}

char *
t_renamed(const char *s, const char *from, const char *to)
{
	size_t n = 0, lf = strlen(from) + 6, lt = strlen(to) + 6;
	char *pat, *out, *o;
	const char *p;

	if ((pat = malloc(lf + 1)) == NULL)
		abort();
	snprintf(pat, lf + 1, "\n  \"%s: ", from);
	for (p = s; (p = strstr(p, pat)) != NULL; p += lf)
		n++;
	if ((out = malloc(strlen(s) + n * lt + 1)) == NULL)
		abort();
	for (o = out; (p = strstr(s, pat)) != NULL; s = p + lf) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		o += sprintf(o, "\n  \"%s: ", to);
	}
	strcpy(o, s);
	free(pat);
	return out;
}

void
t_say_diff(const char *what, const char *an, const char *a, const char *bn,
    const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	fprintf(stderr, "%s differ at byte %zu:\n  %s: %.160s\n  %s: %.160s\n",
	    what, i, an, a + (i > 80 ? i - 80 : 0), bn,
	    b + (i > 80 ? i - 80 : 0));
}

char *
t_render(const struct d9m_model *m, const struct d9m_analysis *a,
    struct d9m_resolver *r, const char *path,
    void (*out)(const struct d9o_out *))
{
	const char *const inputs[] = { path };
	struct d9o_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		abort();
	memset(&o, 0, sizeof o);
	o.m = m;
	o.a = a;
	o.r = r;
	o.f = f;
	o.inputs = inputs;
	o.ninputs = 1;
	out(&o);
	fclose(f);
	return buf;
}
