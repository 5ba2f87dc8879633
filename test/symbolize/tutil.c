/*
 * tutil.c: see tutil.h. Failures here are test failures (ck_assert), not
 * error returns: a broken fixture should stop the test at once.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <gelf.h>

#include "../rmtree.h"
#include "tutil.h"

extern char **environ;

void
tdir_make(struct tdir *d)
{
	const char *base = getenv("TMPDIR");

	snprintf(d->path, sizeof d->path, "%s/d9s-test.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
}

void
tdir_remove(struct tdir *d)
{
	t_rmtree(d->path);
}

char *
tdir_file(const struct tdir *d, const char *name, char *out)
{
	ck_assert_int_lt(snprintf(out, PATH_MAX, "%s/%s", d->path, name),
	    PATH_MAX);
	return out;
}

int
run_cmd(char *const argv[], const char *in_path, const char *out_path)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, rc;

	posix_spawn_file_actions_init(&fa);
	if (in_path != NULL)
		posix_spawn_file_actions_addopen(&fa, 0, in_path, O_RDONLY, 0);
	if (out_path != NULL)
		posix_spawn_file_actions_addopen(&fa, 1, out_path,
		    O_WRONLY | O_CREAT | O_TRUNC, 0644);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

char *
read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t cap = 0, n = 0, got;

	ck_assert_msg(f != NULL, "cannot read %s", path);
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 65536;
			ck_assert_ptr_nonnull(p = realloc(p, cap + 1));
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	p[n] = '\0';
	if (len != NULL)
		*len = n;
	return p;
}

char *
stream_text(FILE *f)
{
	long len = ftell(f);
	char *p;

	ck_assert_int_ge(len, 0);
	rewind(f);
	ck_assert_ptr_nonnull(p = calloc(1, (size_t)len + 1));
	ck_assert_uint_eq(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return p;
}

void
write_all(const char *path, const void *p, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_msg(f != NULL, "cannot write %s", path);
	ck_assert_uint_eq(fwrite(p, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

const char *
prog_path(const char *key)
{
	char name[64];
	const char *v;

	snprintf(name, sizeof name, "D9S_TEST_%s", key);
	v = getenv(name);
	return v != NULL && *v != '\0' ? v : NULL;
}

static int
is_addr_line(const char *l, size_t len)
{
	size_t i;

	if (len != 18 || strncmp(l, "0x", 2) != 0)
		return 0;
	for (i = 2; i < 18; i++)
		if (strchr("0123456789abcdef", l[i]) == NULL)
			return 0;
	return 1;
}

void
a2l_parse(struct a2l_out *o, const char *path)
{
	char *line, *next;
	size_t cap = 0;

	memset(o, 0, sizeof *o);
	o->buf = read_all(path, NULL);
	for (line = o->buf; *line != '\0'; line = next) {
		char *nl = strchr(line, '\n');

		next = nl != NULL ? nl + 1 : line + strlen(line);
		if (!is_addr_line(line, nl != NULL ? (size_t)(nl - line) :
		    strlen(line)))
			continue;
		if (nl != NULL)
			*nl = '\0';
		if (o->n == cap) {
			cap = cap ? cap * 2 : 1024;
			ck_assert_ptr_nonnull(o->b = realloc(o->b,
			    cap * sizeof *o->b));
		}
		o->b[o->n].addr = strtoull(line, NULL, 16);
		o->b[o->n].text = next;
		o->n++;
		/* end the previous block's text at this address line */
		if (o->n > 1)
			line[-1] = '\0';
	}
}

void
a2l_free(struct a2l_out *o)
{
	free(o->buf);
	free(o->b);
	memset(o, 0, sizeof *o);
}

const char *
a2l_find(const struct a2l_out *o, uint64_t addr)
{
	size_t lo = 0, hi = o->n;

	/* blocks come in input order, which is sorted */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->b[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->n && o->b[lo].addr == addr ? o->b[lo].text : NULL;
}

size_t
section_at(const char *bin, const char *name, size_t *size)
{
	int fd = open(bin, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr, off = 0;

	ck_assert_int_ge(fd, 0);
	elf_version(EV_CURRENT);
	ck_assert_ptr_nonnull(elf = elf_begin(fd, ELF_C_READ, NULL));
	ck_assert_int_eq(elf_getshdrstrndx(elf, &shstr), 0);
	while (off == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
		n = elf_strptr(elf, shstr, sh.sh_name);
		if (n != NULL && strcmp(n, name) == 0) {
			off = sh.sh_offset;
			*size = sh.sh_size;
		}
	}
	elf_end(elf);
	close(fd);
	return off;
}
