/*
 * text.h: making trace strings safe to show. Strings from traces are
 * untrusted: before they reach a terminal, a report or JSON, control
 * characters are escaped and invalid UTF-8 is replaced.
 */
#ifndef D9_TEXT_H
#define D9_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Print s to f with C0/C1 controls, DEL and invalid UTF-8 as \xNN. */
void	d9_text_put_safe(FILE *f, const char *s, size_t len);
/* Print s as a JSON string literal, quotes included. */
void	d9_text_put_json(FILE *f, const char *s, size_t len);
/* Copy s into out (size cap, NUL terminated), escaped like put_safe;
 * returns the length written. */
size_t	d9_text_safe(char *out, size_t cap, const char *s, size_t len);
/* Number of bytes of a valid UTF-8 sequence starting at s, 0 if invalid. */
size_t	d9_text_utf8_len(const unsigned char *s, size_t left);
/* Whether hay contains needle, ASCII case ignored; never for "". */
int	d9_text_contains(const char *hay, const char *needle);

#endif
