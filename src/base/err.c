/*
 * err.c: the error record; messages come from the one table in err.h.
 * A message often quotes a file or schema name: it is escaped as it is
 * recorded (base/text.h), so no caller can print a raw one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"

static const char *const d9_err_names[] = {
#define D9_X(name, text) text,
	D9_ERRORS(D9_X)
#undef D9_X
};

const char *
d9_err_name(int code)
{
	if (code < 0)
		code = -code;
	if (code >= D9_ERR_COUNT)
		return "unknown error";
	return d9_err_names[code];
}

int
d9_err_set(struct d9_err *e, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return -code;
	e->code = code;
	e->off = off;
	va_start(ap, fmt);
	d9_text_vformat(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -code;
}

void
d9_err_clear(struct d9_err *e)
{
	memset(e, 0, sizeof *e);
}
