/*
 * wire.h: constants of the dial9 trace wire format (TRC\0 version 1).
 * Shared by the reader (src/parse) and the recorder (src/rec), so that the
 * two cannot drift apart. See FORMAT.md section 2.
 */
#ifndef D9_WIRE_H
#define D9_WIRE_H

#define D9_MAGIC0		0x54	/* 'T' */
#define D9_MAGIC_LEN		4	/* "TRC\0" */
#define D9_HEADER_LEN		5	/* magic + version byte */
#define D9_VERSION		1

/* Frame tags. */
#define D9_TAG_SCHEMA		0x01
#define D9_TAG_EVENT		0x02
#define D9_TAG_STRING_POOL	0x03
#define D9_TAG_STACK_POOL	0x04
#define D9_TAG_TS_RESET		0x05
#define D9_TAG_ANNOTATIONS	0x06

/* Field types; D9_FT_OPTIONAL may be or-ed into any of them. */
#define D9_FT_I64		1
#define D9_FT_F64		2
#define D9_FT_BOOL		3
#define D9_FT_STRING		4
#define D9_FT_BYTES		5
#define D9_FT_POOLED_STACK	6
#define D9_FT_POOLED_STRING	7
#define D9_FT_STACK		8
#define D9_FT_VARINT		9
#define D9_FT_STRING_MAP	10
#define D9_FT_U8		11
#define D9_FT_U16		12
#define D9_FT_U32		13
#define D9_FT_DYN_LIST		14
#define D9_FT_DYN_MAP		15
#define D9_FT_MAX		15
#define D9_FT_OPTIONAL		0x80

/* Largest timestamp delta an event frame can carry (u24). */
#define D9_TS_DELTA_MAX		0xffffffu

/* Sentinels of FORMAT.md section 3. */
#define D9_WORKER_NONE		255u	/* not a worker thread */
#define D9_WORKER_BLOCKING	254u	/* legacy blocking-pool thread */
#define D9_SOURCE_CPU		0	/* CpuSampleEvent source: on-CPU */
#define D9_SOURCE_SCHED		1	/* CpuSampleEvent source: context switch */

/* Container magics, recognised at every stream boundary. */
#define D9_GZIP_MAGIC0		0x1f
#define D9_GZIP_MAGIC1		0x8b
#define D9_ZSTD_MAGIC		0xfd2fb528u	/* little-endian 28 b5 2f fd */

/* SegmentMetadataEvent timestamps at or above this are wall clock (legacy). */
#define D9_WALLCLOCK_MIN_NS	1577836800000000000ull

#endif
