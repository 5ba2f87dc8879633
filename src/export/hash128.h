/*
 * hash128.h: a 128-bit hash of bytes (MurmurHash3, x64 128-bit
 * variant), for names that must be the same on every host: the stack
 * ids of the samples and allocations tables, the source keys that name
 * the leaf files.
 */
#ifndef D9X_HASH128_H
#define D9X_HASH128_H

#include <stddef.h>
#include <stdint.h>

void	d9x_hash128(const void *p, size_t n, uint8_t out[16]);
/* 32 lowercase hex digits and a NUL. */
void	d9x_hex128(const uint8_t h[16], char out[33]);

#endif
