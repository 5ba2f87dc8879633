/*
 * kallsyms.c: the file (a regular one, at most D9_FILE_MAX_TEXT) is read
 * whole; names are copied into an arena and the (address, name) pairs
 * sorted once. A line is read by base/ksymline.
 */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/file.h"
#include "base/ksymline.h"
#include "base/vec.h"
#include "symbolize/kallsyms.h"
#include "symbolize/search.h"

struct ksym {
	uint64_t	 addr;
	const char	*name;
};

struct d9s_kallsyms {
	struct ksym	*sym;
	size_t		 n, cap;
	size_t		 nbad, first_bad;	/* lines not read, the first's
						 * number */
	struct d9_arena	 arena;
};

static int
cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Line number no; 1 when it is a text symbol, stored. -1 on no memory. */
static int
parse_line(struct d9s_kallsyms *k, const char *line, size_t no,
    size_t *zero)
{
	const char *name;
	uint64_t addr;
	size_t len;
	char *copy;

	switch (d9_ksym_line(line, &addr, &name, &len)) {
	case D9_KSYM_ZERO:
		(*zero)++;
		return 0;
	case D9_KSYM_TEXT:
		break;
	case D9_KSYM_BAD:
		if (k->nbad++ == 0)
			k->first_bad = no;
		return 0;
	default:
		return 0;
	}
	if (d9_grow(&k->sym, &k->cap, k->n + 1, sizeof *k->sym) == -1 ||
	    (copy = d9_arena_alloc(&k->arena, len + 1, 1)) == NULL)
		return -1;
	memcpy(copy, name, len);
	copy[len] = '\0';
	k->sym[k->n].addr = addr;
	k->sym[k->n++].name = copy;
	return 1;
}

int
d9s_kallsyms_load(struct d9s_kallsyms **out, const char *path,
    struct d9_err *e)
{
	struct d9s_kallsyms *k;
	char *line = NULL;
	size_t cap = 0, zero = 0, no = 0;
	uint64_t total = 0;
	ssize_t len;
	struct d9_err fe;
	FILE *f;
	int fd, rc = 0;

	*out = NULL;
	/* a regular file; /proc/kallsyms says size 0, so the size is also
	 * counted as it is read */
	if ((fd = d9_file_open(path, D9_FILE_MAX_TEXT, NULL, &fe)) == -1)
		return d9_err_set(e, fe.code, 0, "%s: %s", path, fe.msg);
	if ((f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "kallsyms");
	}
	if ((k = calloc(1, sizeof *k)) == NULL) {
		fclose(f);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "kallsyms");
	}
	d9_arena_init(&k->arena, 0);
	while (rc == 0 && (len = getline(&line, &cap, f)) != -1) {
		if ((total += (uint64_t)len) > D9_FILE_MAX_TEXT)
			rc = d9_err_set(e, D9_ERR_TOO_BIG, 0, "%s: larger than "
			    "%llu MiB, not read", path,
			    (unsigned long long)(D9_FILE_MAX_TEXT >> 20));
		else if (parse_line(k, line, ++no, &zero) < 0)
			rc = d9_err_set(e, D9_ERR_NOMEM, 0, "kallsyms");
	}
	free(line);
	if (rc == 0 && ferror(f))
		rc = d9_err_set(e, D9_ERR_IO, 0, "%s: read error", path);
	fclose(f);
	if (rc != 0) {
		d9s_kallsyms_free(&k);
		return rc;
	}
	if (k->n == 0) {
		d9s_kallsyms_free(&k);
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0, zero > 0 ?
		    "%s: every address is zero (read under kptr_restrict; "
		    "copy /proc/kallsyms as root)" : "%s: no kernel text "
		    "symbols (not a /proc/kallsyms copy?)", path);
	}
	qsort(k->sym, k->n, sizeof *k->sym, cmp_ksym);
	*out = k;
	return 0;
}

void
d9s_kallsyms_free(struct d9s_kallsyms **kp)
{
	struct d9s_kallsyms *k = *kp;

	if (k == NULL)
		return;
	free(k->sym);
	d9_arena_free(&k->arena);
	free(k);
	*kp = NULL;
}

size_t
d9s_kallsyms_bad(const struct d9s_kallsyms *k, size_t *first)
{
	*first = k->first_bad;
	return k->nbad;
}

const char *
d9s_kallsyms_find(const struct d9s_kallsyms *k, uint64_t addr)
{
	/* first symbol above addr; the one before it holds addr */
	size_t lo = d9s_upper_bound(k->sym, k->n, sizeof *k->sym, addr);

	return lo == 0 ? NULL : k->sym[lo - 1].name;
}

