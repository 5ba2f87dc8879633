/*
 * demangle.c: bfd_demangle() semantics on top of libiberty. The prefix
 * and suffix handling matters for ELF symbol names ("foo@GLIBC_2.2.5",
 * "._Z3fooi"); DWARF linkage names normally need none of it.
 */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "base/demangle.h"

#define D9_DMGL_FLAGS (DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO)

char *
d9_demangle(const char *sym)
{
	const char *pre = sym, *suf;
	char *base = NULL, *res, *out;
	size_t pre_len, res_len, suf_len;

	if (sym == NULL)
		return NULL;
	while (*sym == '.' || *sym == '$')
		sym++;
	pre_len = (size_t)(sym - pre);
	if (*sym == '\0')
		return NULL;
	suf = strchr(sym, '@');
	if (suf != NULL) {
		base = strndup(sym, (size_t)(suf - sym));
		if (base == NULL)
			return NULL;
		sym = base;
	}
	res = cplus_demangle(sym, D9_DMGL_FLAGS);
	free(base);
	if (res == NULL || (pre_len == 0 && suf == NULL))
		return res;
	res_len = strlen(res);
	suf_len = suf != NULL ? strlen(suf) : 0;
	out = malloc(pre_len + res_len + suf_len + 1);
	if (out != NULL) {
		memcpy(out, pre, pre_len);
		memcpy(out + pre_len, res, res_len);
		memcpy(out + pre_len + res_len, suf != NULL ? suf : "",
		    suf_len + 1);
	}
	free(res);
	return out;
}
