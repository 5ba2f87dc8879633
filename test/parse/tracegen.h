/*
 * tracegen.h: a tiny dial9 trace *writer* for tests. It appends exact wire
 * bytes (FORMAT.md section 2) to a growable byte buffer, so a test can
 * craft any stream, valid or not, and know the offset of every byte:
 * tg->n before a call is the offset the next frame starts at.
 *
 * The buffer doubles as a string builder (tg_printf) for the recording
 * sink. Allocation failure aborts: this is test code.
 */
#ifndef D9_TEST_TRACEGEN_H
#define D9_TEST_TRACEGEN_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct tg {
	uint8_t	*p;
	size_t	 n, cap;
};

struct tg_field {
	const char	*name;
	uint8_t		 type;		/* wire tag, optional bit included */
};

struct tg_annot {
	uint16_t	 field;
	const char	*key;
	const char	*value;
};

void	tg_init(struct tg *t);
void	tg_free(struct tg *t);
void	tg_reset(struct tg *t);		/* n = 0, keep the memory */
/* NUL-terminated view of the bytes (for text built with tg_printf). */
const char *tg_cstr(struct tg *t);
void	tg_printf(struct tg *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	tg_vprintf(struct tg *t, const char *fmt, va_list ap)
	    __attribute__((format(printf, 2, 0)));

/* Primitives (little endian, FORMAT.md 2.1). */
void	tg_raw(struct tg *t, const void *p, size_t n);
void	tg_u8(struct tg *t, uint8_t v);
void	tg_u16(struct tg *t, uint16_t v);
void	tg_u24(struct tg *t, uint32_t v);
void	tg_u32(struct tg *t, uint32_t v);
void	tg_u64(struct tg *t, uint64_t v);
void	tg_leb(struct tg *t, uint64_t v);	/* minimal LEB128 */
void	tg_str32(struct tg *t, const char *s);	/* u32 length + bytes */
void	tg_str32n(struct tg *t, const void *s, size_t n);	/* NULs too */

/* Frames. */
void	tg_header(struct tg *t);		/* TRC\0 01 */
/* A header, schema 1 "E" with one u8 "v", and n events 1 ns apart with
 * the values first, first + 1, ... */
void	tg_batch_e(struct tg *t, int n, int first);
void	tg_schema(struct tg *t, uint16_t id, const char *name, int has_ts,
	    size_t n, const struct tg_field *f);
void	tg_event(struct tg *t, uint16_t id, uint32_t delta); /* + values */
void	tg_event_nots(struct tg *t, uint16_t id);
void	tg_string_pool(struct tg *t, uint32_t id, const char *s);
void	tg_stack_pool(struct tg *t, uint32_t id, size_t n, const uint64_t *a);
void	tg_ts_reset(struct tg *t, uint64_t ts);
void	tg_annotations(struct tg *t, uint64_t type_id, size_t n,
	    const struct tg_annot *a);

/* Field values that need more than one primitive. */
void	tg_v_stack(struct tg *t, size_t n, const uint64_t *a);
void	tg_v_map(struct tg *t, size_t n, const char *const *kv);

/*
 * Schema TG_ALL_ID "All": fields of every type 1-15, then the same 15
 * with the optional bit. Its events use string pool id 3 and stack pool
 * id 9, which tg_all_types_pools() defines.
 */
#define TG_ALL_ID	7
void	tg_all_types_schema(struct tg *t);
void	tg_all_types_pools(struct tg *t);
/* An event of it; present == 0 leaves every optional field absent. */
void	tg_all_types_event(struct tg *t, uint32_t delta, int present);

/* Containers: append one gzip member / zstd frame of p[0, n). */
void	tg_gzip(struct tg *out, const void *p, size_t n);
void	tg_zstd(struct tg *out, const void *p, size_t n);
/* Append a whole file to out; -1 on error. */
int	tg_read_file(const char *path, struct tg *out);
/* Decompress a whole gzip file (all members) into out; -1 on error. */
int	tg_gunzip_file(const char *path, struct tg *out);
/* Path of a shared real trace (env D9_TRACES), or NULL when unset. */
const char *tg_trace_path(const char *file, char *buf, size_t cap);

/* A file descriptor reading p[0, n): an anonymous memory file. */
int	tg_memfd(const void *p, size_t n);
/* A pipe fed by a thread in `chunk`-byte writes. */
struct tg_pipe {
	pthread_t	 th;
	int		 wfd;
	uint8_t		*p;
	size_t		 n, chunk;
};
int	tg_pipe_start(struct tg_pipe *tp, const void *p, size_t n,
	    size_t chunk);
void	tg_pipe_join(struct tg_pipe *tp);
/* Write p[0, n) to path; aborts on failure. */
void	tg_write_file(const char *path, const void *p, size_t n);

/* A scratch directory under /tmp (tg_dir_make), removed with all it
 * holds by tg_dir_remove; file holds the last path tg_dir_file made. */
struct tg_dir {
	char	 path[64];
	char	 file[4096];
};
void	tg_dir_make(struct tg_dir *d);
/* The path of name in d (in d->file, valid until the next call). */
const char *tg_dir_file(struct tg_dir *d, const char *name);
/* Write t to name in d; its path as tg_dir_file gives it. */
const char *tg_dir_put(struct tg_dir *d, const char *name,
	    const struct tg *t);
void	tg_dir_remove(struct tg_dir *d);

#endif
