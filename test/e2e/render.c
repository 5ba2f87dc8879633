/* render.c: see render.h. */
#include <check.h>
#include <stdio.h>
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
	ck_assert_int_eq(d9s_resolver_new(NULL, &ro, r, &e), 0);
	memset(&ao, 0, sizeof ao);
	ao.win.hi = UINT64_MAX;
	ao.worst = 10;
	ao.resolver = *r;
	ck_assert_int_eq(d9m_analyze(m, &ao, a), 0);
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

	ck_assert_ptr_nonnull(f);
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
