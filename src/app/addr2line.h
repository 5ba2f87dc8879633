/*
 * addr2line.h: `d9top --addr2line`, a drop-in for binutils
 * `addr2line -f -i -C -e ELF ADDR...`: for each address the function
 * (demangled), then file:line, inline frames first, in exactly the text
 * binutils 2.40 prints (including "??" / "??:0" / "??:?", the
 * " (discriminator N)" suffix and its full-path rules); the frames come
 * from symbolize/addr2line.h.
 *
 * argv holds the arguments after "--addr2line" (argv[0] is the first of
 * them, not a program name):
 *
 *	-e FILE, --exe=FILE	binary to read (default a.out, as binutils)
 *	-a, --addresses		print each address first (0x%016x)
 *	-f, -i, -C		accepted; always on
 *	--debug-dir DIR		look for separate debug files in DIR first
 *	ADDR...			hex, with or without 0x; none: read stdin,
 *				one address per line, flushing each answer
 *
 * Returns 0, 1 when the binary cannot be read ("d9top: FILE: why" on the
 * error stream) or 2 on bad usage.
 */
#ifndef D9A_ADDR2LINE_H
#define D9A_ADDR2LINE_H

#include <stdio.h>

int	d9a_addr2line_run(int argc, char **argv);
/* The same with explicit streams (tests). */
int	d9a_addr2line_stream(int argc, char **argv, FILE *in, FILE *out,
	    FILE *err);

#endif
