/*
 * dwarf.h: the DWARF index of one binary (or its separate debug file) and
 * address lookups in it. The index is built in one pass with libdwarf
 * 20210528 (dwarf.c): one row per address range of every
 * DW_TAG_subprogram (also those nested in namespaces and types; ranges at
 * address 0, code dropped by the linker, are skipped), the line table of
 * every compile unit (lines.c), the inline tree of every function and
 * the name of every frame, demangled. The result is a flat buffer
 * (dwindex.h) that needs libdwarf no more: lookups are binary searches.
 *
 * libdwarf 20210528 trusts the DWARF it reads (DEPENDENCIES 4; it
 * crashes on some corrupted files), and a binary is untrusted input, so
 * d9s_dwarf_read() builds the index in a child process (isolate.h) and
 * takes back only the buffer, checked before use: a crash, an abort or a
 * hang in libdwarf costs the DWARF of that binary, not d9top.
 *
 * A lookup returns frames innermost first. Frame 0 takes file:line from
 * the line table; each outer frame takes DW_AT_call_file/DW_AT_call_line
 * of the inlined DIE below it. Names prefer DW_AT_linkage_name (demangled,
 * Rust hashes hidden), else DW_AT_name, following DW_AT_abstract_origin
 * and DW_AT_specification. Strings live as long as the index.
 */
#ifndef D9S_DWARF_H
#define D9S_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define D9S_MAX_FRAMES	32	/* deeper inline chains lose outer frames */

#define D9S_FRAME_INLINED	0x1	/* inlined into the next frame */
#define D9S_FRAME_LINKAGE	0x2	/* name is a linkage name (binutils'
					   is_linkage: also DW_AT_name in C) */
#define D9S_FRAME_SYMTAB	0x4	/* name from the ELF symbol table */
#define D9S_FRAME_NOFUNC	0x8	/* no function DIE covers the address:
					   file:line from the line table only */

struct d9s_frame {
	const char	*function;	/* NULL when unknown */
	const char	*file;		/* full path, NULL when unknown */
	uint32_t	 line;		/* 0 when unknown */
	uint32_t	 discriminator;	/* of the line-table row (frame 0) */
	uint32_t	 flags;		/* D9S_FRAME_* */
};

struct d9s_dwarf_stats {
	size_t	cus;		/* compile units indexed */
	size_t	dies;		/* DIEs visited while indexing */
	size_t	funcs;		/* function address ranges */
	size_t	rows;		/* line rows kept */
	size_t	errors;		/* libdwarf errors skipped while indexing */
};

struct d9s_dwarf;

/* Why d9s_dwarf_read() got no index from its child: the reader died
 * (signal, abort, time limit) or handed back a broken index. */
#define D9S_DWARF_LOST	D9_ERR_IO

/* Read the DWARF of path with libdwarf in this process and build the
 * index. 0 or -D9_ERR_* with e->msg saying what failed (the path is not
 * in it). For trusted files (tests, benchmarks): a crash in libdwarf is
 * a crash here. */
int	d9s_dwarf_open(struct d9s_dwarf **out, const char *path,
	    struct d9_err *e);
/* The same in a child process given timeout_ms to hand the index back.
 * The child's own errors come back as they are; when the child fails
 * the result is -D9S_DWARF_LOST with e->msg saying how ("the reader was
 * killed by SIGSEGV"). */
int	d9s_dwarf_read(struct d9s_dwarf **out, const char *path,
	    unsigned timeout_ms, struct d9_err *e);
/* The index as a flat buffer (dwindex.h), malloc'd: what the child hands
 * back. Same errors as d9s_dwarf_open(). */
int	d9s_dwarf_build(const char *path, void **buf, size_t *len,
	    struct d9_err *e);
void	d9s_dwarf_free(struct d9s_dwarf **d);
/*
 * Frames for link address addr into frames[0 .. cap): the count, 0 when
 * the DWARF knows nothing of addr, or -D9_ERR_NOMEM. frames[0].function
 * is NULL when only the line table covers addr.
 */
int	d9s_dwarf_lookup(struct d9s_dwarf *d, uint64_t addr,
	    struct d9s_frame *frames, size_t cap, struct d9_err *e);
void	d9s_dwarf_stats(const struct d9s_dwarf *d, struct d9s_dwarf_stats *st);
/* Bytes of the index buffer. */
size_t	d9s_dwarf_size(const struct d9s_dwarf *d);

#endif
