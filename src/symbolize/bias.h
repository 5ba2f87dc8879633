/*
 * bias.h: the load bias of a binary in a trace that carries no memory
 * maps (dial9's), inferred from the addresses the trace already names.
 *
 * Each depth-0 SymbolTableEntry whose name is exactly one function of the
 * binary's symbol table (names demangled as d9_demangle() does, Rust
 * hashes hidden on both sides) says the bias b satisfies
 * start <= addr - b < start + size. Biases are page multiples (4096), so
 * a small function allows one or two; each match votes for those. The
 * winner is used only when at least 3 matches and at least 90 % of all
 * matches agree with it. Segments are voted on one by one (another
 * process, another bias) and all together.
 */
#ifndef D9S_BIAS_H
#define D9S_BIAS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct d9m_model;
struct d9s_elfsyms;

#define D9S_BIAS_MIN_AGREE	3
#define D9S_BIAS_PAGE		4096

struct d9s_bias {
	uint64_t	bias;
	size_t		agree;		/* matches whose range holds bias */
	size_t		matches;	/* named addresses of its functions */
	int		ok;		/* the matches agree */
};

/*
 * Infer the bias of the binary whose symbols are syms for every segment
 * of m (per_seg has m->segs.n entries, segments with skip[seg] set are
 * left out and get ok = 0) and for all of them at once (*all).
 * 0 or -D9_ERR_NOMEM.
 */
int	d9s_bias_infer(const struct d9m_model *m,
	    const struct d9s_elfsyms *syms, const uint8_t *skip,
	    struct d9s_bias *per_seg, struct d9s_bias *all, struct d9_err *e);

#endif
