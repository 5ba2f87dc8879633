/*
 * ksyms.c: names for the kernel frames of context-switch samples, from
 * /proc/kallsyms, as dial9's recorder gives them (FORMAT 3.2.2: a
 * kernel symbol has no file; "[kernel] 0x..." with file "kernel" where
 * kallsyms is unreadable).
 *
 * The file is not kept in memory: its ~120 000 text symbols would take
 * about 4 MB for the writer's whole life. When a sealed segment has
 * kernel addresses not named yet, one pass over the file names them all
 * (about 80 ms of the flush thread's time, most of it the kernel
 * writing the file out), and the writer keeps only those names. A
 * program's kernel paths are few (the scheduler, futex, poll, sleep and
 * interrupt paths), so after its first segments a pass is rare. The
 * file is not assumed sorted: a symbol is a candidate for the first
 * needed address at or above it, and a sweep in address order then
 * gives every address the highest candidate at or below it. A file
 * that cannot be read, or whose addresses are all zero (kptr_restrict),
 * is not read again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/ksymline.h"
#include "base/vec.h"
#include "rec/rec.h"

#define KNAME		256		/* longer names are cut */
#define KLINE		1024		/* longer lines are skipped */
#define KFILE_MAX	((uint64_t)64 << 20)	/* bytes read at most */

struct ksyms {
	struct d9_hmap	 rows;		/* address -> row */
	char		**name;		/* per row; NULL: no symbol */
	size_t		 n, cap;
	int		 off;		/* unreadable: never again */
	unsigned	 passes;
};

static int
keep(struct ksyms *k, uint64_t addr, const char *name)
{
	char *copy = NULL;

	if (d9_grow(&k->name, &k->cap, k->n + 1, sizeof *k->name) < 0)
		return -1;
	if (name != NULL && (copy = strdup(name)) == NULL)
		return -1;
	if (d9_hmap_put(&k->rows, addr, (uint32_t)k->n) < 0) {
		free(copy);
		return -1;
	}
	k->name[k->n++] = copy;
	return 0;
}

/* One pass over path: best[j] the highest symbol address that is a
 * candidate for need[j], its name in nm[j]. The number of text symbols
 * at a real address (none: unreadable, or read under kptr_restrict).
 * Lines are read into a fixed buffer; a longer one (no kallsyms line
 * is) is skipped. */
static size_t
scan(const char *path, const uint64_t *need, size_t m, uint64_t *best,
    char (*nm)[KNAME])
{
	FILE *f = fopen(path, "re");
	uint64_t total = 0, a;
	const char *name;
	char line[KLINE];
	size_t len, text = 0, j;
	int whole = 1, was_whole;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL &&
	    (total += strlen(line)) <= KFILE_MAX) {
		was_whole = whole;
		whole = strchr(line, '\n') != NULL || feof(f);
		if (!was_whole || !whole)
			continue;	/* part of an overlong line */
		if (d9_ksym_line(line, &a, &name, &len) != D9_KSYM_TEXT)
			continue;
		text++;
		if ((j = d9_bisect_u64(need, 0, m, a)) == m || a <= best[j])
			continue;
		best[j] = a;
		len = len < KNAME - 1 ? len : KNAME - 1;
		memcpy(nm[j], name, len);
		nm[j][len] = '\0';
	}
	fclose(f);
	return text;
}

int
d9rec_ksyms_resolve(struct ksyms **kp, const char *path,
    const uint64_t *need, size_t m)
{
	struct ksyms *k = *kp;
	uint64_t *best;
	char (*nm)[KNAME];
	size_t text, c = m;
	int rc = 0;

	if (k == NULL) {
		if ((k = *kp = calloc(1, sizeof *k)) == NULL)
			return -1;
		d9_hmap_init(&k->rows);
	}
	if (k->off || m == 0)
		return k->off ? -1 : 0;
	best = calloc(m, sizeof *best);
	nm = calloc(m, sizeof *nm);
	if (best == NULL || nm == NULL) {
		free(best);
		free(nm);
		return -1;
	}
	k->passes++;
	if ((text = scan(path, need, m, best, nm)) == 0)
		k->off = 1;	/* unreadable, empty, or all zero */
	for (size_t j = 0; rc == 0 && text > 0 && j < m; j++) {
		if (best[j] != 0 && (c == m || best[j] > best[c]))
			c = j;
		rc = keep(k, need[j], c == m ? NULL : nm[c]);
	}
	free(best);
	free(nm);
	return k->off ? -1 : rc;
}

int
d9rec_ksyms_known(const struct ksyms *k, uint64_t addr)
{
	return k != NULL && (k->off || d9_hmap_get(&k->rows, addr) != D9_NONE);
}

const char *
d9rec_ksyms_name(const struct ksyms *k, uint64_t addr)
{
	uint32_t row = k != NULL ? d9_hmap_get(&k->rows, addr) : D9_NONE;

	return row == D9_NONE ? NULL : k->name[row];
}

unsigned
d9rec_ksyms_passes(const struct ksyms *k)
{
	return k != NULL ? k->passes : 0;
}

void
d9rec_ksyms_free(struct ksyms **kp)
{
	struct ksyms *k = *kp;

	if (k == NULL)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->name[i]);
	free(k->name);
	d9_hmap_free(&k->rows);
	free(k);
	*kp = NULL;
}
