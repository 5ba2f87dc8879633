/*
 * symbolizer.h: the symbolizer API the rest of d9top calls. It owns the
 * binaries ("modules") a trace refers to, builds each one's DWARF index
 * on first use, and caches every answer per (module, address): traces
 * repeat addresses, so a repeated lookup is one hash probe.
 *
 *	struct d9s_symbolizer *sym;
 *	const struct d9s_frame *fr;
 *	size_t n;
 *	uint32_t mod;
 *
 *	if (d9s_symbolizer_new(&sym, &e) != 0) ...
 *	d9s_symbolizer_add_debug_dir(sym, "/srv/debug", &e);   (optional)
 *	if (d9s_symbolizer_add(sym, "/usr/bin/app", id, id_len, &mod, &e) != 0)
 *		... e.msg says why (unreadable, not ELF, build id mismatch)
 *	d9s_symbolizer_lookup(sym, mod, pc - bias, is_return_address, &fr, &n,
 *	    &e);
 *	for (i = 0; i < n; i++)   innermost (inlined) frame first
 *		show(fr[i].function, fr[i].file, fr[i].line);
 *	d9s_symbolizer_free(&sym);
 *
 * Addresses are link addresses (runtime PC minus load bias;
 * d9s_symbolizer_file_addr() maps a file offset). With is_return_address
 * the lookup is for addr - 1, which is right for every callchain entry
 * but the first. Kernel addresses (top bit set) give no frames. Without
 * DWARF the ELF symbol table names the function (D9S_FRAME_SYMTAB, no
 * file:line); n == 0 means nothing is known. Frames and strings stay
 * valid until d9s_symbolizer_free(). Functions return 0 or -D9_ERR_*
 * with e filled in; a module without debug info is not an error. The
 * DWARF of each module is read in a child process (dwarf.h): a binary
 * whose DWARF crashes the reader keeps its symbol-table names.
 */
#ifndef D9S_SYMBOLIZER_H
#define D9S_SYMBOLIZER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "symbolize/dwarf.h"

struct d9s_symbolizer;
struct d9s_elfsyms;

struct d9s_module_info {
	const char	*path;
	const char	*debug_path;	/* where the DWARF is read, or NULL */
	const char	*no_debug;	/* why there is none, or NULL */
	const uint8_t	*build_id;
	size_t		 build_id_len;
	uint64_t	 vaddr_lo;	/* lowest PT_LOAD p_vaddr */
	uint64_t	 vaddr_hi;	/* end of the highest PT_LOAD */
	uint64_t	 exec_lo;	/* span of the executable PT_LOADs */
	uint64_t	 exec_hi;	/* (lo == hi: none) */
};

int	d9s_symbolizer_new(struct d9s_symbolizer **out, struct d9_err *e);
void	d9s_symbolizer_free(struct d9s_symbolizer **sym);
/* Search dir (DIR/.build-id/xx/rest.debug, DIR/<debuglink>) before
 * /usr/lib/debug for modules added after this call. */
int	d9s_symbolizer_add_debug_dir(struct d9s_symbolizer *sym,
	    const char *dir, struct d9_err *e);
/* Add the binary at path; build_id may be NULL (no check), else the file
 * must carry exactly that build id or it is refused. *module is the id
 * for lookups. Adding the same path twice adds it twice. */
int	d9s_symbolizer_add(struct d9s_symbolizer *sym, const char *path,
	    const uint8_t *build_id, size_t build_id_len, uint32_t *module,
	    struct d9_err *e);
/* Call note(ctx, msg) when a module's DWARF cannot be read, once per
 * module (module.h d9s_module_unreadable()). */
void	d9s_symbolizer_on_note(struct d9s_symbolizer *sym,
	    void (*note)(void *ctx, const char *msg), void *ctx);
/* Build the module's DWARF index now instead of at the first lookup.
 * Returns why there is none as an error (lookups still use symbols). */
int	d9s_symbolizer_index(struct d9s_symbolizer *sym, uint32_t module,
	    struct d9_err *e);
int	d9s_symbolizer_lookup(struct d9s_symbolizer *sym, uint32_t module,
	    uint64_t link_addr, int is_return_address,
	    const struct d9s_frame **frames, size_t *nframes, struct d9_err *e);
/* File offset -> link address through the module's PT_LOAD segments. */
int	d9s_symbolizer_file_addr(const struct d9s_symbolizer *sym,
	    uint32_t module, uint64_t file_off, uint64_t *link_addr,
	    struct d9_err *e);
int	d9s_symbolizer_info(const struct d9s_symbolizer *sym, uint32_t module,
	    struct d9s_module_info *info, struct d9_err *e);
/* The module's ELF symbol table (raw names; load-bias inference). */
int	d9s_symbolizer_symbols(const struct d9s_symbolizer *sym,
	    uint32_t module, const struct d9s_elfsyms **syms,
	    struct d9_err *e);

#endif
