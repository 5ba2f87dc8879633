/*
 * elfsyms.c: symbol table loading and nearest-symbol lookup. Every count
 * and name comes from libelf's bounds-checked accessors (elf_getdata,
 * gelf_getsym, elf_strptr), so a malformed table ends the scan early
 * instead of reading past the file.
 *
 * The STT_FILE pairing follows binutils: a symbol takes the last FILE
 * symbol before it when it is local, or when no FILE symbol has yet
 * followed any other symbol (the state machine in _bfd_elf_find_function).
 */
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "base/search.h"
#include "base/vec.h"
#include "symbolize/elfsyms.h"

enum file_state { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL };

static Elf_Scn *
find_table(Elf *elf, Elf64_Word type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, shdr) == NULL)
			continue;
		if (shdr->sh_type == type && shdr->sh_size > 0 &&
		    shdr->sh_entsize > 0)
			return scn;
	}
	return NULL;
}

/* Whether binutils' maybe_function_sym() would accept the symbol. */
static int
names_code(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_FILE || type == STT_SECTION || type == STT_OBJECT ||
	    type == STT_COMMON || type == STT_TLS)
		return 0;
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return 0;
	/* annobin-style markers: hidden local notype of size 0 */
	if (sym->st_size == 0 && GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
	    type == STT_NOTYPE &&
	    GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN)
		return 0;
	return 1;
}

static int
sym_cmp(const void *a, const void *b)
{
	const struct d9s_elfsym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
load_table(struct d9s_elfsyms *s, Elf *elf, Elf_Scn *scn,
    const GElf_Shdr *shdr, struct d9_arena *arena, struct d9_err *e)
{
	Elf_Data *data;
	const char *file = NULL;
	enum file_state state = NOTHING_SEEN;
	size_t cap = 0, count, i;

	data = elf_getdata(scn, NULL);
	if (data == NULL)
		return d9_err_set(e, D9_ERR_TRUNCATED, shdr->sh_offset,
		    "symbol table: %s", elf_errmsg(-1));
	count = data->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	for (i = 1; i < count; i++) {
		struct d9s_elfsym *out;
		const char *name;
		GElf_Sym sym;
		int local;

		if (gelf_getsym(data, (int)i, &sym) == NULL)
			break;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = NULL;
			if (name != NULL && (file = d9_arena_memdup(arena, name,
			    strlen(name) + 1)) == NULL)
				return d9_err_set(e, D9_ERR_NOMEM, 0,
				    "symbol names");
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (name == NULL || !names_code(&sym))
			continue;
		if (d9_grow(&s->sym, &cap, s->n + 1, sizeof *s->sym) == -1)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "symbol table");
		out = &s->sym[s->n];
		out->addr = sym.st_value;
		out->size = sym.st_size;
		out->order = (uint32_t)i;
		out->shndx = sym.st_shndx;
		out->name = d9_arena_memdup(arena, name, strlen(name) + 1);
		local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
		out->file = local || state != FILE_AFTER_SYMBOL ? file : NULL;
		if (out->name == NULL)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "symbol names");
		s->n++;
	}
	if (s->n > 1)
		qsort(s->sym, s->n, sizeof *s->sym, sym_cmp);
	return 0;
}

int
d9s_elfsyms_load(struct d9s_elfsyms *s, Elf *elf, struct d9_arena *arena,
    struct d9_err *e)
{
	GElf_Shdr shdr;
	Elf_Scn *scn;
	int rc;

	memset(s, 0, sizeof *s);
	if ((scn = find_table(elf, SHT_SYMTAB, &shdr)) != NULL) {
		if ((rc = load_table(s, elf, scn, &shdr, arena, e)) != 0)
			return rc;
		if (s->n > 0)
			return 0;
	}
	if ((scn = find_table(elf, SHT_DYNSYM, &shdr)) == NULL)
		return 0;
	s->dynamic = 1;
	return load_table(s, elf, scn, &shdr, arena, e);
}

void
d9s_elfsyms_free(struct d9s_elfsyms *s)
{
	free(s->sym);
	memset(s, 0, sizeof *s);
}

static int
covers_addr(const struct d9s_elfsym *sym, uint64_t addr)
{
	uint64_t size = sym->size ? sym->size : 1;

	return addr - sym->addr < size;
}

struct at {
	const struct d9s_elfsyms	*s;
	uint32_t			 shndx;
	uint64_t			 addr;
};

/* Symbol i sorts at or before (shndx, addr). */
static int
not_after(const void *ctx, size_t i)
{
	const struct at *q = ctx;
	const struct d9s_elfsym *m = &q->s->sym[i];

	return m->shndx < q->shndx || (m->shndx == q->shndx &&
	    m->addr <= q->addr);
}

const struct d9s_elfsym *
d9s_elfsyms_find(const struct d9s_elfsyms *s, uint32_t shndx, uint64_t addr,
    int *covers)
{
	const struct d9s_elfsym *best = NULL;
	const struct at q = { s, shndx, addr };
	/* first symbol after (shndx, addr) */
	size_t lo = d9_partition(0, s->n, &q, not_after), i;

	if (lo == 0 || s->sym[lo - 1].shndx != shndx)
		return NULL;
	/* walk back over the symbols that share that start, in table order */
	for (i = lo; i > 0 && s->sym[i - 1].shndx == shndx &&
	    s->sym[i - 1].addr == s->sym[lo - 1].addr; i--)
		;
	for (; i < lo; i++) {
		const struct d9s_elfsym *c = &s->sym[i];
		uint64_t csize = c->size ? c->size : 1;

		if (best == NULL)
			best = c;
		else if (!covers_addr(best, addr)) {
			if (csize > (best->size ? best->size : 1))
				best = c;
		} else if (covers_addr(c, addr) &&
		    csize < (best->size ? best->size : 1))
			best = c;
	}
	if (covers != NULL)
		*covers = best != NULL && covers_addr(best, addr);
	return best;
}
