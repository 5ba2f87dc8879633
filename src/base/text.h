/*
 * text.h: making trace strings safe to show. Strings from traces and file
 * names are untrusted: before they reach a terminal, a report or JSON,
 * controls, invalid UTF-8 and the characters that reorder or hide text
 * are escaped (text.c lists them). Escaping escaped text changes nothing,
 * so a message may be escaped where it is formatted and again where it
 * is printed.
 */
#ifndef D9_TEXT_H
#define D9_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Print s to f with controls and invalid UTF-8 as \xNN, hidden code
 * points as \uXXXX, a kept NUL as \0. */
void	d9_text_put_safe(FILE *f, const char *s, size_t len);
/* Print s as a JSON string literal, quotes included: controls and hidden
 * code points as \uXXXX, invalid bytes as the text \xNN. */
void	d9_text_put_json(FILE *f, const char *s, size_t len);
/* Copy s into out (size cap, NUL terminated), escaped like put_safe;
 * returns the length written. */
size_t	d9_text_safe(char *out, size_t cap, const char *s, size_t len);
/* printf into out (size cap), then escape the whole message: the one
 * way messages that quote names are made. A message too long for out
 * keeps its start and its end around "..." (what went wrong is said
 * after the name it quotes). */
void	d9_text_vformat(char *out, size_t cap, const char *fmt, va_list ap)
	    __attribute__((format(printf, 3, 0)));
/* prefix, then msg escaped, then a newline: how programs print messages
 * (prefix is trusted, e.g. "d9top: "). */
void	d9_text_put_line(FILE *f, const char *prefix, const char *msg);
/* Number of bytes of a sequence shown as is starting at s, 0 if none. */
size_t	d9_text_utf8_len(const unsigned char *s, size_t left);
/* Whether code point cp is one of those never shown as is. */
int	d9_text_hidden(uint32_t cp);
/* Copy s to out (room for 2 * len) with each NUL as the bytes C0 80
 * (modified UTF-8), so a C string keeps the whole text and the escapes
 * show the NUL; returns the new length. */
size_t	d9_text_hide_nul(char *out, const char *s, size_t len);
/* Whether hay contains needle, ASCII case ignored; never for "". */
int	d9_text_contains(const char *hay, const char *needle);
/* Columns of the UTF-8 string s on a terminal: one per code point. */
size_t	d9_text_cols(const char *s);
/* Encode one code point as UTF-8 into out (4 bytes room); the bytes
 * written. */
size_t	d9_text_utf8_put(char *out, uint32_t cp);

#endif
