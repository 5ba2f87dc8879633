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
 * Names come from an untrusted binary: the printer escapes them.
 */
#include <stdlib.h>
#include <string.h>

#include "base/demangle.h"
#include "symbolize/addr2line.h"
#include "symbolize/module.h"

int
d9s_a2l_open(struct d9s_a2l *a, const char *exe, const char *const *dirs,
    size_t ndirs, struct d9_err *e, char *warn, size_t warnlen)
{
	memset(a, 0, sizeof *a);
	if (warnlen > 0)
		warn[0] = '\0';
	if (d9s_module_open(&a->m, exe, dirs, ndirs, NULL, 0, e) != 0)
		return -1;
	if (d9s_module_dwarf(a->m, &a->dw, e) != 0) {
		a->dw = NULL;
		if (e->code == D9_ERR_NOMEM) {
			d9s_module_free(&a->m);
			return -1;
		}
		/* DWARF is there but unreadable: say so, go on with symbols */
		if (d9s_module_unreadable(a->m, warn, warnlen) != 0 &&
		    warnlen > 0)
			warn[0] = '\0';
	}
	return 0;
}

int
d9s_a2l_elf32(const struct d9s_a2l *a)
{
	return a->m->elf.elfclass == 1;
}

/* ELF names are mangled (DWARF ones are demangled already). */
static void
name_demangled(struct d9s_a2l_answer *ans, const char *name)
{
	ans->f[0].function = name;
	if (name != NULL && *name != '\0' &&
	    (ans->demangled = d9_demangle(name)) != NULL)
		ans->f[0].function = ans->demangled;
}

int
d9s_a2l_resolve(struct d9s_a2l *a, uint64_t pc, struct d9s_a2l_answer *ans)
{
	struct d9s_frame fr[D9S_MAX_FRAMES];
	const struct d9s_section *sec;
	const struct d9s_elfsym *s = NULL;
	const char *file = NULL;
	struct d9_err e;
	int n = 0, covers;

	d9s_a2l_answer_free(ans);
	if ((sec = d9s_elffile_section(&a->m->elf, pc)) == NULL)
		return 0;
	if (a->dw != NULL &&
	    (n = d9s_dwarf_lookup(a->dw, pc, fr, D9S_MAX_FRAMES, &e)) < 0)
		return -1;
	if (n > 0)
		file = fr[0].file;
	if (n == 0 || (fr[0].flags & D9S_FRAME_NOFUNC) ||
	    !(fr[0].flags & D9S_FRAME_LINKAGE))
		s = d9s_elfsyms_find(a->m->syms, sec->index, pc, &covers);
	if (n == 0 && s == NULL)
		return 0;
	ans->n = n == 0 ? 1 : (size_t)n;
	if (s != NULL) {
		name_demangled(ans, s->name);
		if (file == NULL)
			file = s->file;
	} else
		ans->f[0].function = fr[0].function;
	ans->f[0].file = file;
	if (n == 0)
		return 0;	/* line 0 */
	ans->f[0].line = fr[0].line;
	ans->f[0].discriminator = fr[0].discriminator;
	for (int i = 1; i < n; i++)
		ans->f[i] = (struct d9s_a2l_frame){ fr[i].function,
		    fr[i].file, fr[i].line, fr[0].discriminator };
	return 0;
}

void
d9s_a2l_answer_free(struct d9s_a2l_answer *ans)
{
	free(ans->demangled);
	memset(ans, 0, sizeof *ans);
}

void
d9s_a2l_close(struct d9s_a2l *a)
{
	d9s_module_free(&a->m);
	a->dw = NULL;
}
