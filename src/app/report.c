/* report.c: --report (placeholder until the full report lands). */
#include "app/output.h"

void
d9a_report(const struct d9a_out *o)
{
	fprintf(o->f, "d9top report\n");
}
