/*
 * plt.c: see plt.h. Every count, byte and name comes from libelf's
 * bounds-checked accessors (elf_getdata, gelf_getrela, gelf_getsym,
 * elf_strptr); an entry's code is read only inside its section's data.
 */
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "base/search.h"
#include "base/vec.h"
#include "symbolize/plt.h"

#define MAX_ENTRIES	(1u << 20)	/* per file, whatever it says */

/* A GOT slot and the dynamic symbol a relocation puts in it. */
struct slot {
	uint64_t	 at;		/* first: the key (last_at_or_below) */
	const char	*sym;		/* libelf's, valid while elf is */
};

struct slots {
	struct slot	*v;
	size_t		 n, cap;
};

static int
slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* The JUMP_SLOT and GLOB_DAT relocations of the RELA section scn (its
 * symbols in the table its sh_link names) into s. -1 out of memory. */
static int
add_relocs(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct slots *s)
{
	Elf_Scn *symscn = elf_getscn(elf, sh->sh_link);
	Elf_Data *rd = elf_getdata(scn, NULL), *sd;
	GElf_Shdr ssh;
	size_t nrel;

	if (rd == NULL || symscn == NULL || gelf_getshdr(symscn, &ssh) ==
	    NULL || (sd = elf_getdata(symscn, NULL)) == NULL ||
	    sh->sh_entsize == 0)
		return 0;
	nrel = rd->d_size / sh->sh_entsize;
	for (size_t i = 0; i < nrel && s->n < MAX_ENTRIES; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;
		uint64_t type;

		if (gelf_getrela(rd, (int)i, &r) == NULL)
			break;
		type = GELF_R_TYPE(r.r_info);
		if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) ||
		    GELF_R_SYM(r.r_info) == 0 || gelf_getsym(sd,
		    (int)GELF_R_SYM(r.r_info), &sym) == NULL ||
		    GELF_ST_TYPE(sym.st_info) == STT_OBJECT ||
		    (name = elf_strptr(elf, ssh.sh_link, sym.st_name)) ==
		    NULL || *name == '\0')
			continue;
		if (d9_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
			return -1;
		s->v[s->n++] = (struct slot){ r.r_offset, name };
	}
	return 0;
}

/* An array of n elements of stride bytes, each beginning with its u64
 * key, ascending; x: what is looked for. */
struct keyed {
	const void	*base;
	size_t		 stride;
	uint64_t	 x;
};

static int
key_not_above(const void *ctx, size_t i)
{
	const struct keyed *k = ctx;
	uint64_t key;

	memcpy(&key, (const char *)k->base + i * k->stride, sizeof key);
	return key <= k->x;
}

/* The last element whose key is at or below x, or NULL. */
static const void *
last_at_or_below(const void *base, size_t n, size_t stride, uint64_t x)
{
	const struct keyed k = { base, stride, x };
	size_t i = d9_partition(0, n, &k, key_not_above);

	return i > 0 ? (const char *)base + (i - 1) * stride : NULL;
}

/* The symbol a relocation puts in the slot at, or NULL. */
static const char *
slot_sym(const struct slots *s, uint64_t at)
{
	const struct slot *v = last_at_or_below(s->v, s->n, sizeof *s->v, at);

	return v != NULL && v->at == at ? v->sym : NULL;
}

/* The GOT slot entry [b, b + n) at addr jumps through: the first
 * jmp *disp32(%rip) (ff 25) in it; 0 when there is none. */
static uint64_t
entry_slot(const uint8_t *b, size_t n, uint64_t addr)
{
	for (size_t k = 0; k + 6 <= n; k++)
		if (b[k] == 0xff && b[k + 1] == 0x25) {
			int32_t d = (int32_t)((uint32_t)b[k + 2] |
			    (uint32_t)b[k + 3] << 8 | (uint32_t)b[k + 4] << 16 |
			    (uint32_t)b[k + 5] << 24);

			return addr + k + 6 + (uint64_t)(int64_t)d;
		}
	return 0;
}

/* The named entries of the PLT section scn into p. -1 out of memory. */
static int
add_entries(Elf_Scn *scn, const GElf_Shdr *sh, const struct slots *s,
    struct d9s_plt *p, size_t *cap, struct d9_arena *arena)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	uint64_t es = sh->sh_entsize >= 8 && sh->sh_entsize <= 32 ?
	    sh->sh_entsize : 16;

	if (d == NULL || d->d_buf == NULL || d->d_size > sh->sh_size)
		return 0;
	for (uint64_t off = 0; off + es <= d->d_size && p->n < MAX_ENTRIES;
	    off += es) {
		uint64_t at = sh->sh_addr + off;
		const char *sym = slot_sym(s, entry_slot((const uint8_t *)
		    d->d_buf + off, (size_t)es, at));
		size_t len;
		char *name;

		if (sym == NULL)
			continue;
		len = strlen(sym);
		if (d9_grow(&p->e, cap, p->n + 1, sizeof *p->e) < 0 ||
		    (name = d9_arena_alloc(arena, len + 5, 1)) == NULL)
			return -1;
		memcpy(name, sym, len);
		memcpy(name + len, "@plt", 5);
		p->e[p->n++] = (struct d9s_pltent){ at, es, name };
	}
	return 0;
}

static int
ent_cmp(const void *a, const void *b)
{
	const struct d9s_pltent *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Whether section scn (header sh) is one of the PLT's. */
static int
is_plt(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(elf, shstrndx, sh->sh_name);

	return sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR)
	    && name != NULL && (strcmp(name, ".plt") == 0 ||
	    strcmp(name, ".plt.sec") == 0 || strcmp(name, ".plt.got") == 0);
}

int
d9s_plt_load(struct d9s_plt *p, Elf *elf, struct d9_arena *arena)
{
	struct slots s = { NULL, 0, 0 };
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	size_t shstrndx, cap = 0;
	int rc = 0;

	memset(p, 0, sizeof *p);
	if (gelf_getehdr(elf, &eh) == NULL || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while (rc == 0 && (scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_RELA)
			rc = add_relocs(elf, scn, &sh, &s);
	if (s.n > 1)
		qsort(s.v, s.n, sizeof *s.v, slot_cmp);
	while (rc == 0 && s.n > 0 && (scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    is_plt(elf, shstrndx, &sh))
			rc = add_entries(scn, &sh, &s, p, &cap, arena);
	free(s.v);
	if (p->n > 1)
		qsort(p->e, p->n, sizeof *p->e, ent_cmp);
	return rc;
}

void
d9s_plt_free(struct d9s_plt *p)
{
	free(p->e);
	memset(p, 0, sizeof *p);
}

const char *
d9s_plt_find(const struct d9s_plt *p, uint64_t addr)
{
	const struct d9s_pltent *e = last_at_or_below(p->e, p->n,
	    sizeof *p->e, addr);

	return e != NULL && addr - e->addr < e->size ? e->name : NULL;
}
