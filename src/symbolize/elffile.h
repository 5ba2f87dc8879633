/*
 * elffile.h: what d9top needs from one ELF file, read once with libelf and
 * copied out so the file can be closed: the GNU build id, PT_LOAD
 * segments (file offset -> link address), the SHF_ALLOC sections (which
 * section holds an address, as addr2line asks), the symbol table, the
 * names of the PLT's entries, the .gnu_debuglink name and CRC, and
 * whether DWARF is present. Every field
 * comes through libelf's bounds-checked calls: a truncated or hostile
 * file gives an error or fewer facts, never a read past its end.
 */
#ifndef D9S_ELFFILE_H
#define D9S_ELFFILE_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "symbolize/elfsyms.h"
#include "symbolize/plt.h"

#define D9S_BUILD_ID_MAX 64

struct d9s_segment {
	uint64_t	off, filesz;	/* in the file */
	uint64_t	vaddr, memsz;	/* link addresses */
	uint32_t	flags;		/* PF_R | PF_W | PF_X */
};

struct d9s_section {
	uint64_t	addr, size;
	uint32_t	index;		/* section header index */
};

struct d9s_elffile {
	struct d9_arena		 arena;		/* names */
	uint8_t			 build_id[D9S_BUILD_ID_MAX];
	size_t			 build_id_len;	/* 0: none */
	struct d9s_segment	*seg;		/* PT_LOAD, in header order */
	size_t			 nseg;
	struct d9s_section	*sec;		/* SHF_ALLOC, in header order */
	size_t			 nsec;
	struct d9s_elfsyms	 syms;
	struct d9s_plt		 plt;		/* x86-64: its entries' names */
	const char		*debuglink;	/* .gnu_debuglink or NULL */
	uint32_t		 debuglink_crc;
	int			 has_dwarf;	/* .debug_info with contents */
	int			 zstd_dwarf;	/* ... compressed with zstd */
	uint16_t		 type;		/* ET_EXEC, ET_DYN, ... */
	uint8_t			 elfclass;	/* ELFCLASS32 or ELFCLASS64 */
};

/* 0 or -D9_ERR_*; on error f holds nothing to free. e->msg does not name
 * the file (callers prefix it). */
int	d9s_elffile_open(struct d9s_elffile *f, const char *path,
	    struct d9_err *e);
void	d9s_elffile_close(struct d9s_elffile *f);
/* The first SHF_ALLOC section (header order) holding addr, or NULL. */
const struct d9s_section *d9s_elffile_section(const struct d9s_elffile *f,
	    uint64_t addr);
/* Map a file offset to a link address through the PT_LOAD holding it:
 * vaddr = off - p_offset + p_vaddr. 0, or -1 when no segment holds it. */
int	d9s_elffile_vaddr(const struct d9s_elffile *f, uint64_t off,
	    uint64_t *vaddr);
/* Lowercase hex of id into out (2 * len + 1 bytes). */
void	d9s_build_id_hex(const uint8_t *id, size_t len, char *out);

#endif
