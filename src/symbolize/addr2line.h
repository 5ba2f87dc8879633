/*
 * addr2line.h: binutils `addr2line -f -i -C`'s answers as frames: a
 * binary opened once, then each address resolved to what binutils 2.40
 * prints for it, innermost (inline) frame first. The command line
 * (`d9top --addr2line`: arguments, printing, exit codes) is
 * src/app/addr2line.c.
 */
#ifndef D9S_ADDR2LINE_H
#define D9S_ADDR2LINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "symbolize/dwarf.h"

struct d9s_module;

/* A binary whose addresses are resolved. */
struct d9s_a2l {
	struct d9s_module	*m;
	struct d9s_dwarf	*dw;	/* NULL: symbols only */
};

struct d9s_a2l_frame {
	const char	*function;	/* NULL or "": unknown ("??");
					 * demangled */
	const char	*file;		/* NULL: unknown ("??") */
	uint32_t	 line;		/* 0: unknown ("?") */
	uint32_t	 discriminator;	/* 0: none */
};

/* One address's frames (valid until the next resolve or close). */
struct d9s_a2l_answer {
	size_t			 n;	/* 0: nothing known ("??", "??:0") */
	struct d9s_a2l_frame	 f[D9S_MAX_FRAMES];
	char			*demangled;	/* owned: f[0].function */
};

/* Open exe, its separate debug files looked for in dirs first: 0, or
 * -1 with e (the file cannot be read, or out of memory). When its DWARF
 * is there but unreadable, warn says why (else it is ""), and its
 * addresses are named by the symbol table. */
D9_MUST_USE
int	d9s_a2l_open(struct d9s_a2l *a, const char *exe,
	    const char *const *dirs, size_t ndirs, struct d9_err *e,
	    char *warn, size_t warnlen);
/* 1 when a 32-bit binary (addresses printed with 8 digits, not 16). */
int	d9s_a2l_elf32(const struct d9s_a2l *a);
/* The frames of pc into *ans (zeroed before the first; its earlier
 * answer dropped): 0, or -1 when out of memory. */
D9_MUST_USE
int	d9s_a2l_resolve(struct d9s_a2l *a, uint64_t pc,
	    struct d9s_a2l_answer *ans);
void	d9s_a2l_answer_free(struct d9s_a2l_answer *ans);
void	d9s_a2l_close(struct d9s_a2l *a);

#endif
