/*
 * cachefix.h: what the tests of d9top's index (store/cache.h) share: a
 * fresh index per test, its entries, and d9top's output compared with
 * what it prints reading the traces.
 */
#ifndef E2E_CACHEFIX_H
#define E2E_CACHEFIX_H

#include <stddef.h>

/* A fresh directory and XDG_CACHE_HOME under it: the index is
 * <dir>/xdg/d9top. */
struct fix {
	char	 dir[64];
	char	 idx[96];
};

void	fix_init(struct fix *f);
/* Wait for the index's writers, remove the directory. */
void	fix_free(struct fix *f);
/* How many entries the index holds, once written; the path of the last
 * in *path (when given). */
int	entries(const struct fix *f, char *path, size_t len);
/* Make an entry look unused since 2001, so that a read shows. */
void	age(const char *path);
/* Whether an entry aged so was read since. */
int	was_read(const char *path);
/* stdout of d9top args (*n bytes; it must exit 0). */
char	*out_of(const char *args, size_t *n);
/* d9top args prints want (nwant bytes), and exits 0. */
void	same(const char *args, const char *want, size_t nwant);

/* Copy the shared trace name into dir (as: its name there, NULL: the
 * same). */
void	copy_trace_as(const char *dir, const char *name, const char *as);
#define copy_trace(dir, name)	copy_trace_as(dir, name, NULL)
/* --json of dir through the index (written, then read) equals
 * --no-cache's, and differs from before (NULL: anything): the output,
 * malloc'd. */
char	*dir_matches(const char *dir, const char *before);

#endif
