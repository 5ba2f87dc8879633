/*
 * elffile.c: one pass over an ELF file with libelf. The file is opened,
 * read into struct d9s_elffile and closed again; no handle is kept, so a
 * module costs no file descriptor after loading.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <gelf.h>

#include "base/file.h"
#include "base/vec.h"
#include "symbolize/elffile.h"

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/* Build id from one note block; 1 when found. */
static int
scan_notes(struct d9s_elffile *f, Elf_Data *data)
{
	GElf_Nhdr nhdr;
	size_t off = 0, next, name_off, desc_off;
	const uint8_t *p = data->d_buf;

	while (p != NULL &&
	    (next = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    memcmp(p + name_off, "GNU", 4) == 0 &&
		    nhdr.n_descsz > 0 && nhdr.n_descsz <= D9S_BUILD_ID_MAX) {
			memcpy(f->build_id, p + desc_off, nhdr.n_descsz);
			f->build_id_len = nhdr.n_descsz;
			return 1;
		}
		off = next;
	}
	return 0;
}

static int
read_debuglink(struct d9s_elffile *f, Elf *elf, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const unsigned char *p, *ident;
	size_t len, crc_off;
	uint32_t crc;

	if (data == NULL || data->d_buf == NULL)
		return 0;
	p = data->d_buf;
	len = strnlen((const char *)p, data->d_size);
	crc_off = (len + 4) & ~(size_t)3;
	if (len == 0 || len == data->d_size || crc_off + 4 > data->d_size)
		return 0;
	f->debuglink = d9_arena_memdup(&f->arena, p, len + 1);
	if (f->debuglink == NULL)
		return -1;
	ident = (const unsigned char *)elf_getident(elf, NULL);
	if (ident != NULL && ident[EI_DATA] == ELFDATA2MSB)
		crc = (uint32_t)p[crc_off] << 24 |
		    (uint32_t)p[crc_off + 1] << 16 |
		    (uint32_t)p[crc_off + 2] << 8 | p[crc_off + 3];
	else
		crc = (uint32_t)p[crc_off + 3] << 24 |
		    (uint32_t)p[crc_off + 2] << 16 |
		    (uint32_t)p[crc_off + 1] << 8 | p[crc_off];
	f->debuglink_crc = crc;
	return 0;
}

static void
check_compression(struct d9s_elffile *f, Elf_Scn *scn, const GElf_Shdr *sh)
{
	GElf_Chdr chdr;

	if ((sh->sh_flags & SHF_COMPRESSED) &&
	    gelf_getchdr(scn, &chdr) != NULL &&
	    chdr.ch_type == ELFCOMPRESS_ZSTD)
		f->zstd_dwarf = 1;
}

static int
read_sections(struct d9s_elffile *f, Elf *elf, struct d9_err *e)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, cap = 0;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;		/* no section headers: segments only */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name == NULL)
			name = "";
		if (sh.sh_flags & SHF_ALLOC) {
			if (d9_grow(&f->sec, &cap, f->nsec + 1,
			    sizeof *f->sec) == -1)
				return d9_err_set(e, D9_ERR_NOMEM, 0,
				    "sections");
			f->sec[f->nsec].addr = sh.sh_addr;
			f->sec[f->nsec].size = sh.sh_size;
			f->sec[f->nsec].index = (uint32_t)elf_ndxscn(scn);
			f->nsec++;
		}
		if (sh.sh_type == SHT_NOTE && f->build_id_len == 0) {
			Elf_Data *data = elf_getdata(scn, NULL);

			if (data != NULL)
				scan_notes(f, data);
		}
		if (strcmp(name, ".gnu_debuglink") == 0 &&
		    f->debuglink == NULL && read_debuglink(f, elf, scn) == -1)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "debug link");
		if (strcmp(name, ".debug_info") == 0 &&
		    sh.sh_type != SHT_NOBITS && sh.sh_size > 0) {
			f->has_dwarf = 1;
			check_compression(f, scn, &sh);
		}
	}
	return 0;
}

static int
read_segments(struct d9s_elffile *f, Elf *elf, struct d9_err *e)
{
	size_t n, i, cap = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL)
			break;
		if (ph.p_type == PT_NOTE && f->build_id_len == 0) {
			Elf_Data *data = elf_getdata_rawchunk(elf,
			    (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);

			if (data != NULL)
				scan_notes(f, data);
		}
		if (ph.p_type != PT_LOAD)
			continue;
		if (d9_grow(&f->seg, &cap, f->nseg + 1, sizeof *f->seg) == -1)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "segments");
		f->seg[f->nseg].off = ph.p_offset;
		f->seg[f->nseg].filesz = ph.p_filesz;
		f->seg[f->nseg].vaddr = ph.p_vaddr;
		f->seg[f->nseg].memsz = ph.p_memsz;
		f->seg[f->nseg].flags = ph.p_flags;
		f->nseg++;
	}
	return 0;
}

/* Whether the table of n entries of size ent at off ends past size
 * (a file cut short: libelf then finds no sections, and no name). */
static int
past_end(uint64_t off, uint64_t n, uint64_t ent, uint64_t size)
{
	return n > 0 && (off > size || (ent > 0 && n > (size - off) / ent));
}

static int
read_elf(struct d9s_elffile *f, Elf *elf, uint64_t size, struct d9_err *e)
{
	GElf_Ehdr eh;
	int rc;

	if (elf_kind(elf) != ELF_K_ELF)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0, "not an ELF file");
	if (gelf_getehdr(elf, &eh) == NULL)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0, "bad ELF header: %s",
		    elf_errmsg(-1));
	if (past_end(eh.e_phoff, eh.e_phnum, eh.e_phentsize, size) ||
	    past_end(eh.e_shoff, eh.e_shnum, eh.e_shentsize, size))
		return d9_err_set(e, D9_ERR_TRUNCATED, size, "byte %llu: cut "
		    "short (its headers say it is longer)",
		    (unsigned long long)size);
	f->type = eh.e_type;
	f->elfclass = eh.e_ident[EI_CLASS];
	/* segments first: a PT_NOTE build id is what the loader sees */
	if ((rc = read_segments(f, elf, e)) != 0 ||
	    (rc = read_sections(f, elf, e)) != 0)
		return rc;
	if ((rc = d9s_elfsyms_load(&f->syms, elf, &f->arena, e)) != 0)
		return rc;
	if (d9s_plt_load(&f->plt, elf, &f->arena) < 0)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "PLT names");
	return 0;
}

int
d9s_elffile_open(struct d9s_elffile *f, const char *path, struct d9_err *e)
{
	Elf *elf;
	struct stat sb;
	int fd, rc;

	memset(f, 0, sizeof *f);
	d9_arena_init(&f->arena, 0);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return d9_err_set(e, D9_ERR_IO, 0, "libelf is out of date");
	/* a regular file of a sane size: no device, no FIFO */
	if ((fd = d9_file_open(path, D9_FILE_MAX_ELF, NULL, e)) == -1)
		return -e->code;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL) {
		rc = d9_err_set(e, D9_ERR_BAD_VALUE, 0, "not an ELF file: %s",
		    elf_errmsg(-1));
		close(fd);
		return rc;
	}
	rc = fstat(fd, &sb) < 0 ? d9_err_set(e, D9_ERR_IO, 0, "%s",
	    strerror(errno)) : read_elf(f, elf, (uint64_t)sb.st_size, e);
	elf_end(elf);
	close(fd);
	if (rc != 0)
		d9s_elffile_close(f);
	return rc;
}

void
d9s_elffile_close(struct d9s_elffile *f)
{
	d9s_elfsyms_free(&f->syms);
	d9s_plt_free(&f->plt);
	free(f->seg);
	free(f->sec);
	d9_arena_free(&f->arena);
	memset(f, 0, sizeof *f);
}

const struct d9s_section *
d9s_elffile_section(const struct d9s_elffile *f, uint64_t addr)
{
	size_t i;

	for (i = 0; i < f->nsec; i++)
		if (addr >= f->sec[i].addr &&
		    addr - f->sec[i].addr < f->sec[i].size)
			return &f->sec[i];
	return NULL;
}

int
d9s_elffile_vaddr(const struct d9s_elffile *f, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < f->nseg; i++) {
		const struct d9s_segment *s = &f->seg[i];

		if (off >= s->off && off - s->off < s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -1;
}

void
d9s_build_id_hex(const uint8_t *id, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[2 * len] = '\0';
}
