/* render.h: a model's figures as d9top prints them, in the tests that
 * read traces in process (the program's defaults: resolver of its own,
 * ten worst polls, the whole trace). */
#ifndef E2E_RENDER_H
#define E2E_RENDER_H

#include "model/figures/analysis.h"
#include "output/output.h"

/* The analysis of m into *a, names through a new resolver *r (free
 * both: d9m_analysis_free, d9s_resolver_free). */
void	t_analyze(const struct d9m_model *m, struct d9m_analysis *a,
	    struct d9m_resolver **r);
/* What out (d9o_json, d9o_report) prints of it for the input path,
 * malloc'd. */
char	*t_render(const struct d9m_model *m, const struct d9m_analysis *a,
	    struct d9m_resolver *r, const char *path,
	    void (*out)(const struct d9o_out *));

/* path (a file, a directory, "-") read and finished as d9top does;
 * NULL when nothing was read from it. */
struct d9m_model *t_read(const char *path);
/* The --json of m for path, malloc'd (t_analyze and t_render). */
char	*t_json(const struct d9m_model *m, const char *path);
/* json (t_json's) with the messages of its "errors" list that name the
 * input from (a line that begins "  \"from: ": a value's text cannot
 * hold a line break) naming to instead; malloc'd. */
char	*t_renamed(const char *json, const char *from, const char *to);
/* Where a and b part, on stderr: what they are ("followed and fresh
 * --json"), then each (named an and bn) around that byte. */
void	t_say_diff(const char *what, const char *an, const char *a,
	    const char *bn, const char *b);

#endif
