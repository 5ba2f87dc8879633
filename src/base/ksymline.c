/*
 * ksymline.c: a kallsyms line. Lines that do not parse are told apart
 * (D9_KSYM_BAD) for the reader to count; none stops a read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/ksymline.h"

enum d9_ksym
d9_ksym_line(const char *line, uint64_t *addr, const char **name,
    size_t *len)
{
	const char *type, *nm;
	char *end;
	uint64_t a;
	size_t n;

	if (line[strspn(line, " \t\r\n")] == '\0')
		return D9_KSYM_SKIP;
	errno = 0;
	a = strtoull(line, &end, 16);
	if (end == line || errno != 0 || (*end != ' ' && *end != '\t'))
		return D9_KSYM_BAD;
	type = end + strspn(end, " \t");
	if (*type == '\0' || (type[1] != ' ' && type[1] != '\t'))
		return D9_KSYM_BAD;
	nm = type + 1 + strspn(type + 1, " \t");
	if ((n = strcspn(nm, " \t\r\n")) == 0)
		return D9_KSYM_BAD;
	if (strchr("tTwW", *type) == NULL)
		return D9_KSYM_SKIP;
	if (a == 0)
		return D9_KSYM_ZERO;
	*addr = a;
	*name = nm;
	*len = n;
	return D9_KSYM_TEXT;
}
