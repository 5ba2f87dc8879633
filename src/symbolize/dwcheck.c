/*
 * dwcheck.c: walk the unit headers of the DWARF 5 list sections: each
 * unit's length must fit the section, its version be 5, its address
 * size 4 or 8, no segment selector, and its offset table fit the unit.
 */
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "symbolize/dwcheck.h"

static int
check_units(const char *name, const uint8_t *p, size_t n, struct d9_err *e)
{
	struct d9_buf b = { p, n, 0 };

	while (d9_buf_left(&b) > 0) {
		size_t start = b.pos, body;
		uint32_t len32, count;
		uint64_t len;
		uint16_t version;
		uint8_t asize, segsel;
		int off64 = 0;

		if (d9_buf_u32(&b, &len32) < 0)
			goto bad;
		len = len32;
		if (len32 == 0xffffffffu) {
			off64 = 1;
			if (d9_buf_u64(&b, &len) < 0)
				goto bad;
		} else if (len32 >= 0xfffffff0u)
			goto bad;
		body = b.pos;
		if (len < 8 || len > d9_buf_left(&b) ||
		    d9_buf_u16(&b, &version) < 0 || d9_buf_u8(&b, &asize) < 0 ||
		    d9_buf_u8(&b, &segsel) < 0 || d9_buf_u32(&b, &count) < 0)
			goto bad;
		if (version != 5 || (asize != 4 && asize != 8) || segsel != 0 ||
		    (uint64_t)count * (off64 ? 8 : 4) > len - 8)
			goto bad;
		b.pos = body + (size_t)len;
		continue;
bad:
		return d9_err_set(e, D9_ERR_BAD_VALUE, start,
		    "corrupt %s unit header at offset %zu", name, start);
	}
	return 0;
}

int
d9s_dwcheck_lists(const char *path, struct d9_err *e)
{
	int fd, rc = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;	/* the opener reports unreadable files */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	while (rc == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name == NULL || (strcmp(name, ".debug_rnglists") != 0 &&
		    strcmp(name, ".debug_loclists") != 0))
			continue;
		data = elf_getdata(scn, NULL);
		if (data == NULL || data->d_buf == NULL)
			continue;
		rc = check_units(name, data->d_buf, data->d_size, e);
	}
out:
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return rc;
}
