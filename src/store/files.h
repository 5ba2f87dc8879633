/*
 * files.h: the input files an entry of the index was made from (what its
 * key sums, cache.h), and how today's files differ from them. The list
 * is kept beside the entry ("<roots>.files", written with it), so that a
 * directory that changed since its entry was written is told apart:
 * grown (the entry's files are the first of today's, each unchanged:
 * same path, device, inode, size and modification time) or changed (a
 * file replaced, removed, an .active segment sealed under its final
 * name, a file added before the end). Growing an entry (reading only
 * the new files) needs the first; the second means the whole read.
 *
 * A list read back is untrusted input like an entry: its size, count
 * and every length are checked, and a bad one is no list (the whole
 * read, never a wrong figure).
 */
#ifndef D9I_FILES_H
#define D9I_FILES_H

#include <stddef.h>
#include <stdint.h>

/* One input file: its path as the walk named it and its identity. */
struct d9i_file {
	char		*path;
	/* dev, ino, size, mtime s, ns, ctime s, ns, in_dir: what the
	 * key sums */
	uint64_t	 id[8];
};

struct d9i_files {
	struct d9i_file	*v;
	size_t		 n, cap;
	int		 live;		/* an .active segment being written
					 * (d9p_is_written), or a file that
					 * is not regular */
};

/* Every input file of paths in reading order (parse/reader.h's walk):
 * 0, or -1 when out of memory or a path cannot be walked. */
int	 d9i_files_list(const char *const *paths, size_t npaths,
	    struct d9i_files *fl);
/* The checksum of fl: an entry's key.files (cache.h). */
uint64_t d9i_files_sum(const struct d9i_files *fl);
void	 d9i_files_free(struct d9i_files *fl);

/* Keep fl (of the entry of key files) as name in the directory open at
 * dfd, through a temporary file renamed into place: 0, or -1. */
int	 d9i_files_save(int dfd, const char *name, uint64_t files,
	    const struct d9i_files *fl);
/* Read name back: 0 with *fl and *files (its entry's key.files), or -1
 * when there is none or it is not a sound list. */
int	 d9i_files_load(int dfd, const char *name, uint64_t *files,
	    struct d9i_files *fl);

/* How today's files differ from an entry's. */
enum d9i_change {
	D9I_SAME,		/* nothing changed */
	D9I_GROWN,		/* the entry's files, then new ones */
	D9I_REPLACED,		/* a file has other bytes (size, mtime,
				 * inode or device) */
	D9I_REMOVED,		/* a file of the entry's is gone */
	D9I_SEALED,		/* an .active segment has its final name */
	D9I_INSERTED,		/* a new file comes before an old one */
	D9I_NONE		/* no entry of these roots to compare */
};

struct d9i_prior {
	enum d9i_change	 how;
	size_t		 kept;		/* the entry's files, unchanged */
	size_t		 added;		/* today's files after them */
	uint64_t	 files;		/* the entry's key.files */
};

/* How now differs from old (old: the entry's list). */
void	 d9i_files_compare(const struct d9i_files *old,
	    const struct d9i_files *now, struct d9i_prior *p);
/* A word for how ("grown", "replaced", ...). */
const char *d9i_change_name(enum d9i_change how);
/* How p's inputs changed, for a message: "1 new file since the index's
 * entry of the 57 others", "a segment was sealed since the index's
 * entry", "files removed since the index's entry". */
void	 d9i_prior_say(const struct d9i_prior *p, char *buf, size_t size);

#endif
