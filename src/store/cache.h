/*
 * cache.h: the persistent index of d9top (DESIGN.md): the finished model
 * of a set of input files, kept as an image (image.h) under
 * $XDG_CACHE_HOME/d9top (default ~/.cache/d9top), so that opening the
 * same files again maps the model instead of reading the traces.
 *
 * The key of an entry is a checksum of every input file in reading
 * order: the path as named, device, inode, size, modification and change
 * times. Any file added, removed, grown or touched gives another key, so
 * a stale entry is never found. Only sets of regular files have a key,
 * and none with an .active segment written to in the last 10 minutes (a
 * live recorder's: the next read would not find it): stdin, pipes and
 * live directories are read as always.
 *
 * It is only ever a cache: an entry that cannot be read, is damaged or
 * was made by another d9top is rebuilt without a word; entries are
 * written to a private temporary file and renamed into place, so two
 * d9top processes never see half an entry; when the directory grows
 * past its budget the least recently used entries go.
 *
 * It is private or unused (DESIGN.md): the directory must belong to
 * this user (the effective uid) and be writable by no one else; it is
 * made 0700, and every entry is opened through the directory checked,
 * without following links, and used only when it is a regular file of
 * this user's that no one else may write to. An entry is untrusted
 * input all the same (image_check.h).
 */
#ifndef D9I_CACHE_H
#define D9I_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "model/queries/lanes.h"
#include "model/core/model.h"
#include "store/files.h"

#define D9I_CACHE_BUDGET	((uint64_t)8 << 30)	/* bytes */

/* Where the index is (src/app reads it from the environment: the
 * store reads no environment). */
struct d9i_where {
	const char	*dir;		/* $XDG_CACHE_HOME/d9top; NULL: none */
	uint64_t	 budget;	/* bytes kept at most; 0: no index */
};

struct d9i_cache {
	char		*dir;		/* NULL: no cache */
	char		*why;		/* NULL, or why the directory there
					 * is not used (not escaped) */
	uint64_t	 budget;	/* bytes kept at most */
	const _Atomic int *cancel;	/* optional: set, a write stops */
};

/* The index at w (NULL, or no directory, or budget 0: none); c->dir
 * NULL when the directory there is not private (c->why says so, for the
 * caller to say once). */
int	 d9i_cache_init(struct d9i_cache *c, const struct d9i_where *w);
void	 d9i_cache_free(struct d9i_cache *c);
/* An entry's key: files, the checksum of every input file (above);
 * roots, of the paths as given, made absolute (realpath). An entry
 * written for roots replaces the others of the same roots: a directory
 * that gained a segment keeps one entry, not one per state. */
struct d9i_key {
	uint64_t	 files;
	uint64_t	 roots;
};

/* The key of paths: 0 with *key, or -1 when they cannot be cached. */
int	 d9i_cache_key(const char *const *paths, size_t npaths,
	    struct d9i_key *key);
/* The same, and the files it sums (*fl: free it), on 0. */
int	 d9i_cache_key_of(const char *const *paths, size_t npaths,
	    struct d9i_key *key, struct d9i_files *fl);
/* Look paths up: 0 with *out (finished, mapped) and its lanes (free them
 * first), also when only the files' change times differ from the
 * entry's (files.h: D9I_SAME); 1 when the index holds none (a damaged one is removed) but
 * could keep them under *key, and then (prior not NULL) how the files
 * differ from those of the entry of the same roots (files.h: D9I_NONE
 * when there is none); -1 when they cannot be indexed (no index, stdin,
 * a live directory). */
int	 d9i_cache_find(const struct d9i_cache *c, const char *const *paths,
	    size_t npaths, struct d9i_key *key, struct d9m_model **out,
	    struct d9m_lanes **lanes, struct d9i_prior *prior);
/* The entry of key (d9i_cache_find's), mapped: 0 with *out and *lanes;
 * 1 when there is none (a damaged one is removed). */
int	 d9i_cache_map(const struct d9i_cache *c, const struct d9i_key *key,
	    struct d9m_model **out, struct d9m_lanes **lanes);
/* Claim the writing of an entry of key's roots: a descriptor holding
 * the lock (it goes with a fork), or -1 when another d9top holds it or
 * there is no index. A d9i_cache_find that misses while the lock is held
 * waits for the writer (at most two seconds: then the traces are read)
 * and looks again. */
int	 d9i_cache_claim(const struct d9i_cache *c, const struct d9i_key *key);
/* The claim done (fd -1: none). */
void	 d9i_cache_release(const struct d9i_cache *c,
	    const struct d9i_key *key, int fd);
/* Keep m (finished, read from paths) and its lanes (NULL: made here)
 * under key, if paths still have that key (nothing changed while they
 * were read): 0, or -1 (nothing is left behind). The temporary files of
 * writers that died are removed first. */
int	 d9i_cache_put(const struct d9i_cache *c, const struct d9i_key *key,
	    const char *const *paths, size_t npaths, const struct d9m_model *m,
	    const struct d9m_lanes *lanes);

#endif
