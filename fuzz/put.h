/*
 * put.h: the fuzzer's bytes as a file, for the targets that run d9top on
 * a path (fuzz_top.c, fuzz_json.c, fuzz_tui.c, fuzz_ways.c).
 */
#ifndef D9_FUZZ_PUT_H
#define D9_FUZZ_PUT_H

#include <stddef.h>
#include <stdint.h>

/* data written whole to a new file made from path (a mkstemp template,
 * "/tmp/NAME-XXXXXX", filled in); aborts when it cannot be. The caller
 * unlinks it. */
void	fz_put(char *path, const uint8_t *data, size_t size);

#endif
