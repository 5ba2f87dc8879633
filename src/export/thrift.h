/*
 * thrift.h: writing Apache Thrift's compact protocol, the encoding of
 * Parquet's page headers and footer (parquet-format's parquet.thrift).
 * Only what those structures use: i8, i32, i64, bool, binary, lists and
 * nested structs. Field ids are written as deltas from the previous
 * field of the same struct, so a struct's fields must come in ascending
 * id order; each open struct remembers its last id.
 *
 *	d9x_th_init(&t, &bytes);	the outermost struct is open
 *	d9x_th_i32(&t, 1, 2);		field 1: i32 2
 *	d9x_th_struct(&t, 3);		field 3: a struct ...
 *	d9x_th_end(&t);			... closed
 *	d9x_th_end(&t);			the outermost struct closed
 */
#ifndef D9X_THRIFT_H
#define D9X_THRIFT_H

#include <stddef.h>
#include <stdint.h>

#include "export/bytes.h"

/* Compact protocol type ids (lists name their elements' type). */
enum d9x_th_type {
	D9X_TH_I8 = 3, D9X_TH_I32 = 5, D9X_TH_I64 = 6, D9X_TH_BINARY = 8,
	D9X_TH_LIST = 9, D9X_TH_STRUCT = 12
};

#define D9X_TH_DEPTH	16

struct d9x_thrift {
	struct d9x_bytes *out;
	int16_t		 last[D9X_TH_DEPTH];	/* per open struct */
	int		 depth;			/* index of the innermost */
	int		 bad;			/* nesting too deep or closed
						 * too often: a bug */
};

void	d9x_th_init(struct d9x_thrift *t, struct d9x_bytes *out);
void	d9x_th_i8(struct d9x_thrift *t, int16_t id, int8_t v);
void	d9x_th_i32(struct d9x_thrift *t, int16_t id, int32_t v);
void	d9x_th_i64(struct d9x_thrift *t, int16_t id, int64_t v);
void	d9x_th_bool(struct d9x_thrift *t, int16_t id, int v);
void	d9x_th_bin(struct d9x_thrift *t, int16_t id, const void *p, size_t n);
void	d9x_th_str(struct d9x_thrift *t, int16_t id, const char *s);
/* A field that is a struct: its fields follow, then d9x_th_end. */
void	d9x_th_struct(struct d9x_thrift *t, int16_t id);
/* The stop byte of the innermost open struct. */
void	d9x_th_end(struct d9x_thrift *t);
/* A list field of n elements of type et; the elements follow. */
void	d9x_th_list(struct d9x_thrift *t, int16_t id, enum d9x_th_type et,
	    size_t n);
void	d9x_th_elem_i32(struct d9x_thrift *t, int32_t v);
void	d9x_th_elem_bin(struct d9x_thrift *t, const void *p, size_t n);
/* A struct element of a list: its fields follow, then d9x_th_end. */
void	d9x_th_elem_struct(struct d9x_thrift *t);

#endif
