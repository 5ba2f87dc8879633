/*
 * symbolizer.c: modules, their caches, and the symbol-table fallback.
 *
 * Each module keeps a cache (address -> entry). An entry points at its
 * frames, copied once into the symbolizer's arena, so the pointers handed
 * out never move. Demangled ELF symbol names are kept per module (symbol
 * index -> string) so a function is demangled once.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "base/vec.h"
#include "base/demangle.h"
#include "symbolize/module.h"
#include "symbolize/symbolizer.h"

struct smod {
	struct d9s_module	*m;
	int			 told;		/* its loss was noted */
	struct d9_hmap		 cache;		/* address -> entry */
	struct d9_hmap		 symname;	/* symbol index -> string */
};

struct entry {
	const struct d9s_frame	*f;
	uint32_t		 n;
};

struct d9s_symbolizer {
	struct smod		*mod;
	size_t			 nmod, modcap;
	char			**dirs;
	size_t			 ndirs, dircap;
	struct entry		*ent;
	size_t			 nent, entcap;
	const char		**str;
	size_t			 nstr, strcap;
	struct d9_arena		 arena;
	void			(*note)(void *, const char *);
	void			*note_ctx;
};

int
d9s_symbolizer_new(struct d9s_symbolizer **out, struct d9_err *e)
{
	if ((*out = calloc(1, sizeof **out)) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "symbolizer");
	d9_arena_init(&(*out)->arena, 0);
	return 0;
}

void
d9s_symbolizer_free(struct d9s_symbolizer **symp)
{
	struct d9s_symbolizer *sym = *symp;
	size_t i;

	if (sym == NULL)
		return;
	for (i = 0; i < sym->nmod; i++) {
		d9s_module_free(&sym->mod[i].m);
		d9_hmap_free(&sym->mod[i].cache);
		d9_hmap_free(&sym->mod[i].symname);
	}
	for (i = 0; i < sym->ndirs; i++)
		free(sym->dirs[i]);
	free(sym->dirs);
	free(sym->mod);
	free(sym->ent);
	free(sym->str);
	d9_arena_free(&sym->arena);
	free(sym);
	*symp = NULL;
}

void
d9s_symbolizer_on_note(struct d9s_symbolizer *sym,
    void (*note)(void *ctx, const char *msg), void *ctx)
{
	sym->note = note;
	sym->note_ctx = ctx;
}

int
d9s_symbolizer_add_debug_dir(struct d9s_symbolizer *sym, const char *dir,
    struct d9_err *e)
{
	struct stat st;
	char *copy;

	/* files are looked up under it: it must be a directory */
	if (stat(dir, &st) == -1)
		return d9_err_set(e, D9_ERR_USAGE, 0, "%s: %s", dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return d9_err_set(e, D9_ERR_USAGE, 0, "%s: not a directory",
		    dir);
	if (d9_grow(&sym->dirs, &sym->dircap, sym->ndirs + 1,
	    sizeof *sym->dirs) == -1 || (copy = strdup(dir)) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "debug directory");
	sym->dirs[sym->ndirs++] = copy;
	return 0;
}

int
d9s_symbolizer_add(struct d9s_symbolizer *sym, const char *path,
    const uint8_t *build_id, size_t build_id_len, uint32_t *module,
    struct d9_err *e)
{
	struct d9s_module *m;
	struct smod *sm;
	int rc;

	if (sym->nmod >= UINT32_MAX ||
	    d9_grow(&sym->mod, &sym->modcap, sym->nmod + 1,
	    sizeof *sym->mod) == -1)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "modules");
	rc = d9s_module_open(&m, path, (const char *const *)sym->dirs,
	    sym->ndirs, build_id, build_id != NULL ? build_id_len : 0, e);
	if (rc != 0)
		return rc;
	sm = &sym->mod[sym->nmod];
	memset(sm, 0, sizeof *sm);
	sm->m = m;
	d9_hmap_init(&sm->cache);
	d9_hmap_init(&sm->symname);
	*module = (uint32_t)sym->nmod++;
	return 0;
}

static struct smod *
get_mod(const struct d9s_symbolizer *sym, uint32_t module, struct d9_err *e)
{
	if (module >= sym->nmod) {
		d9_err_set(e, D9_ERR_USAGE, 0, "no module %u", module);
		return NULL;
	}
	return &sym->mod[module];
}

/* The module's index, or NULL (e says why); unreadable DWARF is noted
 * once. */
static struct d9s_dwarf *
dwarf_of(struct d9s_symbolizer *sym, struct smod *sm, struct d9_err *e)
{
	struct d9s_dwarf *dw;
	char msg[512];

	if (d9s_module_dwarf(sm->m, &dw, e) == 0)
		return dw;
	if (!sm->told && sym->note != NULL &&
	    d9s_module_unreadable(sm->m, msg, sizeof msg) == 0)
		sym->note(sym->note_ctx, msg);
	sm->told = 1;
	return NULL;
}

int
d9s_symbolizer_index(struct d9s_symbolizer *sym, uint32_t module,
    struct d9_err *e)
{
	struct smod *sm = get_mod(sym, module, e);

	if (sm == NULL)
		return -D9_ERR_USAGE;
	return dwarf_of(sym, sm, e) != NULL ? 0 : -e->code;
}

/* Demangled name of symbol s of module sm, made once. */
static const char *
sym_name(struct d9s_symbolizer *sym, struct smod *sm,
    const struct d9s_elfsym *s)
{
	uint64_t key = (uint64_t)(s - sm->m->syms->sym);
	const char *name;
	uint32_t idx;
	char *dem;

	if ((idx = d9_hmap_get(&sm->symname, key)) != D9_NONE)
		return sym->str[idx];
	name = s->name;
	if ((dem = d9_demangle(s->name)) != NULL) {
		name = d9_arena_memdup(&sym->arena, dem, strlen(dem) + 1);
		free(dem);
	}
	if (name == NULL || sym->nstr >= UINT32_MAX ||
	    d9_grow(&sym->str, &sym->strcap, sym->nstr + 1,
	    sizeof *sym->str) == -1)
		return NULL;
	if (d9_hmap_put(&sm->symname, key, (uint32_t)sym->nstr) < 0)
		return NULL;
	sym->str[sym->nstr++] = name;
	return name;
}

/* Name frames[0] from the symbol table when DWARF has no function, or
 * else from the PLT entry holding addr ("puts@plt"). */
static int
symtab_fallback(struct d9s_symbolizer *sym, struct smod *sm, uint64_t addr,
    struct d9s_frame *frames, int *n)
{
	const struct d9s_section *sec;
	const struct d9s_elfsym *s = NULL;
	const char *plt = NULL, *name;
	int covers = 0;

	if (*n > 0 && frames[0].function != NULL)
		return 0;
	if ((sec = d9s_elffile_section(&sm->m->elf, addr)) == NULL)
		return 0;
	s = d9s_elfsyms_find(sm->m->syms, sec->index, addr, &covers);
	if ((s == NULL || !covers) &&
	    (plt = d9s_plt_find(&sm->m->elf.plt, addr)) == NULL)
		return 0;
	if (*n == 0) {
		memset(&frames[0], 0, sizeof frames[0]);
		*n = 1;
	}
	name = plt != NULL ? d9_arena_memdup(&sym->arena, plt,
	    strlen(plt) + 1) : sym_name(sym, sm, s);
	if ((frames[0].function = name) == NULL)
		return -1;
	frames[0].flags |= D9S_FRAME_SYMTAB;
	return 0;
}

static int
resolve(struct d9s_symbolizer *sym, struct smod *sm, uint64_t addr,
    struct entry *out, struct d9_err *e)
{
	struct d9s_frame frames[D9S_MAX_FRAMES];
	struct d9s_dwarf *dw;
	struct d9_err ignored;
	int n = 0;

	if ((dw = dwarf_of(sym, sm, &ignored)) != NULL &&
	    (n = d9s_dwarf_lookup(dw, addr, frames, D9S_MAX_FRAMES, e)) < 0)
		return n;
	if (symtab_fallback(sym, sm, addr, frames, &n) == -1)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "symbol names");
	out->n = (uint32_t)n;
	out->f = NULL;
	if (n > 0 && (out->f = d9_arena_memdup(&sym->arena, frames,
	    (size_t)n * sizeof frames[0])) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "frames");
	return 0;
}

int
d9s_symbolizer_lookup(struct d9s_symbolizer *sym, uint32_t module,
    uint64_t link_addr, int is_return_address,
    const struct d9s_frame **frames, size_t *nframes, struct d9_err *e)
{
	struct smod *sm = get_mod(sym, module, e);
	struct entry ent;
	uint32_t idx;
	int rc;

	*frames = NULL;
	*nframes = 0;
	if (sm == NULL)
		return -D9_ERR_USAGE;
	if (link_addr >> 63)
		return 0;		/* kernel: not ours to resolve */
	if (is_return_address && link_addr > 0)
		link_addr--;
	if ((idx = d9_hmap_get(&sm->cache, link_addr)) == D9_NONE) {
		if ((rc = resolve(sym, sm, link_addr, &ent, e)) != 0)
			return rc;
		if (sym->nent >= UINT32_MAX ||
		    d9_grow(&sym->ent, &sym->entcap, sym->nent + 1,
		    sizeof *sym->ent) == -1 ||
		    d9_hmap_put(&sm->cache, link_addr,
		    (uint32_t)sym->nent) < 0)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "lookup cache");
		idx = (uint32_t)sym->nent;
		sym->ent[sym->nent++] = ent;
	}
	*frames = sym->ent[idx].f;
	*nframes = sym->ent[idx].n;
	return 0;
}

int
d9s_symbolizer_file_addr(const struct d9s_symbolizer *sym, uint32_t module,
    uint64_t file_off, uint64_t *link_addr, struct d9_err *e)
{
	const struct smod *sm = get_mod(sym, module, e);

	if (sm == NULL)
		return -D9_ERR_USAGE;
	if (d9s_elffile_vaddr(&sm->m->elf, file_off, link_addr) != 0)
		return d9_err_set(e, D9_ERR_BAD_VALUE, file_off,
		    "%s: file offset %#llx is in no loadable segment",
		    sm->m->path, (unsigned long long)file_off);
	return 0;
}

int
d9s_symbolizer_info(const struct d9s_symbolizer *sym, uint32_t module,
    struct d9s_module_info *info, struct d9_err *e)
{
	const struct smod *sm = get_mod(sym, module, e);
	const struct d9s_module *m;

	if (sm == NULL)
		return -D9_ERR_USAGE;
	m = sm->m;
	info->path = m->path;
	info->debug_path = m->debug_path;
	info->no_debug = m->debug_path == NULL ? m->nodebug.msg : NULL;
	info->build_id = m->elf.build_id;
	info->build_id_len = m->elf.build_id_len;
	info->vaddr_lo = info->vaddr_hi = info->exec_lo = info->exec_hi = 0;
	for (size_t i = 0; i < m->elf.nseg; i++) {
		const struct d9s_segment *s = &m->elf.seg[i];
		uint64_t end = s->vaddr + s->memsz;
		int first = info->vaddr_lo == info->vaddr_hi;

		if (first || s->vaddr < info->vaddr_lo)
			info->vaddr_lo = s->vaddr;
		if (first || end > info->vaddr_hi)
			info->vaddr_hi = end;
		if (!(s->flags & PF_X))
			continue;
		first = info->exec_lo == info->exec_hi;
		if (first || s->vaddr < info->exec_lo)
			info->exec_lo = s->vaddr;
		if (first || end > info->exec_hi)
			info->exec_hi = end;
	}
	return 0;
}

int
d9s_symbolizer_symbols(const struct d9s_symbolizer *sym, uint32_t module,
    const struct d9s_elfsyms **syms, struct d9_err *e)
{
	const struct smod *sm = get_mod(sym, module, e);

	if (sm == NULL)
		return -D9_ERR_USAGE;
	*syms = sm->m->syms;
	return 0;
}
