/*
 * redo.h: sources exported from an input that was cut, to be exported
 * again. A file copied into a host directory while it is being copied
 * reads cut: what it held then is exported (its segments row says
 * complete = false), but its leaves are named by the source's key like
 * any, so a later export of the whole file would find them in place and
 * skip it for good. So each key exported from a cut input is marked,
 * OUTDIR/.cut/<key> (marks.h): a
 * marked key counts as not exported, and exporting it again first
 * removes its leaves in every table and partition (the partition may
 * have changed: metadata read later), then writes them anew and drops
 * the mark once the input read whole. An input that stays cut is
 * exported again at every run, which costs its own size.
 */
#ifndef D9X_REDO_H
#define D9X_REDO_H

/* Remove key's leaves from every table under outdir: 0, or -1 with errno
 * when one could not be removed. */
int	d9x_redo_clear(const char *outdir, const char *key);

#endif
