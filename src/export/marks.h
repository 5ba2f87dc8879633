/*
 * marks.h: what an export remembers beside the tables: empty files in a
 * dot folder of OUTDIR (no table's reader looks there), each named by
 * what it marks. Two kinds: `.cut/<key>`, a source exported from a cut
 * input, to be exported again (redo.h); `.whole/<key>-<bytes>`, a file
 * of that many bytes whose first segment is source key, read whole and
 * every one of its segments exported, so that the next run need not
 * read it again (export.h).
 */
#ifndef D9X_MARKS_H
#define D9X_MARKS_H

#include "base/intern.h"

#define D9X_MARKS_CUT	".cut"
#define D9X_MARKS_WHOLE	".whole"
#define D9X_MARK_MAX	64	/* a mark's name, NUL included */

/* The marks in outdir's folder into names (those valid names of that
 * folder's kind: a key; a key, '-' and a decimal size): 1, or 0 when the
 * folder is not there (nothing marked ever), or -1 out of memory. */
int	d9x_marks_scan(const char *outdir, const char *folder,
	    struct d9_intern *names);
/* Remove the whole marks of outdir whose key (their first 32 digits) is
 * not in keys (the exported ones: a mark outlives nothing it marks, so
 * OUTDIR's partitions removed take their marks too). */
void	d9x_marks_prune(const char *outdir, const struct d9_intern *keys);
/* Make outdir's folder (there already: nothing): 0, or -1 with errno. */
int	d9x_marks_folder(const char *outdir, const char *folder);
/* Mark name in folder: 0, or -1 with errno. */
int	d9x_mark(const char *outdir, const char *folder, const char *name);
/* Drop name's mark (none: nothing). */
void	d9x_unmark(const char *outdir, const char *folder,
	    const char *name);
/* The name of the whole mark of a file of size bytes whose first
 * segment is key (32 hex digits). */
void	d9x_whole_name(const char *key, unsigned long long size,
	    char name[D9X_MARK_MAX]);

#endif
