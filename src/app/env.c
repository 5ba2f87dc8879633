/* env.c: see env.h. */
#include <stdlib.h>
#include <string.h>

#include "app/env.h"
#include "app/meter.h"

void
d9a_env_read(struct d9a_env *e)
{
	const char *s = getenv("D9TOP_STREAM"), *nc = getenv("NO_COLOR");
	const char *w = getenv("D9TOP_EXPORT_WORKERS");
	const char *pm = getenv("D9TOP_PROGRESS_MS");
	const char *tm = getenv("D9TOP_TIMES");
	char *end;
	unsigned long ms;

	e->stream_only = s != NULL && strcmp(s, "1") == 0;
	e->no_color = nc != NULL && *nc != '\0';
	e->export_workers = w != NULL && (strcmp(w, "1") == 0 ||
	    strcmp(w, "2") == 0) ? (unsigned)(w[0] - '0') : 0;
	e->times = tm != NULL && strcmp(tm, "1") == 0;
	e->term = getenv("TERM");
	e->progress_ms = D9A_METER_DELAY_MS;
	if (pm != NULL && *pm >= '0' && *pm <= '9') {
		ms = strtoul(pm, &end, 10);
		if (*end == '\0' && ms <= 3600000)
			e->progress_ms = (unsigned)ms;
	}
}
