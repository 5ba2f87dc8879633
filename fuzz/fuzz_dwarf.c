/*
 * fuzz_dwarf.c: bytes -> what d9top does with an untrusted binary. The
 * bytes become a file (a memfd, named through /proc/self/fd); the ELF
 * reader takes it (libelf: segments, sections, symbols, build id,
 * debuglink), then the DWARF index is built in this process (dwcheck's
 * checks, libdwarf, the walk, the packing), checked as a child's answer
 * would be (d9s_dwindex_load) and asked about every symbol and a sweep
 * of addresses. In d9top the build runs in a child; here it runs in the
 * fuzzer so that a crash in it, libdwarf's included, is a finding: each
 * one wants a check in dwcheck.c.
 *
 * Inputs that start with the index's magic ("d9ix") go straight to the
 * index checker and lookups: what a child gone wrong could hand back.
 * Inputs are capped at 256 KiB. Run with allocations above 1 GiB failing
 * (fuzz/meson.build), as they fail in d9top's memory-limited child.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbolize/dwarf.h"
#include "symbolize/dwindex.h"
#include "symbolize/elffile.h"

#define MAX_INPUT	(1u << 18)
#define NSYMS		64

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
look(struct d9s_dwarf *d, uint64_t addr)
{
	struct d9s_frame fr[D9S_MAX_FRAMES];
	struct d9_err e;
	int n = d9s_dwarf_lookup(d, addr, fr, D9S_MAX_FRAMES, &e);
	volatile size_t len = 0;

	/* every string handed out must be readable to its end */
	for (int i = 0; i < n; i++) {
		if (fr[i].function != NULL)
			len += strlen(fr[i].function);
		if (fr[i].file != NULL)
			len += strlen(fr[i].file);
	}
}

/* Addresses to ask about: each 8-byte word of the first 512 bytes. */
static void
sweep(struct d9s_dwarf *d, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 8 <= size && i < 512; i += 8) {
		uint64_t a;

		memcpy(&a, data + i, sizeof a);
		look(d, a);
	}
}

static void
index_bytes(const uint8_t *data, size_t size)
{
	struct d9s_dwarf *d;
	struct d9_err e;
	void *copy = malloc(size);

	if (copy == NULL)
		return;
	memcpy(copy, data, size);
	if (d9s_dwindex_load(&d, copy, size, &e) != 0)
		return;
	sweep(d, data, size);
	d9s_dwarf_free(&d);
}

static void
elf_file(const char *path, const uint8_t *data, size_t size)
{
	struct d9s_elffile f;
	struct d9s_dwarf *d;
	struct d9_err e;
	uint64_t addr[2 * NSYMS];
	size_t n = 0;

	if (d9s_elffile_open(&f, path, &e) != 0)
		return;
	for (size_t i = 0; i < f.syms.n && n < 2 * NSYMS; i++) {
		addr[n++] = f.syms.sym[i].addr;
		addr[n++] = f.syms.sym[i].addr + f.syms.sym[i].size / 2;
	}
	d9s_elffile_close(&f);
	if (d9s_dwarf_open(&d, path, &e) != 0)
		return;
	for (size_t i = 0; i < n; i++)
		look(d, addr[i]);
	sweep(d, data, size);
	d9s_dwarf_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (size > MAX_INPUT)
		return 0;
	if (size >= 4 && memcmp(data, "d9ix", 4) == 0) {
		index_bytes(data, size);
		return 0;
	}
	if ((fd = memfd_create("fuzz_dwarf", MFD_CLOEXEC)) < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	elf_file(path, data, size);
	close(fd);
	return 0;
}
