/*
 * plt.h: names for the entries of an x86-64 file's procedure linkage
 * table, as objdump and perf show them ("clock_gettime@plt"). No symbol
 * covers them, so a CPU sample taken while a call goes through one was
 * left as an address. Each entry of .plt, .plt.sec and .plt.got whose
 * code jumps through a GOT slot (jmp *disp32(%rip), after an endbr64 or
 * a bnd prefix) takes the name of the dynamic symbol that a JUMP_SLOT or
 * GLOB_DAT relocation puts in that slot (binutils' synthetic symbols do
 * the same). Other machines, and entries that jump elsewhere (the lazy
 * resolver's first entry), get none.
 */
#ifndef D9S_PLT_H
#define D9S_PLT_H

#include <stddef.h>
#include <stdint.h>

#include <libelf.h>

#include "base/arena.h"

struct d9s_pltent {
	uint64_t	 addr, size;	/* link address of the entry (first:
					 * plt.c looks it up by it) */
	const char	*name;		/* "sym@plt", in the arena */
};

struct d9s_plt {
	struct d9s_pltent	*e;	/* by address */
	size_t			 n;
};

/* The named entries of elf (none when it has no PLT or is not x86-64);
 * names in arena. 0, or -1 when out of memory (p holds what it had). */
int	d9s_plt_load(struct d9s_plt *p, Elf *elf, struct d9_arena *arena);
void	d9s_plt_free(struct d9s_plt *p);
/* The name of the entry holding addr, or NULL. */
const char *d9s_plt_find(const struct d9s_plt *p, uint64_t addr);

#endif
