/*
 * resolver.h: names for the addresses a trace leaves unnamed, as the
 * struct d9m_resolver that src/model's frame lookups call (frames.h).
 *
 * Where an address of segment seg leads:
 *  - kernel (top bit set): the nearest lower symbol of --kallsyms, else
 *    the label "[kernel] 0x...";
 *  - a segment with memory maps (libd9rec's ProcMapsEntry): the mapping
 *    holding the address; its file at the recorded path when the build
 *    id matches, else a --binary with that build id, else
 *    DIR/.build-id/xx/rest[.debug] under --debug-dir; the address goes
 *    to a file offset (addr - start + off), then to a link address;
 *  - a segment without maps (dial9's): each --binary whose load bias is
 *    known (--load-base for the first one, else inferred: bias.h).
 * DWARF then gives the frames (inline levels innermost first); an
 * address in a known file with no name shows "0x... (file)". The model
 * asks only for addresses its trace leaves unnamed, unless prefer_dwarf
 * (then a name found here wins over the trace's own).
 *
 * Files are opened when an address first needs them, and their DWARF
 * index is built on first lookup; answers are cached per (module,
 * address). A mutex makes one resolver usable from several threads (the
 * browser's UI and job threads). The model is bound at the first call
 * (or at d9s_resolver_new when given), and again when another model
 * asks (the browser's models follow one another: the partial ones while
 * reading, the whole one, the index's mapping of it); what was found in
 * the files stays. A message is said once, however often it arises.
 *
 * Messages (a build id mismatch, a missing file, the inferred bias) go
 * to the note callback as they arise and are kept (d9s_resolver_notes).
 */
#ifndef D9S_RESOLVER_H
#define D9S_RESOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct d9m_model;
struct d9m_resolver;

struct d9s_resolver_opts {
	const char *const *binaries;	/* --binary ELF ... */
	size_t		 nbinaries;
	const char	*debug_dir;	/* --debug-dir, or NULL */
	const char	*kallsyms;	/* --kallsyms, or NULL */
	int		 prefer_dwarf;	/* --prefer-dwarf: asked first, even for
					 * addresses the trace names */
	int		 have_load_base;
	uint64_t	 load_base;	/* --load-base: first binary's base */
	void		(*note)(void *ctx, const char *msg);
	void		*note_ctx;
};

struct d9s_note {
	const char	*msg;
	int		 warning;	/* a problem, not information */
};

/* m may be NULL (bound on the first lookup). Unreadable --binary or
 * --kallsyms files are errors: 0 or -D9_ERR_* with e->msg naming them. */
int	d9s_resolver_new(const struct d9m_model *m,
	    const struct d9s_resolver_opts *o, struct d9m_resolver **out,
	    struct d9_err *e);
void	d9s_resolver_free(struct d9m_resolver **r);
/* Messages so far, oldest first (valid until the next lookup). */
const struct d9s_note *d9s_resolver_notes(struct d9m_resolver *r,
	    size_t *n);

#endif
