/*
 * elfsyms.h: the ELF symbol table of one file, kept for function names
 * where DWARF has none (and, later, for load-bias inference by name).
 * Like binutils, .symtab is used when it has symbols, else .dynsym. Only
 * symbols that can name code are kept (no FILE, SECTION, OBJECT, TLS or
 * undefined ones), sorted by (section, address, table order). Each keeps
 * the name of the STT_FILE symbol binutils would pair with it.
 */
#ifndef D9S_ELFSYMS_H
#define D9S_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

#include <libelf.h>

#include "base/arena.h"
#include "base/err.h"

struct d9s_elfsym {
	uint64_t	 addr;
	uint64_t	 size;		/* st_size; 0 counts as 1 in lookups */
	const char	*name;		/* in the owner's arena */
	const char	*file;		/* STT_FILE name, or NULL */
	uint32_t	 order;		/* index in the symbol table */
	uint32_t	 shndx;		/* section index */
};

struct d9s_elfsyms {
	struct d9s_elfsym	*sym;
	size_t			 n;
	int			 dynamic;	/* came from .dynsym */
};

/* Read the symbols of elf; names are copied into arena. An absent table
 * is not an error (n = 0). 0 or -D9_ERR_*. */
int	d9s_elfsyms_load(struct d9s_elfsyms *s, Elf *elf,
	    struct d9_arena *arena, struct d9_err *e);
void	d9s_elfsyms_free(struct d9s_elfsyms *s);
/*
 * The symbol binutils' _bfd_elf_find_function() picks for addr in section
 * shndx: the highest start <= addr; among equal starts the smallest that
 * covers addr, else the largest. It need not cover addr (*covers says).
 * NULL when no symbol starts at or before addr in that section.
 */
const struct d9s_elfsym	*d9s_elfsyms_find(const struct d9s_elfsyms *s,
			    uint32_t shndx, uint64_t addr, int *covers);

#endif
