/* stackinfo.c: see stackinfo.h; frame kinds from model/figures/framekind.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "model/figures/framekind.h"
#include "output/stackinfo.h"
#include "output/textfmt.h"
#include "base/text.h"

void
d9o_stack_line(const struct d9o_out *o, const char *label,
    const struct d9m_stack_group *g, int indent)
{
	struct d9m_frame *f = d9m_frames_alloc();
	size_t n = f == NULL ? 0 : d9m_stack_frames(o->m, o->r, g->seg,
	    g->stack, f, D9_STACK_MAX);
	const char *blocker = NULL, *sys = NULL, *app = NULL;
	char b1[256], b2[256], b3[256];

	for (size_t i = 0; i < n && app == NULL; i++) {
		enum d9m_frame_kind k = d9m_frame_kind(&f[i]);
		const char *name = d9m_frame_name(&f[i]);

		if (k == D9M_FK_KERNEL && blocker == NULL && !d9m_is_plumbing(name))
			blocker = name;
		else if (k == D9M_FK_LIBC && sys == NULL)
			sys = name;
		else if (k == D9M_FK_APP)
			app = name;
	}
	/* one line: count, label, where it blocked; a second: the caller */
	{
		char line[160];
		int len = snprintf(line, sizeof line, "%*s%5zux %-7s", indent,
		    "", g->count, label);

		if (blocker != NULL || sys != NULL)
			snprintf(line + len, sizeof line - (size_t)len, "%s%s%s%s",
			    blocker ? " in " : "", blocker ? d9o_fit(b1,
			    sizeof b1, blocker, 30) : "", sys ? " via " : "",
			    sys ? d9o_fit(b2, sizeof b2, sys, 24) : "");
		else if (n > 0)
			snprintf(line + len, sizeof line - (size_t)len, " at %s",
			    d9o_fit(b1, sizeof b1, d9m_frame_name(&f[0]),
			    (size_t)(76 - len)));
		fprintf(o->f, "%s", line);
	}
	if (g->label != NULL || app != NULL) {
		/* the row's name (model/labels.h), else its first
		 * application frame */
		fprintf(o->f, "\n%*sfrom ", indent + 8, "");
		d9o_wrap_at(o->f, g->label != NULL ? g->label : d9o_fit(b3,
		    sizeof b3, app, (size_t)(80 - indent - 13)), indent + 13,
		    80);
	} else
		fprintf(o->f, "\n");
	free(f);
}
