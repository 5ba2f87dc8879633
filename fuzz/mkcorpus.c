/*
 * mkcorpus.c: writes the seed corpus of fuzz_parse into a directory:
 * small streams with every frame tag, field type, container and the
 * usual kinds of damage, made with the parser tests' trace writer.
 */
#include <stdio.h>
#include <string.h>

#include "base/wire.h"
#include "tracegen.h"

static void
put(const char *dir, const char *name, const struct tg *t)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	tg_write_file(path, t->p, t->n);
}

static void
all_types(struct tg *t)
{
	static const struct tg_annot an[] = { { 0, "unit", "ns" },
	    { 2, "metrique.unit", "bytes" } };

	tg_header(t);
	tg_all_types_pools(t);
	tg_all_types_schema(t);
	tg_annotations(t, TG_ALL_ID, 2, an);
	tg_ts_reset(t, 1ull << 40);
	tg_all_types_event(t, 5, 1);
	tg_all_types_event(t, 0xffffff, 0);
}

/* Three batches, the last followed by a symbol-table appendix. */
static void
batches(struct tg *t)
{
	static const struct tg_field poll[] = { { "worker_id", D9_FT_U8 },
	    { "task_id", D9_FT_VARINT }, { "loc", D9_FT_POOLED_STRING | 0x80 },
	    { "stack", D9_FT_POOLED_STACK } };
	static const struct tg_field sym[] = { { "addr", D9_FT_VARINT },
	    { "size", D9_FT_U32 }, { "name", D9_FT_POOLED_STRING } };
	static const uint64_t st[] = { 0x401000, 0x402000, 0x403000 };

	for (int b = 0; b < 3; b++) {
		tg_header(t);
		tg_string_pool(t, 0, "src/main.rs:10:5");
		tg_stack_pool(t, 0, 3, st);
		tg_schema(t, 1, "PollStartEvent", 1, 4, poll);
		tg_ts_reset(t, 1700000000000000ull + (uint64_t)b * 1000);
		for (int i = 0; i < 3; i++) {
			tg_event(t, 1, (uint32_t)i * 100);
			tg_u8(t, (uint8_t)i);
			tg_leb(t, 1000 + (uint64_t)i);
			tg_u8(t, i & 1);
			if (i & 1)
				tg_u32(t, 0);
			tg_u32(t, 0);
		}
	}
	tg_string_pool(t, 0, "tokio::runtime::park");
	tg_schema(t, 256, "SymbolTableEntry", 1, 3, sym);
	tg_ts_reset(t, 0);
	tg_event(t, 256, 0);
	tg_leb(t, 0x401000);
	tg_u32(t, 64);
	tg_u32(t, 0);
}

static void
nested(struct tg *t)
{
	static const struct tg_field f[] = { { "l", D9_FT_DYN_LIST },
	    { "m", D9_FT_DYN_MAP }, { "nots", D9_FT_BOOL } };

	tg_header(t);
	tg_schema(t, 3, "Dyn", 0, 3, f);
	tg_event_nots(t, 3);
	tg_u32(t, 2);			/* [[1, "a"], 7] */
	tg_u8(t, D9_FT_DYN_LIST);
	tg_u32(t, 2);
	tg_u8(t, D9_FT_VARINT);
	tg_leb(t, 1);
	tg_u8(t, D9_FT_STRING);
	tg_str32(t, "a");
	tg_u8(t, D9_FT_U16);
	tg_u16(t, 7);
	tg_u32(t, 1);			/* {"k": {"x": f64}} */
	tg_u8(t, D9_FT_STRING);
	tg_str32(t, "k");
	tg_u8(t, D9_FT_DYN_MAP);
	tg_u32(t, 1);
	tg_u8(t, D9_FT_STRING);
	tg_str32(t, "x");
	tg_u8(t, D9_FT_F64);
	tg_u64(t, 0x3ff0000000000000ull);
	tg_u8(t, 1);
}

static void
varints(struct tg *t)
{
	static const struct tg_field f[] = { { "v", D9_FT_VARINT },
	    { "o", D9_FT_VARINT | 0x80 } };
	static const uint8_t max[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x01 };

	tg_header(t);
	tg_schema(t, 2, "V", 1, 2, f);
	tg_event(t, 2, 1);
	tg_raw(t, max, sizeof max);
	tg_u8(t, 1);
	tg_raw(t, "\x80\x00", 2);	/* non-minimal zero */
	tg_event(t, 2, 0);
	tg_leb(t, 127);
	tg_u8(t, 0);
}

int
main(int argc, char **argv)
{
	struct tg t, u, c;

	if (argc != 2) {
		fprintf(stderr, "usage: mkcorpus DIR\n");
		return 1;
	}
	tg_init(&t);
	tg_init(&u);
	tg_init(&c);
	all_types(&t);
	put(argv[1], "all-types.trc", &t);
	tg_gzip(&c, t.p, t.n);
	put(argv[1], "all-types.gz", &c);
	tg_reset(&c);
	tg_raw(&c, t.p, t.n - 7);
	put(argv[1], "truncated.trc", &c);

	batches(&u);
	put(argv[1], "batches.trc", &u);
	tg_reset(&c);
	tg_zstd(&c, u.p, u.n);
	put(argv[1], "batches.zst", &c);
	tg_reset(&c);			/* raw | gzip | zstd */
	tg_raw(&c, t.p, t.n);
	tg_gzip(&c, u.p, u.n);
	tg_zstd(&c, t.p, t.n);
	put(argv[1], "mixed.bin", &c);
	tg_reset(&c);			/* one stream split over two members */
	tg_gzip(&c, u.p, u.n / 2);
	tg_gzip(&c, u.p + u.n / 2, u.n - u.n / 2);
	put(argv[1], "two-members.gz", &c);

	tg_reset(&t);
	nested(&t);
	put(argv[1], "dynamic.trc", &t);
	tg_reset(&t);
	varints(&t);
	put(argv[1], "varints.trc", &t);

	tg_reset(&t);
	tg_header(&t);
	tg_u8(&t, 0x07);
	put(argv[1], "bad-tag.trc", &t);
	tg_reset(&t);
	tg_header(&t);
	tg_u8(&t, D9_TAG_STRING_POOL);
	tg_u32(&t, UINT32_MAX);
	put(argv[1], "huge-count.trc", &t);
	tg_reset(&t);
	tg_raw(&t, "TRC\0\2", 5);
	put(argv[1], "version2.trc", &t);
	tg_reset(&t);
	tg_raw(&t, "\x1f\x8b\x08\0\0\0\0\0\0\3\xff\xff\xff", 13);
	put(argv[1], "gzip-garbage.gz", &t);
	tg_reset(&t);
	tg_raw(&t, "\x28\xb5\x2f\xfd\x08\0\0\0", 8);
	put(argv[1], "zstd-garbage.zst", &t);
	tg_free(&c);
	tg_free(&u);
	tg_free(&t);
	return 0;
}
