/*
 * inputs.h: what an export reads (export.h). Every file of the paths
 * given, in the walk's order (parse/reader.h), and stdin last for "-";
 * a pipe or a device named as a path stays open from the walk (its bytes
 * come once: it is read from there, never opened again nor peeked at).
 * Each file is named by the segment it begins with (parse/segid.h), and
 * of the files that begin with the same segment the one with the most
 * decoded bytes is read: the others are copies (a sealed file holds all
 * of its .active prefix, a processed .gz adds the symbol table).
 */
#ifndef D9X_INPUTS_H
#define D9X_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "parse/segid.h"

struct d9x_input {
	char		*path;		/* NULL: stdin */
	int		 fd;		/* a pipe or a device named, open
					 * since the walk, -1: none */
	uint8_t		 base[16];	/* its identity (have_id) */
	int		 have_id;
	int		 copy;		/* another file holds its
					 * segment */
	uint64_t	 size;		/* a regular file's bytes */
};

struct d9x_inputs {
	struct d9x_input *v;
	size_t		  n, cap;
};

/* The inputs of paths ("-": stdin) into in (zeroed first); note (may be
 * NULL) hears the walk's messages. 0, or -1 when out of memory. */
int	d9x_inputs_list(struct d9x_inputs *in, const char *const *paths,
	    size_t npaths, void (*note)(void *, const char *), void *ctx);
/* Name each file by its segment and mark the copies: 0, or -1 when out
 * of memory. */
int	d9x_inputs_identify(struct d9x_inputs *in);
/* Free the paths, close what stays open. */
void	d9x_inputs_free(struct d9x_inputs *in);
/* The identity of the segment named by id (segid.h): a file's, or a
 * segment's of a stream, which are the same for the same segment. */
void	d9x_segid_base(const struct d9p_segid *id, uint8_t base[16]);

#endif
