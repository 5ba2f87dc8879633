/*
 * addr2line.c: see addr2line.h. The arguments, the printing of each
 * address's frames (symbolize/addr2line.h) and the exit codes. Names
 * come from an untrusted binary: they are printed escaped (text.h),
 * which changes nothing in a name made of printable characters.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "app/addr2line.h"
#include "base/err.h"
#include "base/text.h"
#include "symbolize/addr2line.h"

struct a2l {
	struct d9s_a2l		 s;
	struct d9s_a2l_answer	 ans;
	int			 addresses;	/* -a */
	FILE			*out;
};

static void
put_frame(FILE *out, const struct d9s_a2l_frame *f)
{
	const char *file = f->file ? f->file : "??";

	if (f->function == NULL || *f->function == '\0')
		fputs("??\n", out);
	else
		d9_text_put_line(out, "", f->function);
	d9_text_put_safe(out, file, strlen(file));
	putc(':', out);
	if (f->line == 0)
		fputs("?\n", out);
	else if (f->discriminator != 0)
		fprintf(out, "%" PRIu32 " (discriminator %" PRIu32 ")\n",
		    f->line, f->discriminator);
	else
		fprintf(out, "%" PRIu32 "\n", f->line);
}

static int
translate(struct a2l *a, uint64_t pc)
{
	if (a->addresses)
		fprintf(a->out, d9s_a2l_elf32(&a->s) ? "0x%08" PRIx64 "\n" :
		    "0x%016" PRIx64 "\n", pc);
	if (d9s_a2l_resolve(&a->s, pc, &a->ans) < 0)
		return -1;
	if (a->ans.n == 0)
		fputs("??\n??:0\n", a->out);
	for (size_t i = 0; i < a->ans.n; i++)
		put_frame(a->out, &a->ans.f[i]);
	fflush(a->out);
	return 0;
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

	for (i = first; i < argc; i++)
		if (translate(a, strtoull(argv[i], NULL, 16)) != 0)
			goto nomem;
	if (first < argc)
		return 0;
	while (fgets(line, sizeof line, in) != NULL)
		if (translate(a, strtoull(line, NULL, 16)) != 0)
			goto nomem;
	return 0;
nomem:
	fprintf(err, "d9top: out of memory\n");
	return 1;
}

int
d9a_addr2line_stream(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
	const char *exe = "a.out", *dirs[16];
	struct a2l a = { .out = out };
	struct d9_err e;
	char why[1400];
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
	if (d9s_a2l_open(&a.s, exe, dirs, ndirs, &e, why, sizeof why) != 0) {
		/* "d9top: FILE: what went wrong"; the file name escaped */
		fputs("d9top: ", err);
		d9_text_put_safe(err, exe, strlen(exe));
		fprintf(err, ": %s\n", e.msg);
		return 1;
	}
	if (why[0] != '\0')
		d9_text_put_line(err, "d9top: ", why);
	rc = run_addrs(&a, argc, argv, i, in, err);
	d9s_a2l_answer_free(&a.ans);
	d9s_a2l_close(&a.s);
	return rc;
}

int
d9a_addr2line_run(int argc, char **argv)
{
	return d9a_addr2line_stream(argc, argv, stdin, stdout, stderr);
}
