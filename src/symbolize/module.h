/*
 * module.h: one binary as the symbolizer sees it. Opening reads the ELF
 * file (elffile.h) and finds where its DWARF lives: in the file itself,
 * else in a separate debug file found by build id
 * (DIR/.build-id/xx/rest.debug for each debug directory, then
 * /usr/lib/debug) or by .gnu_debuglink (next to the binary, in .debug/
 * beside it, and under each debug directory; the CRC must match). The
 * DWARF index (dwarf.h) is built on first use and kept.
 */
#ifndef D9S_MODULE_H
#define D9S_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "symbolize/dwarf.h"
#include "symbolize/elffile.h"

struct d9s_module {
	char			*path;		/* as given */
	char			*debug_path;	/* has the DWARF, or NULL */
	struct d9_err		 nodebug;	/* why debug_path is NULL */
	struct d9s_elffile	 elf;		/* the binary */
	struct d9s_elffile	 dbg;		/* separate debug file */
	int			 has_dbg;
	const struct d9s_elfsyms *syms;		/* the better of the two */
	struct d9s_dwarf	*dwarf;		/* built on first use */
	int			 dwarf_state;	/* 0 not yet, 1 ok, -1 failed */
	struct d9_err		 dwarf_err;	/* why it failed */
};

/*
 * Open path. debug_dirs (ndirs entries, may be NULL) are searched before
 * /usr/lib/debug. When want_len > 0 the file's build id must equal
 * want_id, else the module is refused with a message giving both ids.
 * 0 or -D9_ERR_*.
 */
int	d9s_module_open(struct d9s_module **out, const char *path,
	    const char *const *debug_dirs, size_t ndirs, const uint8_t *want_id,
	    size_t want_len, struct d9_err *e);
void	d9s_module_free(struct d9s_module **m);
/* The DWARF index, read in a child process on the first call (dwarf.h).
 * 0 and *out set, or -D9_ERR_* (the same error on every later call). */
int	d9s_module_dwarf(struct d9s_module *m, struct d9s_dwarf **out,
	    struct d9_err *e);
/*
 * When m has DWARF that could not be read (refused by dwcheck.h, its
 * reader died, an unsupported compression, ...; not for lack of
 * memory), the message for people into out (cap bytes, at least 128):
 * "DWARF of F unreadable: names from its symbol table only (why)", F
 * escaped (base/text.h) and, when too long for out, cut in the middle.
 * 0, or -1 (out untouched) when that is not the case.
 */
int	d9s_module_unreadable(const struct d9s_module *m, char *out,
	    size_t cap);

#endif
