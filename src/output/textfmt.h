/*
 * textfmt.h: text helpers of the report: durations the way dial9 prints
 * them, and trace strings made safe and cut to a width (from the left,
 * so the distinctive end of a path or symbol stays).
 */
#ifndef D9O_TEXTFMT_H
#define D9O_TEXTFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

const char	*d9o_dur(char *buf, size_t len, uint64_t ns);
/* The same, with "µs" for microseconds when utf8 (the browser's). */
const char	*d9o_dur_u(char *buf, size_t len, uint64_t ns, int utf8);
/* Bytes in B, KB, MB or GB (powers of 1000), "1.5 MB"; b may be < 0. */
const char	*d9o_bytes(char *buf, size_t len, double b);
const char	*d9o_fit(char *buf, size_t len, const char *s, size_t width);
/* A blank line, the title, a line of dashes under it. */
void		 d9o_section(FILE *f, const char *title);

/* Print text made safe, word-wrapped to width, each line indented. */
void		 d9o_wrap(FILE *f, const char *text, int indent, size_t width);
/* The same, the first line going on where the cursor is (at column
 * col), the next ones indented to col. */
void		 d9o_wrap_at(FILE *f, const char *text, int col, size_t width);

#endif
