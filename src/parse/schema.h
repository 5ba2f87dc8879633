/*
 * schema.h: what the decoder knows about one event type inside a batch,
 * and the values of one decoded event as handed to a sink.
 */
#ifndef D9P_SCHEMA_H
#define D9P_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

struct d9p_field {
	const char	*name;		/* NUL-terminated copy */
	uint16_t	 name_len;
	uint8_t		 type;		/* base type 1..15 */
	uint8_t		 optional;	/* the wire tag had 0x80 */
	const char	*unit;		/* from an annotation frame, or NULL */
	uint32_t	 unit_len;
	const char	*role;		/* annotation dial9.role, or NULL */
	const char	*kind;		/* annotation kind (metrics), or NULL */
};

/* The most bytes a field of a fixed schema takes: the optional
 * byte, then a ten-byte varint. */
#define D9P_FIXED_MAX	11

struct d9p_schema {
	uint16_t	 id;
	uint8_t		 has_ts;
	uint16_t	 nfields;
	const char	*name;		/* NUL-terminated copy */
	uint16_t	 name_len;
	struct d9p_field *fields;
	uint8_t		*wire;		/* each field's wire tag (its type,
					 * D9_FT_OPTIONAL or'd in), read per
					 * event in one cache line */
	uint8_t		 fixed;		/* every field is a number, a bool or
					 * a pool id: an event takes at most
					 * D9P_FIXED_MAX bytes a field */
	void		*user;		/* the sink's per-schema data */
};

/*
 * One field value. Pointers are valid only during the sink call.
 * Stacks are `count` little-endian u64 at p (not aligned). Maps and
 * lists point at their validated wire bytes (walk them with
 * d9p_map_next). Pooled values carry `cache`, a slot that stays with the
 * pool entry until it is redefined: a sink can remember the id it
 * interned the value under, so a string is interned once per batch.
 */
struct d9p_value {
	uint8_t		 type;		/* base type */
	uint8_t		 present;	/* 0: absent optional (nothing else set) */
	uint8_t		 unresolved;	/* pooled id not defined in this batch */
	uint32_t	 count;		/* string/bytes length, frames, entries */
	uint64_t	 u;		/* integers, bool, f64 bits, pool id */
	const uint8_t	*p;
	uint32_t	*cache;		/* pooled only, else NULL */
};

static inline uint64_t
d9p_le64(const uint8_t *p)
{
	uint64_t x = 0;

	for (int i = 7; i >= 0; i--)
		x = x << 8 | p[i];
	return x;
}

/* StringMap iteration: *pos starts at 0; returns 0 while entries remain. */
int	d9p_map_next(const struct d9p_value *v, size_t *pos, const char **k,
	    uint32_t *klen, const char **val, uint32_t *vlen);

/* Integer value of any integer-ish field (types 1, 3, 9, 11, 12, 13). */
static inline int
d9p_value_int(const struct d9p_value *v, uint64_t *out)
{
	if (!v->present)
		return -1;
	switch (v->type) {
	case 1: case 3: case 9: case 11: case 12: case 13:
		*out = v->u;
		return 0;
	default:
		return -1;
	}
}

#endif
