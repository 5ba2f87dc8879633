/*
 * build_ahead.c: the builder asks for the rows it is about to write.
 * Every AHEAD_STEP rows added to the loaded tables, each large column
 * (a block of 2 MiB or more: base/pages.h) is asked to be brought in
 * from its last row to twice as many rows ahead as it gained since the
 * last time, within what it has room for (base/prefault.h). A column that
 * grows moves: what was asked at its old place is skipped or wasted, never
 * wrong.
 */
#include <stdint.h>

#include "base/pages.h"
#include "base/prefault.h"
#include "model/core/build_int.h"
#include "model/core/table.h"
#include "model/core/tables.h"

#define AHEAD_STEP	((size_t)256 << 10)	/* rows between asks */

void
d9m_b_ahead_start(struct d9m_builder *b)
{
	if (b->ahead == NULL)
		b->ahead = d9_prefault_new();
}

void
d9m_b_ahead_stop(struct d9m_builder *b)
{
	d9_prefault_free(&b->ahead);
}

void
d9m_b_ahead(struct d9m_builder *b)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t n, rows = 0;

	if (b->ahead == NULL)
		return;
	n = d9m_model_tables(b->m, t);
	for (size_t i = 0; i < n; i++)
		rows += d9m_tab_n(t[i].tab);
	if (rows < b->ahead_rows + AHEAD_STEP)
		return;
	b->ahead_rows = rows;
	for (size_t i = 0; i < n; i++) {
		const struct d9m_tabdesc *d = t[i].desc;
		size_t had = b->ahead_n[i], now = d9m_tab_n(t[i].tab);
		size_t cap = ((const size_t *)t[i].tab)[1], to;

		b->ahead_n[i] = now;
		if (now <= had)
			continue;
		to = now + 2 * (now - had) < cap ? now + 2 * (now - had) : cap;
		for (size_t c = 0; c < d->ncols && to > now; c++) {
			const char *col = *(char *const *)((const char *)t[i].tab +
			    d->cols[c].off);
			size_t el = d->cols[c].elem;

			if (col != NULL && cap * el >= D9_PAGES_HUGE)
				d9_prefault_ask(b->ahead, col + now * el,
				    (to - now) * el);
		}
	}
}
