/* diffpair.c: see diffpair.h. Events are written in time order. */
#include <stddef.h>

#include "base/wire.h"
#include "diffpair.h"

#define MS		1000000ull
#define SLOT		(10 * MS)	/* one poll of each location per slot */

static const char *const funcs[] = { "svc::parse", "svc::encode",
	"svc::route", DP_HOT, "tokio::runtime::task::raw::poll" };

/* Leaf function k called from the runtime's poll. */
static size_t
stack(int k, uint64_t *f)
{
	f[0] = 0x1000 + 0x100 * (uint64_t)k;
	f[1] = 0x1000 + 0x100 * 4;
	return 2;
}

static void
symbols(struct mt *t)
{
	for (int k = 0; k < 5; k++)
		mt_symbol(t, 0x1000 + 0x100 * (uint64_t)k, funcs[k], 0);
	mt_symbol(t, 0x2000, "svc::cache::fill", 0);
	mt_symbol(t, 0x2100, "svc::db::row", 0);
	mt_symbol(t, 0x2200 | 1ull << 63, "__schedule", 0);
	mt_symbol(t, 0x2300, "read", 0);
}

/* Ten on-CPU samples in [at, at + len) on tid: the hot function in
 * hot of them, the other three in turn. */
static void
samples(struct mt *t, uint64_t at, uint64_t len, uint32_t tid, int hot)
{
	uint64_t f[2];

	for (int i = 0; i < 10; i++)
		mt_cpu(t, at + len * (uint64_t)i / 10 + 1, tid, D9_SOURCE_CPU,
		    stack(i < hot ? 3 : i % 3, f), f);
}

static void
poll(struct mt *t, uint64_t at, unsigned w, uint64_t task, const char *loc)
{
	mt_wake(t, at - 20000, 0, task, w);
	mt_poll_start(t, at, w, task, loc);
}

/* DP_POLLS slots from t0 (ms), as the base or the regressed run. */
static void
slots(struct mt *t, uint64_t t0, int regressed, uint64_t span0)
{
	uint64_t api = regressed ? DP_API_NEW_NS : DP_API_OLD_NS;
	uint64_t cache[2] = { 0x2000, 0x1000 + 0x100 * 4 };
	uint64_t db[2] = { 0x2100, 0x1000 + 0x100 * 4 };
	uint64_t blk[3] = { 0x2200 | 1ull << 63, 0x2300, 0x2100 };

	for (uint64_t i = 0; i < DP_POLLS; i++) {
		uint64_t s = t0 + i * SLOT;

		/* the API on worker 0, with its request span */
		poll(t, s, 0, 1, DP_API);
		mt_span(t, 0, s + 1000, 0, span0 + i, "request");
		samples(t, s + 2000, api - 4000, 11, regressed ? 7 : 1);
		mt_span(t, 1, s + api - 1000, 0, span0 + i, "request");
		mt_poll_end(t, s + api, 0);
		/* the database on worker 1: a blocking read, a row */
		poll(t, s + 100000, 1, 2, DP_DB);
		mt_cpu(t, s + 150000, 12, D9_SOURCE_SCHED, 3, blk);
		mt_alloc(t, s + 160000, 4000, 0x20000 + i * 64, 2, db);
		mt_poll_end(t, s + 300000, 1);
		/* the cache on worker 1: allocations */
		poll(t, s + 6 * MS, 1, 3, DP_CACHE);
		for (int k = 0; k < (regressed ? 10 : 1); k++)
			mt_alloc(t, s + 6 * MS + 1000 + (uint64_t)k, 4000,
			    0x10000 + i * 64 + (uint64_t)k, 2, cache);
		mt_poll_end(t, s + 6 * MS + 50000, 1);
	}
}

void
mt_diffpair(struct mt *t, int mode)
{
	uint64_t end = 2 * MS + (mode == DP_BOTH ? 2 : 1) * DP_POLLS * SLOT;

	mt_begin(t);
	mt_meta(t, "memory.sample_rate_bytes", "1000");
	symbols(t);
	mt_spawn(t, MS / 2, 1, DP_API);
	mt_spawn(t, MS / 2 + 1, 2, DP_DB);
	mt_spawn(t, MS / 2 + 2, 3, DP_CACHE);
	mt_unpark(t, MS, 0, 0, 11, 0);
	mt_unpark(t, MS, 1, 0, 12, 0);
	slots(t, 2 * MS, mode == DP_NEW, 100);
	if (mode == DP_BOTH)
		slots(t, 2 * MS + DP_POLLS * SLOT, 1, 200);
	mt_park(t, end, 0, 10 * MS, 11);
	mt_park(t, end, 1, 10 * MS, 12);
}
