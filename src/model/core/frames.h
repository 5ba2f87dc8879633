/*
 * frames.h: names for stack frames. First the trace's own symbol table
 * (SymbolTableEntry, scoped per segment, inline levels expanded innermost
 * first, as a leaf-first chain needs: ANALYSIS 8.1 and 15 #1), then an
 * optional resolver (DWARF, src/symbolize) for addresses the trace left
 * unnamed, else the address in hex. A resolver that prefers its names
 * (--prefer-dwarf) is asked first; the table stays the fallback where it
 * finds no name.
 */
#ifndef D9M_FRAMES_H
#define D9M_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"

struct d9m_model;

struct d9m_frame {
	const char	*name;		/* NULL: unnamed, see hex */
	const char	*file;		/* NULL or "" when unknown */
	uint32_t	 line;		/* 0 when unknown */
	uint8_t		 inlined;	/* an inline level, not the outermost */
	uint8_t		 kernel;	/* kernel address (top bit set) */
	/* "0x..." of the address; a resolver may add the module,
	 * "0x... (libfoo.so)", or mark a kernel one, "[kernel] 0x..." */
	char		 hex[64];
};

struct d9m_resolver {
	void	*ctx;
	/* Frames for addr (innermost first) into out; 0 when unknown.
	 * is_return: addr is a return address (look up addr - 1). */
	size_t	(*resolve)(void *ctx, const struct d9m_model *m, uint32_t seg,
		    uint64_t addr, int is_return, struct d9m_frame *out,
		    size_t max);
	int	 prefer;	/* asked first, even where the table names */
};

static inline const char *
d9m_frame_name(const struct d9m_frame *f)
{
	return f->name ? f->name : f->hex;
}

/* Frames of one address, innermost first; at least one (the hex). The
 * reader's marker of a cut stack (base/stackcap.h) is one frame, named
 * "[... N frames cut]" (in hex, name NULL). */
size_t	d9m_frames_of(const struct d9m_model *m, const struct d9m_resolver *r,
	    uint32_t seg, uint64_t addr, int is_return, struct d9m_frame *out,
	    size_t max);
/* Frames of a stack, leaf first, inline levels expanded. max
 * D9_STACK_MAX (base/stackcap.h) asks for the whole stack: when it has
 * more frames, the last one is "[... N frames cut]"; a smaller max, for
 * its innermost max frames. */
size_t	d9m_stack_frames(const struct d9m_model *m,
	    const struct d9m_resolver *r, uint32_t seg, uint32_t stack,
	    struct d9m_frame *out, size_t max);
/* The frame a stack is counted under, as d9m_stack_frames gives its
 * whole stack: the innermost, or with user the innermost outside the
 * kernel (the innermost when all are); resolving only the addresses up to
 * it. out: room for D9_STACK_MAX frames. Its index in out, or SIZE_MAX
 * for a stack without frames. */
size_t	d9m_stack_leaf(const struct d9m_model *m,
	    const struct d9m_resolver *r, uint32_t seg, uint32_t stack,
	    int user, struct d9m_frame *out);
/* Whether a symbol is an ELF mapping symbol ($a, $d, $t, $x, "$d.12"):
 * it marks code or data in a section, it names no function. */
int	d9m_is_mapping_symbol(const char *name);
/* Room for the frames of any stack, D9_STACK_MAX (free() it); NULL when
 * out of memory. */
struct d9m_frame *d9m_frames_alloc(void);
/* Whether a frame name is an allocator hook (ANALYSIS 7, heap graph). */
int	d9m_is_alloc_hook(const char *name);
/* Like d9m_stack_frames, without the leading allocator-hook addresses. */
size_t	d9m_alloc_frames(const struct d9m_model *m,
	    const struct d9m_resolver *r, uint32_t seg, uint32_t stack,
	    struct d9m_frame *out, size_t max);
/*
 * A memo of the frames of addresses (d9m_frames_of) for a caller that
 * names many stacks of one model with one resolver (the export names
 * every stack of a segment; its stacks share most of their addresses):
 * each (segment, address, leaf or return) is looked up once. The frames
 * kept point to the model's and the resolver's names, which live as
 * long as they do; the memo must not outlive them.
 */
struct d9m_fmemo_ent {
	uint64_t	 addr;
	uint32_t	 seg;
	uint32_t	 n;		/* frames */
	size_t		 at;		/* the first in f */
};

struct d9m_fmemo {
	/* (segment, address) mixed into one key -> entry, as a leaf and
	 * as a return address; the entry says which pair it holds */
	struct d9_hmap		 map[2];
	struct d9m_fmemo_ent	*ent;
	size_t			 nent, capent;
	struct d9m_frame	*f;
	size_t			 nf, capf;
};

void	d9m_fmemo_init(struct d9m_fmemo *k);
void	d9m_fmemo_free(struct d9m_fmemo *k);

/* d9m_stack_frames and d9m_alloc_frames through a memo (NULL: none):
 * the same frames, each address looked up once. */
size_t	d9m_stack_frames_memo(const struct d9m_model *m,
	    const struct d9m_resolver *r, struct d9m_fmemo *k, uint32_t seg,
	    uint32_t stack, struct d9m_frame *out, size_t max);
size_t	d9m_alloc_frames_memo(const struct d9m_model *m,
	    const struct d9m_resolver *r, struct d9m_fmemo *k, uint32_t seg,
	    uint32_t stack, struct d9m_frame *out, size_t max);
/* Sort the symbol table by (segment, address, depth); from finish(). */
int	d9m_symbols_index(struct d9m_model *m);
/* Whether symbol row r names its address only by a recorder's
 * placeholder: 1 "[unknown]"/"[symbolize-failed]", 2 "[kernel]"
 * (kallsyms was not read; a resolver or another segment may still name
 * it), else 0 (a name, or none at all). */
int	d9m_sym_placeholder(const struct d9m_model *m, size_t r);

#endif
