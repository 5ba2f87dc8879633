/*
 * textfmt.h: text helpers of the report (durations and bytes:
 * base/units.h): trace strings made safe and cut to a width (from the left,
 * so the distinctive end of a path or symbol stays).
 */
#ifndef D9O_TEXTFMT_H
#define D9O_TEXTFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/units.h"

const char	*d9o_fit(char *buf, size_t len, const char *s, size_t width);
/* A spawn location cut to max bytes: "..." and its tail, from the
 * last path separator that keeps it within max when there is one (so
 * that file:line:col shows), else the tail's last characters. */
void		 d9o_short_loc(const char *loc, size_t max, char *out,
		    size_t cap);
/* A blank line, the title, a line of dashes under it. */
void		 d9o_section(FILE *f, const char *title);

/* Print text made safe, word-wrapped to width, each line indented. */
void		 d9o_wrap(FILE *f, const char *text, int indent, size_t width);
/* The same, the first line going on where the cursor is (at column
 * col), the next ones indented to col. */
void		 d9o_wrap_at(FILE *f, const char *text, int col, size_t width);
/* A paragraph of the report: printf's, wrapped at 80 columns as
 * d9o_wrap_at (the caller wrote col columns of its line already). */
void		 d9o_para(FILE *f, int col, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));

#endif
