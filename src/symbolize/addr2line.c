/*
 * addr2line.c: binutils addr2line's decisions, replayed on d9top's index.
 * Per address (binutils 2.40 translate_addresses() and
 * _bfd_dwarf2_find_nearest_line()):
 *
 *  1. No SHF_ALLOC section holds it: "??" and "??:0".
 *  2. DWARF gives the line row and the innermost function. A function
 *     named by DW_AT_name in a language that mangles (Rust, C++) is not a
 *     "linkage" name: then, and when DWARF has no function, the ELF
 *     symbol binutils' _bfd_elf_find_function() picks names it (the
 *     nearest start at or below the address, even if it does not cover
 *     it), and its STT_FILE name stands in for a missing file name.
 *  3. Nothing found at all: "??" and "??:0"; a line of 0 prints "?".
 *  4. The discriminator of the line row is printed after every frame's
 *     line, outer inline frames included (binutils never resets it).
 *
 * Names come from an untrusted binary: they are printed escaped (text.h),
 * which changes nothing in a name made of printable characters.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"
#include "symbolize/addr2line.h"
#include "base/demangle.h"
#include "symbolize/module.h"

struct a2l {
	struct d9s_module	*m;
	struct d9s_dwarf	*dw;		/* NULL: symbols only */
	int			 addresses;	/* -a */
	FILE			*out;
};

static void
put_name(FILE *out, const char *name, int demangle)
{
	char *dem;

	if (name == NULL || *name == '\0') {
		fputs("??\n", out);
		return;
	}
	if (demangle && (dem = d9_demangle(name)) != NULL) {
		d9_text_put_line(out, "", dem);
		free(dem);
	} else
		d9_text_put_line(out, "", name);
}

static void
put_line(FILE *out, const char *file, uint32_t line, uint32_t disc)
{
	if (file == NULL)
		file = "??";
	d9_text_put_safe(out, file, strlen(file));
	putc(':', out);
	if (line == 0)
		fputs("?\n", out);
	else if (disc != 0)
		fprintf(out, "%" PRIu32 " (discriminator %" PRIu32 ")\n", line,
		    disc);
	else
		fprintf(out, "%" PRIu32 "\n", line);
}

static int
translate(struct a2l *a, uint64_t pc)
{
	struct d9s_frame fr[D9S_MAX_FRAMES];
	const struct d9s_section *sec;
	const struct d9s_elfsym *s = NULL;
	const char *name = NULL, *file = NULL;
	struct d9_err e;
	int n = 0, i, covers, sym_named = 0;

	if (a->addresses)
		fprintf(a->out, a->m->elf.elfclass == 1 ? "0x%08" PRIx64 "\n" :
		    "0x%016" PRIx64 "\n", pc);
	if ((sec = d9s_elffile_section(&a->m->elf, pc)) == NULL)
		goto unknown;
	if (a->dw != NULL &&
	    (n = d9s_dwarf_lookup(a->dw, pc, fr, D9S_MAX_FRAMES, &e)) < 0)
		return -1;
	if (n > 0) {
		file = fr[0].file;
		name = fr[0].function;
	}
	if (n == 0 || (fr[0].flags & D9S_FRAME_NOFUNC) ||
	    !(fr[0].flags & D9S_FRAME_LINKAGE)) {
		s = d9s_elfsyms_find(a->m->syms, sec->index, pc, &covers);
		if (s != NULL) {
			name = s->name;
			sym_named = 1;
			if (file == NULL)
				file = s->file;
		}
	}
	if (n == 0 && s == NULL)
		goto unknown;
	if (n == 0) {
		put_name(a->out, name, 1);
		put_line(a->out, file, 0, 0);
		return 0;
	}
	/* DWARF names are demangled already; ELF names are not */
	put_name(a->out, name, sym_named);
	put_line(a->out, file, fr[0].line, fr[0].discriminator);
	for (i = 1; i < n; i++) {
		put_name(a->out, fr[i].function, 0);
		put_line(a->out, fr[i].file, fr[i].line,
		    fr[0].discriminator);
	}
	return 0;
unknown:
	fputs("??\n??:0\n", a->out);
	return 0;
}

/* "d9top: FILE: what went wrong" + tail; the file name escaped. */
static void
file_error(FILE *err, const char *exe, const struct d9_err *e,
    const char *tail)
{
	fputs("d9top: ", err);
	d9_text_put_safe(err, exe, strlen(exe));
	fprintf(err, ": %s%s\n", e->msg, tail);
}

static int
usage(FILE *err, const char *why)
{
	fprintf(err, "d9top: %s\nusage: d9top --addr2line [-a] [-e FILE] "
	    "[--debug-dir DIR] [ADDR...]\n", why);
	return 2;
}

static int
run_addrs(struct a2l *a, int argc, char **argv, int first, FILE *in,
    FILE *err)
{
	char line[256];
	int i;

	for (i = first; i < argc; i++) {
		if (translate(a, strtoull(argv[i], NULL, 16)) != 0)
			goto nomem;
		fflush(a->out);
	}
	if (first < argc)
		return 0;
	while (fgets(line, sizeof line, in) != NULL) {
		if (translate(a, strtoull(line, NULL, 16)) != 0)
			goto nomem;
		fflush(a->out);
	}
	return 0;
nomem:
	fprintf(err, "d9top: out of memory\n");
	return 1;
}

int
d9s_addr2line_stream(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
	const char *exe = "a.out", *dirs[16];
	struct a2l a = { .out = out };
	struct d9_err e;
	size_t ndirs = 0;
	int i, rc;

	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			break;
		if (strcmp(arg, "-a") == 0 || strcmp(arg, "--addresses") == 0)
			a.addresses = 1;
		else if (strcmp(arg, "-f") == 0 || strcmp(arg, "-i") == 0 ||
		    strcmp(arg, "-C") == 0 || strcmp(arg, "--functions") == 0 ||
		    strcmp(arg, "--inlines") == 0 ||
		    strcmp(arg, "--demangle") == 0)
			continue;
		else if (strcmp(arg, "-e") == 0 || strcmp(arg, "--exe") == 0) {
			if (++i == argc)
				return usage(err, "-e needs a file");
			exe = argv[i];
		} else if (strncmp(arg, "--exe=", 6) == 0)
			exe = arg + 6;
		else if (strncmp(arg, "-e", 2) == 0)
			exe = arg + 2;
		else if (strcmp(arg, "--debug-dir") == 0) {
			if (++i == argc)
				return usage(err,
				    "--debug-dir needs a directory");
			if (ndirs == sizeof dirs / sizeof dirs[0])
				return usage(err, "too many --debug-dir");
			dirs[ndirs++] = argv[i];
		} else if (arg[1] >= '0' && arg[1] <= '9')
			break;		/* a negative address, not an option */
		else {
			d9_text_put_line(err, "d9top: unknown option ", arg);
			return usage(err, "bad --addr2line arguments");
		}
	}
	if (d9s_module_open(&a.m, exe, dirs, ndirs, NULL, 0, &e) != 0) {
		file_error(err, exe, &e, "");
		return 1;
	}
	if (d9s_module_dwarf(a.m, &a.dw, &e) != 0) {
		char why[1400];

		if (e.code == D9_ERR_NOMEM) {
			file_error(err, exe, &e, "");
			d9s_module_free(&a.m);
			return 1;
		}
		/* DWARF is there but unreadable: say so, go on with symbols */
		if (d9s_module_unreadable(a.m, why, sizeof why) == 0)
			d9_text_put_line(err, "d9top: ", why);
	}
	rc = run_addrs(&a, argc, argv, i, in, err);
	d9s_module_free(&a.m);
	return rc;
}

int
d9s_addr2line_run(int argc, char **argv)
{
	return d9s_addr2line_stream(argc, argv, stdin, stdout, stderr);
}
