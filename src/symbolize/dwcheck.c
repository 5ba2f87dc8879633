/*
 * dwcheck.c: the checks of dwcheck.h. The ELF file is read with libelf
 * (ELF_C_READ: its own copies, bounds-checked); the list sections are
 * decoded through struct d9_buf, so the checks themselves cannot read
 * past what they were given.
 *
 * A list unit: unit_length (4 bytes, or 0xffffffff and 8), version (2),
 * address size (1), segment selector size (1), offset_entry_count (4),
 * then the offset table (4 or 8 bytes an entry, relative to the table's
 * start), then the lists up to the end of the unit.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "symbolize/dwcheck.h"
#include "symbolize/dwinfo.h"

/* The DWARF sections checked here. */
enum { L_RNG, L_LOC, L_INFO, L_ABBREV, L_KINDS };

static const char *const kind_name[L_KINDS] = {
	[L_RNG] = "rnglists", [L_LOC] = "loclists", [L_INFO] = "info",
	[L_ABBREV] = "abbrev",
};

struct sect {
	const uint8_t	*p;
	size_t		 n;
	const char	*name;		/* NULL: absent */
};

struct unit {
	size_t		start;		/* of the unit */
	size_t		table;		/* of the offset table */
	size_t		lists;		/* of the first list */
	size_t		end;		/* past the unit */
	uint32_t	count;		/* offset table entries */
	unsigned	osize;		/* 4 or 8 */
	uint8_t		asize;
};

static int
unit_header(struct d9_buf *b, struct unit *u)
{
	uint16_t version;
	uint8_t segsel;

	u->start = b->pos;
	if (d9s_dwarf_unit_length(b, &u->end, &u->osize) < 0 ||
	    u->end - b->pos < 8)
		return -1;
	if (d9_buf_u16(b, &version) < 0 || d9_buf_u8(b, &u->asize) < 0 ||
	    d9_buf_u8(b, &segsel) < 0 || d9_buf_u32(b, &u->count) < 0)
		return -1;
	if (version != 5 || (u->asize != 4 && u->asize != 8) || segsel != 0 ||
	    (uint64_t)u->count * u->osize > u->end - b->pos)
		return -1;
	u->table = b->pos;
	u->lists = u->table + (size_t)u->count * u->osize;
	return 0;
}

static void
mark(struct d9s_dwcheck *c, size_t off)
{
	c->rle[off / 8] |= (uint8_t)(1u << (off % 8));
}

int
d9s_dwcheck_rnglist_at(const struct d9s_dwcheck *c, uint64_t off)
{
	return off < c->nrle && (c->rle[off / 8] >> (off % 8) & 1);
}

/* Decode the lists of a .debug_rnglists unit from its first to its end,
 * marking where each entry starts. 0, or -1 when an entry is unknown or
 * cut by the end of the unit, or a list is not ended in it. */
static int
rle_walk(struct d9s_dwcheck *c, const uint8_t *p, const struct unit *u)
{
	struct d9_buf b = { p, u->end, u->lists };
	uint8_t kind = 0;

	while (d9_buf_left(&b) > 0) {
		uint64_t v;
		int ok;

		mark(c, b.pos);
		if (d9_buf_u8(&b, &kind) < 0)
			return -1;
		switch (kind) {
		case 0:		/* DW_RLE_end_of_list */
			ok = 1;
			break;
		case 1:		/* DW_RLE_base_addressx */
			ok = d9_buf_leb128(&b, &v) == 0;
			break;
		case 2:		/* DW_RLE_startx_endx */
		case 3:		/* DW_RLE_startx_length */
		case 4:		/* DW_RLE_offset_pair */
			ok = d9_buf_leb128(&b, &v) == 0 &&
			    d9_buf_leb128(&b, &v) == 0;
			break;
		case 5:		/* DW_RLE_base_address */
			ok = d9_buf_skip(&b, u->asize) == 0;
			break;
		case 6:		/* DW_RLE_start_end */
			ok = d9_buf_skip(&b, 2u * u->asize) == 0;
			break;
		case 7:		/* DW_RLE_start_length */
			ok = d9_buf_skip(&b, u->asize) == 0 &&
			    d9_buf_leb128(&b, &v) == 0;
			break;
		default:
			ok = 0;
		}
		if (!ok)
			return -1;
	}
	/* a unit without lists is fine; else the last must be ended */
	return b.pos == u->lists || kind == 0 ? 0 : -1;
}

/* Each offset table entry of the unit points at a list of it. */
static int
offsets_ok(const struct d9s_dwcheck *c, int kind, const uint8_t *p,
    const struct unit *u)
{
	struct d9_buf b = { p, u->lists, u->table };

	for (uint32_t i = 0; i < u->count; i++) {
		uint64_t v = 0;
		uint32_t v32 = 0;

		if (u->osize == 8 ? d9_buf_u64(&b, &v) < 0 :
		    d9_buf_u32(&b, &v32) < 0)
			return -1;
		if (u->osize == 4)
			v = v32;
		if (v < u->lists - u->table || v >= u->end - u->table)
			return -1;
		if (kind == L_RNG && !d9s_dwcheck_rnglist_at(c, u->table + v))
			return -1;
	}
	return 0;
}

static int
check_lists(struct d9s_dwcheck *c, int kind, const char *name,
    const uint8_t *p, size_t n, struct d9_err *e)
{
	struct d9_buf b = { p, n, 0 };

	if (kind == L_RNG) {
		if ((c->rle = calloc(n / 8 + 1, 1)) == NULL)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF check");
		c->nrle = n;
	}
	while (d9_buf_left(&b) > 0) {
		struct unit u;

		if (unit_header(&b, &u) != 0)
			return d9_err_set(e, D9_ERR_BAD_VALUE, u.start,
			    "corrupt %s unit header at offset %zu", name,
			    u.start);
		if ((kind == L_RNG && rle_walk(c, p, &u) != 0) ||
		    offsets_ok(c, kind, p, &u) != 0)
			return d9_err_set(e, D9_ERR_BAD_VALUE, u.start,
			    "corrupt %s unit at offset %zu", name, u.start);
		b.pos = u.end;
	}
	return 0;
}

/* The kind of the DWARF section called name (.debug_ or .zdebug_, plain
 * or .dwo: libdwarf reads each of these), or -1. */
static int
dwarf_kind(const char *name)
{
	size_t skip = strncmp(name, ".debug_", 7) == 0 ? 7 :
	    strncmp(name, ".zdebug_", 8) == 0 ? 8 : 0;

	if (skip == 0)
		return -1;
	for (int k = 0; k < L_KINDS; k++) {
		size_t len = strlen(kind_name[k]);

		if (strncmp(name + skip, kind_name[k], len) == 0 &&
		    (name[skip + len] == '\0' ||
		    strcmp(name + skip + len, ".dwo") == 0))
			return k;
	}
	return -1;
}

/* The header and section table libdwarf will read, all inside the file. */
static int
check_elf(Elf *elf, size_t fsize, size_t *shstrndx, struct d9_err *e)
{
	GElf_Ehdr eh;
	size_t shnum, entsize;

	if (elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &eh) == NULL)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0, "not an ELF file");
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "big-endian DWARF is not read");
	if (elf_getshdrnum(elf, &shnum) != 0 ||
	    elf_getshdrstrndx(elf, shstrndx) != 0)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "corrupt section headers: %s", elf_errmsg(-1));
	if (shnum == 0)
		return 0;
	entsize = gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT);
	if (entsize == 0 || eh.e_shentsize != entsize || eh.e_shoff > fsize ||
	    shnum > (fsize - eh.e_shoff) / entsize || *shstrndx >= shnum)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "corrupt section header table");
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (scn == NULL || gelf_getshdr(scn, &sh) == NULL)
			return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "corrupt section header %zu", i);
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > fsize ||
		    sh.sh_size > fsize - sh.sh_offset))
			return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "section %zu lies outside the file", i);
		if (elf_strptr(elf, *shstrndx, sh.sh_name) == NULL)
			return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "section %zu has a name outside the name table", i);
	}
	return 0;
}

/* The sections of the kinds above, at most one each, decompressed. */
static int
find_sections(Elf *elf, size_t shstrndx, struct sect *sec, struct d9_err *e)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;
		int kind, z;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL ||
		    (kind = dwarf_kind(name)) < 0 || sh.sh_type == SHT_NOBITS)
			continue;
		if (sec[kind].name != NULL)
			return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "more than one %s section", name);
		sec[kind].name = name;
		z = name[1] == 'z' ? elf_compress_gnu(scn, 0, 0) :
		    (sh.sh_flags & SHF_COMPRESSED) ? elf_compress(scn, 0, 0) : 0;
		if (z < 0)
			return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "%s: cannot decompress: %s", name, elf_errmsg(-1));
		data = elf_getdata(scn, NULL);
		if (data == NULL || (data->d_size > 0 && data->d_buf == NULL))
			return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "%s: cannot read: %s", name, elf_errmsg(-1));
		sec[kind].p = data->d_buf;
		sec[kind].n = data->d_size;
	}
	return 0;
}

static int
check_sections(struct d9s_dwcheck *c, Elf *elf, size_t shstrndx,
    struct d9_err *e)
{
	struct sect sec[L_KINDS];
	int rc;

	memset(sec, 0, sizeof sec);
	if ((rc = find_sections(elf, shstrndx, sec, e)) != 0)
		return rc;
	for (int k = L_RNG; k <= L_LOC && rc == 0; k++)
		if (sec[k].name != NULL)
			rc = check_lists(c, k, sec[k].name, sec[k].p, sec[k].n,
			    e);
	if (rc == 0 && sec[L_INFO].name != NULL)
		rc = d9s_dwinfo_check(sec[L_INFO].p, sec[L_INFO].n,
		    sec[L_ABBREV].p, sec[L_ABBREV].n, e);
	return rc;
}

int
d9s_dwcheck_file(struct d9s_dwcheck *c, const char *path, struct d9_err *e)
{
	uint64_t size = 0;
	size_t shstrndx = 0;
	Elf *elf = NULL;
	int fd, rc;

	memset(c, 0, sizeof *c);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0, "libelf: %s",
		    elf_errmsg(-1));
	if ((fd = d9_file_open(path, D9_FILE_MAX_ELF, &size, e)) < 0) {
		rc = -e->code;
		goto out;
	}
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		rc = d9_err_set(e, D9_ERR_BAD_VALUE, 0, "not an ELF file");
		goto out;
	}
	if ((rc = check_elf(elf, (size_t)size, &shstrndx, e)) == 0)
		rc = check_sections(c, elf, shstrndx, e);
out:
	if (elf != NULL)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return rc;
}

void
d9s_dwcheck_free(struct d9s_dwcheck *c)
{
	free(c->rle);
	memset(c, 0, sizeof *c);
}
