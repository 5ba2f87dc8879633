/*
 * hostile.h: inputs that try to act on the terminal or the machine,
 * written at test time (nothing big is committed): trace strings and
 * file names holding escape sequences, bidirectional controls,
 * zero-width and combining marks, NULs and bytes that are not UTF-8,
 * and a gzip "string bomb". hostile_clean() is the judge of output.
 */
#ifndef D9_TEST_HOSTILE_H
#define D9_TEST_HOSTILE_H

#include <stddef.h>

/* Marks around the pieces of the payload, so tests can find each one. */
#define HOSTILE_TITLE	"\033]0;PWNED\007"		/* OSC 0: window title */
#define HOSTILE_CLIP	"\033]52;c;UFdORUQ=\007"	/* OSC 52: clipboard */
#define HOSTILE_CLEAR	"\033[2J"			/* clear the screen */
#define HOSTILE_TAIL	"TAIL-AFTER-NUL"

/*
 * Write into dir (which exists): a directory whose name is hostile, and
 * in it strings.bin (a runtime trace whose spawn location, span name,
 * symbol names, metadata, custom schema and field names and mapped file
 * path carry the payload, the location with a NUL before HOSTILE_TAIL),
 * bad.bin (a schema with a hostile name and a field of unknown type,
 * which stops its stream with a message quoting both) and a file with a
 * hostile name that is no trace. Returns the hostile directory's path
 * (malloc'd).
 */
char	*hostile_dir(const char *dir);
/* Write a gzip trace of n pooled strings of len bytes each, referenced
 * by events, to path. */
void	 hostile_bomb(const char *path, unsigned n, size_t len);
/*
 * 0 when p[0, n) is fit for a terminal: UTF-8 without controls (but
 * newlines), C1 controls, bidirectional controls, zero-width or
 * combining marks; else -1 and *why says what and where.
 */
int	 hostile_clean(const char *p, size_t n, char *why, size_t whylen);

#endif
