/*
 * tracegen.c: the test trace writer. Every frame writer emits exactly the
 * layout of FORMAT.md 2.4; nothing is validated, so tests can also write
 * nonsense on purpose (tg_raw, tg_u32 of a huge count, ...).
 *
 * The fd helpers give the reader what it gets in real life: a seekable
 * file (memfd) or a pipe that delivers bytes in small pieces.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "base/wire.h"
#include "tracegen.h"

static void
die(const char *what)
{
	fprintf(stderr, "tracegen: %s\n", what);
	abort();
}

void
tg_init(struct tg *t)
{
	memset(t, 0, sizeof *t);
}

void
tg_free(struct tg *t)
{
	free(t->p);
	memset(t, 0, sizeof *t);
}

void
tg_reset(struct tg *t)
{
	t->n = 0;
}

static uint8_t *
room(struct tg *t, size_t n)
{
	if (t->cap - t->n < n + 1) {
		size_t nc = t->cap ? t->cap : 256;

		while (nc - t->n < n + 1)
			nc *= 2;
		if ((t->p = realloc(t->p, nc)) == NULL)
			die("out of memory");
		t->cap = nc;
	}
	return t->p + t->n;
}

const char *
tg_cstr(struct tg *t)
{
	room(t, 0)[0] = '\0';
	return (const char *)t->p;
}

void
tg_vprintf(struct tg *t, const char *fmt, va_list ap)
{
	char *p = (char *)room(t, 0);
	va_list ap2;
	int len;

	/* usually one pass: format into the room there is, grow if short */
	va_copy(ap2, ap);
	len = vsnprintf(p, t->cap - t->n, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		die("bad format");
	if ((size_t)len >= t->cap - t->n)
		vsnprintf((char *)room(t, (size_t)len), (size_t)len + 1, fmt, ap);
	t->n += (size_t)len;
}

void
tg_printf(struct tg *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tg_vprintf(t, fmt, ap);
	va_end(ap);
}

void
tg_raw(struct tg *t, const void *p, size_t n)
{
	if (n)
		memcpy(room(t, n), p, n);
	t->n += n;
}

void
tg_u8(struct tg *t, uint8_t v)
{
	tg_raw(t, &v, 1);
}

static void
le(struct tg *t, uint64_t v, int bytes)
{
	uint8_t b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	tg_raw(t, b, (size_t)bytes);
}

void
tg_u16(struct tg *t, uint16_t v)
{
	le(t, v, 2);
}

void
tg_u24(struct tg *t, uint32_t v)
{
	le(t, v, 3);
}

void
tg_u32(struct tg *t, uint32_t v)
{
	le(t, v, 4);
}

void
tg_u64(struct tg *t, uint64_t v)
{
	le(t, v, 8);
}

void
tg_leb(struct tg *t, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		tg_u8(t, (uint8_t)(c | (v ? 0x80 : 0)));
	} while (v);
}

void
tg_str32(struct tg *t, const char *s)
{
	tg_str32n(t, s, strlen(s));
}

void
tg_str32n(struct tg *t, const void *s, size_t n)
{
	tg_u32(t, (uint32_t)n);
	tg_raw(t, s, n);
}

static void
str16(struct tg *t, const char *s)
{
	tg_u16(t, (uint16_t)strlen(s));
	tg_raw(t, s, strlen(s));
}

void
tg_header(struct tg *t)
{
	tg_raw(t, "TRC\0\1", D9_HEADER_LEN);
}

void
tg_batch_e(struct tg *t, int n, int first)
{
	static const struct tg_field v[] = { { "v", D9_FT_U8 } };

	tg_header(t);
	tg_schema(t, 1, "E", 1, 1, v);
	for (int i = 0; i < n; i++) {
		tg_event(t, 1, 1);
		tg_u8(t, (uint8_t)(first + i));
	}
}

void
tg_schema(struct tg *t, uint16_t id, const char *name, int has_ts, size_t n,
    const struct tg_field *f)
{
	tg_u8(t, D9_TAG_SCHEMA);
	tg_u16(t, id);
	str16(t, name);
	tg_u8(t, (uint8_t)has_ts);
	tg_u16(t, (uint16_t)n);
	for (size_t i = 0; i < n; i++) {
		str16(t, f[i].name);
		tg_u8(t, f[i].type);
	}
}

void
tg_event(struct tg *t, uint16_t id, uint32_t delta)
{
	tg_u8(t, D9_TAG_EVENT);
	tg_u16(t, id);
	tg_u24(t, delta);
}

void
tg_event_nots(struct tg *t, uint16_t id)
{
	tg_u8(t, D9_TAG_EVENT);
	tg_u16(t, id);
}

void
tg_string_pool(struct tg *t, uint32_t id, const char *s)
{
	tg_u8(t, D9_TAG_STRING_POOL);
	tg_u32(t, 1);
	tg_u32(t, id);
	tg_str32(t, s);
}

void
tg_v_stack(struct tg *t, size_t n, const uint64_t *a)
{
	tg_u32(t, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		tg_u64(t, a[i]);
}

void
tg_stack_pool(struct tg *t, uint32_t id, size_t n, const uint64_t *a)
{
	tg_u8(t, D9_TAG_STACK_POOL);
	tg_u32(t, 1);
	tg_u32(t, id);
	tg_v_stack(t, n, a);
}

void
tg_ts_reset(struct tg *t, uint64_t ts)
{
	tg_u8(t, D9_TAG_TS_RESET);
	tg_u64(t, ts);
}

void
tg_annotations(struct tg *t, uint64_t type_id, size_t n,
    const struct tg_annot *a)
{
	tg_u8(t, D9_TAG_ANNOTATIONS);
	tg_leb(t, type_id);
	tg_u16(t, (uint16_t)n);
	for (size_t i = 0; i < n; i++) {
		tg_u16(t, a[i].field);
		str16(t, a[i].key);
		tg_str32(t, a[i].value);
	}
}

void
tg_v_map(struct tg *t, size_t n, const char *const *kv)
{
	tg_u32(t, (uint32_t)n);
	for (size_t i = 0; i < 2 * n; i++)
		tg_str32(t, kv[i]);
}

static const struct tg_field all_fields[] = {
	{ "i64", D9_FT_I64 }, { "f64", D9_FT_F64 }, { "bool", D9_FT_BOOL },
	{ "str", D9_FT_STRING }, { "bytes", D9_FT_BYTES },
	{ "pstack", D9_FT_POOLED_STACK }, { "pstr", D9_FT_POOLED_STRING },
	{ "stack", D9_FT_STACK }, { "var", D9_FT_VARINT },
	{ "map", D9_FT_STRING_MAP }, { "u8", D9_FT_U8 }, { "u16", D9_FT_U16 },
	{ "u32", D9_FT_U32 }, { "list", D9_FT_DYN_LIST },
	{ "dmap", D9_FT_DYN_MAP },
};
#define NALL (sizeof all_fields / sizeof all_fields[0])

void
tg_all_types_schema(struct tg *t)
{
	struct tg_field f[2 * NALL];
	char names[NALL][16];

	for (size_t i = 0; i < NALL; i++) {
		f[i] = all_fields[i];
		snprintf(names[i], sizeof names[i], "o_%s", all_fields[i].name);
		f[NALL + i].name = names[i];
		f[NALL + i].type = all_fields[i].type | D9_FT_OPTIONAL;
	}
	tg_schema(t, TG_ALL_ID, "All", 1, 2 * NALL, f);
}

void
tg_all_types_pools(struct tg *t)
{
	static const uint64_t pstack[] = { 0x10, 0x20 };

	tg_string_pool(t, 3, "pooled");
	tg_stack_pool(t, 9, 2, pstack);
}

static void
all_value(struct tg *t, uint8_t type)
{
	static const uint64_t stack[] = { 1, UINT64_MAX };
	static const char *const kv[] = { "a", "1", "b", "" };
	double f = 1.5;
	uint64_t bits;

	switch (type) {
	case D9_FT_I64:
		tg_u64(t, (uint64_t)-5);
		break;
	case D9_FT_F64:
		memcpy(&bits, &f, 8);
		tg_u64(t, bits);
		break;
	case D9_FT_BOOL:
		tg_u8(t, 2);
		break;
	case D9_FT_STRING:
		tg_str32(t, "hi\n");
		break;
	case D9_FT_BYTES:
		tg_u32(t, 3);
		tg_raw(t, "\0\1\377", 3);
		break;
	case D9_FT_POOLED_STACK:
		tg_u32(t, 9);
		break;
	case D9_FT_POOLED_STRING:
		tg_u32(t, 3);
		break;
	case D9_FT_STACK:
		tg_v_stack(t, 2, stack);
		break;
	case D9_FT_VARINT:
		tg_leb(t, 300);
		break;
	case D9_FT_STRING_MAP:
		tg_v_map(t, 2, kv);
		break;
	case D9_FT_U8:
		tg_u8(t, 255);
		break;
	case D9_FT_U16:
		tg_u16(t, 65535);
		break;
	case D9_FT_U32:
		tg_u32(t, UINT32_MAX);
		break;
	case D9_FT_DYN_LIST:	/* [varint 5, string "x"] */
		tg_u32(t, 2);
		tg_u8(t, D9_FT_VARINT);
		tg_leb(t, 5);
		tg_u8(t, D9_FT_STRING);
		tg_str32(t, "x");
		break;
	case D9_FT_DYN_MAP:	/* {"k": u8 7} */
		tg_u32(t, 1);
		tg_u8(t, D9_FT_STRING);
		tg_str32(t, "k");
		tg_u8(t, D9_FT_U8);
		tg_u8(t, 7);
		break;
	}
}

void
tg_all_types_event(struct tg *t, uint32_t delta, int present)
{
	tg_event(t, TG_ALL_ID, delta);
	for (size_t i = 0; i < NALL; i++)
		all_value(t, all_fields[i].type);
	for (size_t i = 0; i < NALL; i++) {
		tg_u8(t, present ? 1 : 0);
		if (present)
			all_value(t, all_fields[i].type);
	}
}

void
tg_gzip(struct tg *out, const void *p, size_t n)
{
	z_stream z;
	size_t bound;

	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2");
	bound = deflateBound(&z, (uLong)n) + 32;
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = room(out, bound);
	z.avail_out = (uInt)bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		die("deflate");
	out->n += bound - z.avail_out;
	deflateEnd(&z);
}

void
tg_zstd(struct tg *out, const void *p, size_t n)
{
	size_t bound = ZSTD_compressBound(n), r;

	r = ZSTD_compress(room(out, bound), bound, p, n, 3);
	if (ZSTD_isError(r))
		die("ZSTD_compress");
	out->n += r;
}

int
tg_gunzip_file(const char *path, struct tg *out)
{
	gzFile f = gzopen(path, "rb");
	int r;

	if (f == NULL)
		return -1;
	while ((r = gzread(f, room(out, 65536), 65536)) > 0)
		out->n += (size_t)r;
	gzclose(f);
	return r < 0 ? -1 : 0;
}

int
tg_read_file(const char *path, struct tg *out)
{
	FILE *f = fopen(path, "rb");
	size_t r;

	if (f == NULL)
		return -1;
	while ((r = fread(room(out, 65536), 1, 65536, f)) > 0)
		out->n += r;
	fclose(f);
	return 0;
}

const char *
tg_trace_path(const char *file, char *buf, size_t cap)
{
	const char *dir = getenv("D9_TRACES");

	if (dir == NULL || *dir == '\0')
		return NULL;
	snprintf(buf, cap, "%s/%s", dir, file);
	return buf;
}

int
tg_memfd(const void *p, size_t n)
{
	int fd = memfd_create("tracegen", MFD_CLOEXEC);

	if (fd < 0)
		die("memfd_create");
	if (n && write(fd, p, n) != (ssize_t)n)
		die("write memfd");
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek");
	return fd;
}

static void *
pipe_writer(void *arg)
{
	struct tg_pipe *tp = arg;

	for (size_t off = 0; off < tp->n; ) {
		size_t k = tp->n - off < tp->chunk ? tp->n - off : tp->chunk;
		ssize_t w = write(tp->wfd, tp->p + off, k);

		if (w <= 0)
			break;		/* the reader stopped early */
		off += (size_t)w;
	}
	close(tp->wfd);
	return NULL;
}

int
tg_pipe_start(struct tg_pipe *tp, const void *p, size_t n, size_t chunk)
{
	int fds[2];

	/* a reader that stops early must not kill the test */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(fds) < 0)
		die("pipe");
	tp->wfd = fds[1];
	tp->p = malloc(n ? n : 1);
	if (tp->p == NULL)
		die("out of memory");
	if (n)
		memcpy(tp->p, p, n);
	tp->n = n;
	tp->chunk = chunk ? chunk : 1;
	if (pthread_create(&tp->th, NULL, pipe_writer, tp) != 0)
		die("pthread_create");
	return fds[0];
}

void
tg_pipe_join(struct tg_pipe *tp)
{
	pthread_join(tp->th, NULL);
	free(tp->p);
	tp->p = NULL;
}

void
tg_write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0)
		die("write file");
}

void
tg_dir_make(struct tg_dir *d)
{
	strcpy(d->path, "/tmp/d9-test-XXXXXX");
	if (mkdtemp(d->path) == NULL)
		die("mkdtemp");
}

const char *
tg_dir_file(struct tg_dir *d, const char *name)
{
	snprintf(d->file, sizeof d->file, "%s/%s", d->path, name);
	return d->file;
}

const char *
tg_dir_put(struct tg_dir *d, const char *name, const struct tg *t)
{
	tg_write_file(tg_dir_file(d, name), t->p, t->n);
	return d->file;
}

void
tg_dir_remove(struct tg_dir *d)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->path);
	if (system(cmd) != 0)
		die("rm -rf");
}
