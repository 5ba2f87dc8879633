/*
 * syms.c: what a sealed segment needs to be symbolized: the executable
 * file mappings of the process (ProcMapsEntry, with the GNU build id) and
 * a SymbolTableEntry for every callchain address of the segment, named
 * from the ELF symbol tables (.symtab, else .dynsym) of the mapped files.
 * No DWARF: inline_depth is 0, source_file "" and source_line 0. Kernel
 * addresses are named from /proc/kallsyms (ksyms.c), with no file.
 *
 * The flush thread adds every callchain address to the segment's address
 * set as it encodes it. ELF files are parsed once per writer (mapped
 * read-only, every offset checked against the file size) and kept in the
 * symbol cache until close.
 *
 * Names are demangled here (C++ and Rust, with libiberty as d9top does,
 * base/demangle.c), once per symbol and writer, so that every reader of
 * the table (d9top, dial9's viewer and toolkit) shows the same names.
 */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/demangle.h"
#include "base/search.h"
#include "rec/rec.h"

struct sym {
	uint64_t	 addr, size;
	const char	*name;		/* inside the file mapping */
	char		*demangled;	/* malloc'd once looked up, or NULL */
	int		 looked;	/* demangled was tried */
};

struct elfinfo {
	char		*path;
	uint8_t		*map;
	size_t		 len;
	struct sym	*syms;
	size_t		 nsyms;
	Elf64_Phdr	 loads[16];
	int		 nloads;
	char		 build_id[96];
};

struct symcache {
	struct elfinfo	*v;
	size_t		 n;
};

struct mapping {
	uint64_t	 start, end, off;
	char		*path;
};

/* ---- address set ---- */

void
d9rec_addrs_add(struct d9_hmap *s, const uint64_t *f, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (f[k] != 0 && d9_hmap_put(s, f[k], 0) < 0)
			return;
}

/* ---- ELF ---- */

static int
in_file(const struct elfinfo *f, uint64_t off, uint64_t size)
{
	return off <= f->len && size <= f->len - off;
}

static int
sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void
elf_notes(struct elfinfo *f, const Elf64_Phdr *ph)
{
	uint64_t off = ph->p_offset, end = ph->p_offset + ph->p_filesz;

	while (off + sizeof(Elf64_Nhdr) <= end &&
	    in_file(f, off, sizeof(Elf64_Nhdr))) {
		Elf64_Nhdr nh;
		uint64_t name, desc;

		memcpy(&nh, f->map + off, sizeof nh);
		name = off + sizeof nh;
		desc = name + ((nh.n_namesz + 3) & ~3u);
		off = desc + ((nh.n_descsz + 3) & ~3u);
		if (!in_file(f, name, nh.n_namesz) ||
		    !in_file(f, desc, nh.n_descsz))
			return;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp(f->map + name, "GNU", 4) == 0 &&
		    nh.n_descsz * 2 < sizeof f->build_id) {
			for (uint32_t i = 0; i < nh.n_descsz; i++)
				sprintf(f->build_id + 2 * i, "%02x",
				    f->map[desc + i]);
			return;
		}
	}
}

static void
elf_symbols(struct elfinfo *f, const Elf64_Ehdr *eh)
{
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)
	    (f->map + eh->e_shoff);
	int pass;

	if (eh->e_shentsize != sizeof *sh || !in_file(f, eh->e_shoff,
	    (uint64_t)eh->e_shnum * sizeof *sh))
		return;
	for (pass = 0; pass < 2 && f->nsyms == 0; pass++) {
		uint32_t want = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;

		for (uint16_t i = 0; i < eh->e_shnum; i++) {
			const Elf64_Shdr *st;
			const Elf64_Sym *s;
			size_t n;

			if (sh[i].sh_type != want || sh[i].sh_link >= eh->e_shnum)
				continue;
			st = &sh[sh[i].sh_link];
			if (!in_file(f, sh[i].sh_offset, sh[i].sh_size) ||
			    !in_file(f, st->sh_offset, st->sh_size) ||
			    st->sh_size == 0 ||
			    f->map[st->sh_offset + st->sh_size - 1] != 0)
				continue;
			s = (const Elf64_Sym *)(const void *)(f->map +
			    sh[i].sh_offset);
			n = sh[i].sh_size / sizeof *s;
			free(f->syms);
			if ((f->syms = calloc(n ? n : 1, sizeof *f->syms)) ==
			    NULL)
				return;
			f->nsyms = 0;
			for (size_t j = 0; j < n; j++) {
				int type = ELF64_ST_TYPE(s[j].st_info);

				if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
				    s[j].st_shndx == SHN_UNDEF ||
				    s[j].st_value == 0 ||
				    s[j].st_name >= st->sh_size)
					continue;
				f->syms[f->nsyms].addr = s[j].st_value;
				f->syms[f->nsyms].size = s[j].st_size;
				f->syms[f->nsyms++].name = (const char *)f->map +
				    st->sh_offset + s[j].st_name;
			}
			qsort(f->syms, f->nsyms, sizeof *f->syms, sym_cmp);
			break;
		}
	}
}

static void
elf_load(struct elfinfo *f)
{
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	struct stat sb;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &sb) < 0 || sb.st_size < (off_t)sizeof *eh) {
		close(fd);
		return;
	}
	f->len = (size_t)sb.st_size;
	f->map = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return;
	}
	eh = (const Elf64_Ehdr *)(const void *)f->map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof *ph ||
	    !in_file(f, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof *ph))
		return;
	ph = (const Elf64_Phdr *)(const void *)(f->map + eh->e_phoff);
	for (uint16_t i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && f->nloads < 16)
			f->loads[f->nloads++] = ph[i];
		else if (ph[i].p_type == PT_NOTE && f->build_id[0] == 0)
			elf_notes(f, &ph[i]);
	}
	elf_symbols(f, eh);
}

static struct elfinfo *
elf_get(struct d9rec_writer *w, const char *path)
{
	struct symcache *c = w->symcache;
	struct elfinfo *v;

	if (c == NULL && (c = w->symcache = calloc(1, sizeof *c)) == NULL)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].path, path) == 0)
			return &c->v[i];
	if ((v = realloc(c->v, (c->n + 1) * sizeof *v)) == NULL)
		return NULL;
	c->v = v;
	v = &c->v[c->n];
	memset(v, 0, sizeof *v);
	if ((v->path = strdup(path)) == NULL)
		return NULL;
	c->n++;
	elf_load(v);
	return v;
}

void
d9rec_symcache_free(struct d9rec_writer *w)
{
	struct symcache *c = w->symcache;

	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].map != NULL)
			munmap(c->v[i].map, c->v[i].len);
		for (size_t k = 0; k < c->v[i].nsyms; k++)
			free(c->v[i].syms[k].demangled);
		free(c->v[i].syms);
		free(c->v[i].path);
	}
	free(c->v);
	free(c);
	w->symcache = NULL;
}

/* The name to show: demangled when it is mangled (out of memory: as
 * it is). */
static const char *
sym_name(struct sym *s)
{
	if (!s->looked) {
		s->looked = 1;
		s->demangled = d9_demangle(s->name);
	}
	return s->demangled != NULL ? s->demangled : s->name;
}

struct sym_at {
	const struct sym	*s;
	uint64_t		 va;
};

static int
sym_not_above(const void *ctx, size_t i)
{
	const struct sym_at *q = ctx;

	return q->s[i].addr <= q->va;
}

/* Symbol of an address inside mapping m, or NULL. */
static const char *
lookup(struct d9rec_writer *w, const struct mapping *m, uint64_t addr)
{
	struct elfinfo *f = elf_get(w, m->path);
	uint64_t off = addr - m->start + m->off, va = 0;
	struct sym_at q;
	size_t lo;
	int found = 0;

	if (f == NULL || f->nsyms == 0)
		return NULL;
	for (int i = 0; i < f->nloads; i++)
		if (off >= f->loads[i].p_offset &&
		    off < f->loads[i].p_offset + f->loads[i].p_filesz) {
			va = off - f->loads[i].p_offset + f->loads[i].p_vaddr;
			found = 1;
			break;
		}
	if (!found)
		return NULL;
	q = (struct sym_at){ f->syms, va };
	lo = d9_partition(0, f->nsyms, &q, sym_not_above);	/* first above va */
	if (lo == 0)
		return NULL;
	lo--;
	if (f->syms[lo].size != 0 && va >= f->syms[lo].addr +
	    f->syms[lo].size)
		return NULL;
	return sym_name(&f->syms[lo]);
}

/* ---- maps ---- */

static size_t
read_maps(struct mapping **out)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	struct mapping *v = NULL, *q;
	size_t n = 0, cap = 0;
	char line[4096];

	*out = NULL;
	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof line, fp) != NULL) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;
		char *path, *nl;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms,
		    &off, &pos) < 4 || pos == 0 || strchr(perms, 'x') == NULL)
			continue;
		path = line + pos;
		if ((nl = strchr(path, '\n')) != NULL)
			*nl = 0;
		if (path[0] != '/')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			if ((q = realloc(v, cap * sizeof *q)) == NULL)
				break;
			v = q;
		}
		if ((v[n].path = strdup(path)) == NULL)
			break;
		v[n].start = s;
		v[n].end = e;
		v[n++].off = off;
	}
	fclose(fp);
	*out = v;
	return n;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
symbol_entry(struct d9rec_writer *w, struct enc *e, uint64_t addr,
    const char *name, const char *file)
{
	uint32_t nid = d9rec_enc_pool_str(e, name, strlen(name));
	uint32_t fid = d9rec_enc_pool_str(e, file, strlen(file));

	d9rec_enc_event(w, e, S_SYMBOL, 0);
	d9rec_enc_varint(e, addr);
	d9rec_enc_varint(e, 0);
	d9rec_enc_u32(e, nid);
	d9rec_enc_varint(e, 0);
	d9rec_enc_u32(e, fid);
	d9rec_enc_varint(e, 0);
}

/* The kernel addresses of addrs[0..n) (ascending: they are last) that
 * no earlier segment named, named in one pass over /proc/kallsyms when
 * one is due (D9REC_KSYMS_GAP_NS); else they stay placeholders. */
static void
kernel_names(struct d9rec_writer *w, const uint64_t *addrs, size_t n,
    int final)
{
	size_t first = n, m = 0;
	uint64_t *need, now = d9rec_mono_ns();

	while (first > 0 && addrs[first - 1] >> 63)
		first--;
	if (first == n || (!final && now < w->ksyms_after) ||
	    (need = malloc((n - first) * sizeof *need)) == NULL)
		return;
	for (size_t i = first; i < n; i++)
		if (!d9rec_ksyms_known(w->ksyms, addrs[i]))
			need[m++] = addrs[i];
	if (m > 0) {
		d9rec_ksyms_resolve(&w->ksyms, "/proc/kallsyms", need, m);
		w->ksyms_after = now + D9REC_KSYMS_GAP_NS;
	}
	free(need);
}

void
d9rec_appendix(struct d9rec_writer *w, struct enc *e, int symbols,
    int final)
{
	struct mapping *maps;
	size_t nmaps = read_maps(&maps), na = 0;
	uint64_t *addrs = NULL;
	char tmp[64];

	d9rec_enc_batch(e);
	for (size_t i = 0; i < nmaps; i++) {
		struct elfinfo *f = elf_get(w, maps[i].path);
		const char *bid = f ? f->build_id : "";
		uint32_t pid = d9rec_enc_pool_str(e, maps[i].path,
		    strlen(maps[i].path));

		d9rec_enc_event(w, e, S_MAPS, 0);
		d9rec_enc_varint(e, maps[i].start);
		d9rec_enc_varint(e, maps[i].end);
		d9rec_enc_varint(e, maps[i].off);
		d9rec_enc_u32(e, pid);
		d9rec_enc_str(e, bid, strlen(bid));
	}
	if (symbols && w->addrs.n > 0 &&
	    (addrs = malloc(w->addrs.n * sizeof *addrs)) != NULL) {
		for (size_t pos = 0; d9_hmap_next(&w->addrs, &pos, &addrs[na],
		    NULL); na++)
			;
		qsort(addrs, na, sizeof *addrs, u64_cmp);
	}
	kernel_names(w, addrs, na, final);
	for (size_t i = 0, m = 0; i < na; i++) {
		const char *name;

		if (addrs[i] >> 63) {
			if ((name = d9rec_ksyms_name(w->ksyms, addrs[i])) !=
			    NULL) {
				symbol_entry(w, e, addrs[i], name, "");
				continue;
			}
			snprintf(tmp, sizeof tmp, "[kernel] 0x%" PRIx64,
			    addrs[i]);
			symbol_entry(w, e, addrs[i], tmp, "kernel");
			continue;
		}
		for (m = 0; m < nmaps && !(addrs[i] >= maps[m].start &&
		    addrs[i] < maps[m].end); m++)
			;
		if (m == nmaps)
			continue;	/* anonymous, vdso: no entry (3.2.2) */
		if ((name = lookup(w, &maps[m], addrs[i])) == NULL) {
			snprintf(tmp, sizeof tmp, "[unknown] 0x%" PRIx64,
			    addrs[i]);
			name = tmp;
		}
		symbol_entry(w, e, addrs[i], name, "");
	}
	free(addrs);
	for (size_t i = 0; i < nmaps; i++)
		free(maps[i].path);
	free(maps);
}
