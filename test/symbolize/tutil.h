/*
 * tutil.h: helpers shared by the symbolizer tests: scratch directories,
 * running a program with redirected stdin/stdout, whole-file I/O, the
 * test binaries' paths (passed on the command line, see test_main.c) and
 * splitting `addr2line -a` output into one block per address.
 */
#ifndef D9S_TUTIL_H
#define D9S_TUTIL_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

struct tdir {
	char	path[PATH_MAX];
};

/* One address and the lines printed for it (NUL-separated in text). */
struct a2l_block {
	uint64_t	 addr;
	const char	*text;		/* lines joined with '\n' */
};

struct a2l_out {
	char			*buf;
	struct a2l_block	*b;
	size_t			 n;
};

void		 tdir_make(struct tdir *d);
void		 tdir_remove(struct tdir *d);
/* d->path + "/" + name into out (PATH_MAX bytes). */
char		*tdir_file(const struct tdir *d, const char *name, char *out);
/* Exit status of argv[0] run with stdin from in_path and stdout to
 * out_path (either may be NULL), or -1 when it could not run. */
int		 run_cmd(char *const argv[], const char *in_path,
		    const char *out_path);
char		*read_all(const char *path, size_t *len);
/* Everything written to f (a tmpfile), as a string; closes f. */
char		*stream_text(FILE *f);
void		 write_all(const char *path, const void *p, size_t len);
/* File offset of the section called name in the ELF file bin (its size
 * in *size), or 0 when there is none. */
size_t		 section_at(const char *bin, const char *name, size_t *size);
/* Path given for key on the command line; NULL when absent or empty. */
const char	*prog_path(const char *key);
/* Split the output of addr2line -a (binutils or ours) read from path. */
void		 a2l_parse(struct a2l_out *o, const char *path);
void		 a2l_free(struct a2l_out *o);
const char	*a2l_find(const struct a2l_out *o, uint64_t addr);

#endif
