/*
 * module.c: debug file discovery. A candidate is accepted only if it is an
 * ELF file with .debug_info and, when both sides have one, the same build
 * id; a .gnu_debuglink candidate must also have the CRC-32 the link
 * records. The first rejection is kept so "no debug info" can say why.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "base/file.h"
#include "base/text.h"
#include "symbolize/module.h"

#define D9S_SYSTEM_DEBUG_DIR "/usr/lib/debug"
#define D9S_DWARF_TIMEOUT_MS 60000	/* a 70 MB binary takes about 1 s */

static int
file_crc(const char *path, uint32_t *out, struct d9_err *e)
{
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	ssize_t got;
	int fd;

	/* named by the binary: maybe a device that never ends */
	if ((fd = d9_file_open(path, D9_FILE_MAX_ELF, NULL, e)) == -1)
		return -1;
	while ((got = read(fd, buf, sizeof buf)) != 0) {
		if (got == -1) {
			if (errno == EINTR)
				continue;
			close(fd);
			return d9_err_set(e, D9_ERR_IO, 0, "%s",
			    strerror(errno));
		}
		crc = crc32(crc, buf, (uInt)got);
	}
	close(fd);
	*out = (uint32_t)crc;
	return 0;
}

/* Try one candidate debug file; 1 when taken, 0 when not (reason kept in
 * m->nodebug if none was kept yet), -1 when out of memory. */
static int
try_debug(struct d9s_module *m, const char *cand, int check_crc)
{
	struct d9_err e;
	uint32_t crc;
	const char *why = NULL;
	int opened = 0;

	if (access(cand, R_OK) != 0)
		return 0;
	if (check_crc && file_crc(cand, &crc, &e) != 0)
		why = e.msg;
	else if (check_crc && crc != m->elf.debuglink_crc)
		why = "CRC does not match the .gnu_debuglink";
	else if (d9s_elffile_open(&m->dbg, cand, &e) != 0)
		why = e.msg;
	else {
		opened = 1;
		if (!m->dbg.has_dwarf)
			why = "has no .debug_info";
		else if (m->elf.build_id_len > 0 && m->dbg.build_id_len > 0 &&
		    (m->elf.build_id_len != m->dbg.build_id_len ||
		    memcmp(m->elf.build_id, m->dbg.build_id,
		    m->elf.build_id_len) != 0))
			why = "build id differs from the binary's";
	}
	if (why != NULL) {
		if (m->nodebug.code == 0)
			d9_err_set(&m->nodebug, D9_ERR_BAD_VALUE, 0,
			    "debug file %s: %s", cand, why);
		if (opened)
			d9s_elffile_close(&m->dbg);
		return 0;
	}
	if ((m->debug_path = strdup(cand)) == NULL) {
		d9s_elffile_close(&m->dbg);
		return -1;
	}
	m->has_dbg = 1;
	return 1;
}

static int
find_by_build_id(struct d9s_module *m, const char *const *dirs, size_t ndirs)
{
	char hex[2 * D9S_BUILD_ID_MAX + 1], cand[PATH_MAX];
	size_t i;
	int rc;

	if (m->elf.build_id_len < 2)
		return 0;
	d9s_build_id_hex(m->elf.build_id, m->elf.build_id_len, hex);
	for (i = 0; i <= ndirs; i++) {
		const char *dir = i < ndirs ? dirs[i] : D9S_SYSTEM_DEBUG_DIR;

		if (snprintf(cand, sizeof cand, "%s/.build-id/%.2s/%s.debug",
		    dir, hex, hex + 2) >= (int)sizeof cand)
			continue;
		if ((rc = try_debug(m, cand, 0)) != 0)
			return rc;
	}
	return 0;
}

static int
find_by_link(struct d9s_module *m, const char *const *dirs, size_t ndirs)
{
	char dir[PATH_MAX], cand[PATH_MAX], *slash;
	const char *link = m->elf.debuglink;
	size_t i;
	int rc;

	if (link == NULL || strchr(link, '/') != NULL)
		return 0;
	if (realpath(m->path, dir) == NULL)
		return 0;
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (snprintf(cand, sizeof cand, "%s/%s", dir, link) <
	    (int)sizeof cand && (rc = try_debug(m, cand, 1)) != 0)
		return rc;
	if (snprintf(cand, sizeof cand, "%s/.debug/%s", dir, link) <
	    (int)sizeof cand && (rc = try_debug(m, cand, 1)) != 0)
		return rc;
	for (i = 0; i <= ndirs; i++) {
		const char *d = i < ndirs ? dirs[i] : D9S_SYSTEM_DEBUG_DIR;

		if (snprintf(cand, sizeof cand, "%s%s/%s", d, dir, link) <
		    (int)sizeof cand && (rc = try_debug(m, cand, 1)) != 0)
			return rc;
		if (snprintf(cand, sizeof cand, "%s/%s", d, link) <
		    (int)sizeof cand && (rc = try_debug(m, cand, 1)) != 0)
			return rc;
	}
	return 0;
}

static int
check_build_id(const struct d9s_module *m, const uint8_t *want,
    size_t want_len, struct d9_err *e)
{
	char have_hex[2 * D9S_BUILD_ID_MAX + 1];
	char want_hex[2 * D9S_BUILD_ID_MAX + 1];
	const struct d9s_elffile *f = &m->elf;

	if (want_len == 0)
		return 0;
	if (want_len > D9S_BUILD_ID_MAX)
		return d9_err_set(e, D9_ERR_USAGE, 0,
		    "expected build id is longer than %d bytes",
		    D9S_BUILD_ID_MAX);
	d9s_build_id_hex(want, want_len, want_hex);
	if (f->build_id_len == 0)
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "file has no build id, expected %s", want_hex);
	if (f->build_id_len == want_len &&
	    memcmp(f->build_id, want, want_len) == 0)
		return 0;
	d9s_build_id_hex(f->build_id, f->build_id_len, have_hex);
	return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
	    "build id mismatch: file has %s, expected %s", have_hex, want_hex);
}

int
d9s_module_open(struct d9s_module **out, const char *path,
    const char *const *debug_dirs, size_t ndirs, const uint8_t *want_id,
    size_t want_len, struct d9_err *e)
{
	struct d9s_module *m;
	int rc;

	*out = NULL;
	if ((m = calloc(1, sizeof *m)) == NULL ||
	    (m->path = strdup(path)) == NULL) {
		free(m);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "module");
	}
	if ((rc = d9s_elffile_open(&m->elf, path, e)) != 0) {
		free(m->path);
		free(m);
		return rc;
	}
	if ((rc = check_build_id(m, want_id, want_len, e)) != 0)
		goto fail;
	if (m->elf.has_dwarf) {
		if ((m->debug_path = strdup(path)) == NULL)
			goto nomem;
	} else {
		rc = find_by_build_id(m, debug_dirs, ndirs);
		if (rc == 0)
			rc = find_by_link(m, debug_dirs, ndirs);
		if (rc == -1)
			goto nomem;
		if (rc == 0 && m->nodebug.code == 0)
			d9_err_set(&m->nodebug, D9_ERR_BAD_VALUE, 0,
			    "no debug info%s", m->elf.debuglink != NULL ?
			    " (the .gnu_debuglink file was not found)" : "");
	}
	m->syms = &m->elf.syms;
	if (m->elf.syms.n == 0 || (m->elf.syms.dynamic && m->has_dbg &&
	    m->dbg.syms.n > 0 && !m->dbg.syms.dynamic))
		m->syms = m->has_dbg ? &m->dbg.syms : &m->elf.syms;
	*out = m;
	return 0;
nomem:
	rc = d9_err_set(e, D9_ERR_NOMEM, 0, "module");
fail:
	d9s_module_free(&m);
	return rc;
}

void
d9s_module_free(struct d9s_module **mp)
{
	struct d9s_module *m = *mp;

	if (m == NULL)
		return;
	d9s_dwarf_free(&m->dwarf);
	d9s_elffile_close(&m->elf);
	if (m->has_dbg)
		d9s_elffile_close(&m->dbg);
	free(m->debug_path);
	free(m->path);
	free(m);
	*mp = NULL;
}

int
d9s_module_dwarf(struct d9s_module *m, struct d9s_dwarf **out,
    struct d9_err *e)
{
	const struct d9s_elffile *f = m->has_dbg ? &m->dbg : &m->elf;
	int rc;

	*out = NULL;
	if (m->dwarf_state == 0) {
		if (m->debug_path == NULL)
			m->dwarf_err = m->nodebug;
		else if (f->zstd_dwarf)
			d9_err_set(&m->dwarf_err, D9_ERR_CONTAINER, 0,
			    "debug sections compressed with zstd are not "
			    "supported");
		else if ((rc = d9s_dwarf_read(&m->dwarf, m->debug_path,
		    D9S_DWARF_TIMEOUT_MS, &m->dwarf_err)) == 0) {
			m->dwarf_state = 1;
			*out = m->dwarf;
			return 0;
		}
		m->dwarf_state = -1;
	}
	if (m->dwarf_state == 1) {
		*out = m->dwarf;
		return 0;
	}
	*e = m->dwarf_err;
	return -m->dwarf_err.code;
}

/* path escaped into out (cap bytes, at least 16), the middle left out
 * when it does not fit. */
static void
escaped_path(char *out, size_t cap, const char *path)
{
	size_t len = strlen(path), keep, head, start;
	char *all = malloc(4 * len + 1);

	if (all != NULL && d9_text_safe(all, 4 * len + 1, path, len) < cap) {
		memcpy(out, all, strlen(all) + 1);
		free(all);
		return;
	}
	free(all);
	/* keep chars on each side of "...": a raw byte escapes to 4 at most */
	keep = (cap - 4) / 2;
	head = d9_text_safe(out, keep + 1, path, len);
	memcpy(out + head, "...", 3);
	start = len > keep / 4 ? len - keep / 4 : 0;
	while (start < len && ((unsigned char)path[start] & 0xc0) == 0x80)
		start++;
	d9_text_safe(out + head + 3, cap - head - 3, path + start, len - start);
}

int
d9s_module_unreadable(const struct d9s_module *m, char *out, size_t cap)
{
	static const char fmt[] =
	    "DWARF of %s unreadable: names from its symbol table only (%s)";
	char file[1024];
	size_t room, fixed = sizeof fmt - 5 + strlen(m->dwarf_err.msg);

	if (m->dwarf_state != -1 || m->debug_path == NULL ||
	    m->dwarf_err.code == D9_ERR_NOMEM)
		return -1;
	room = cap > fixed + 16 ? cap - fixed : 16;
	escaped_path(file, room < sizeof file ? room : sizeof file,
	    m->debug_path);
	snprintf(out, cap, fmt, file, m->dwarf_err.msg);
	return 0;
}
