/*
 * kshare.c: kernel names shared among one recorder's segments.
 *
 * libd9rec names a segment's kernel addresses from /proc/kallsyms only
 * when a pass over that file is due (d9rec(3)); a segment sealed before
 * one keeps "[kernel] 0x..." for an address it saw first. The addresses
 * of the kernel's text are the same for every segment of one recorder
 * (one boot_id: one process, one kernel), so such a row takes the name
 * that another segment of the same boot gives the same address.
 * Segments of other boots, or without a boot_id, are never mixed.
 */
#include "base/hmap.h"
#include "model/core/frames.h"
#include "model/core/kshare.h"

/* The boot_id string id of segment s, D9_NONE when it has none. */
static uint32_t
boot_of(const struct d9m_model *m, uint32_t s)
{
	uint32_t g = s < m->segs.n ? m->segs.group[s] : D9_NONE;

	return g < m->groups.n ? m->groups.boot[g] : D9_NONE;
}

/* Row r stands for a kernel name the trace has not: none, or the
 * recorder's "[kernel] 0x..." */
static int
kernel_unnamed(const struct d9m_model *m, size_t r)
{
	return m->symbols.name[r] == D9_NONE || d9m_sym_placeholder(m, r) == 2;
}

/* One key per (boot, address): the boot's string id over the address's
 * top half. Keys of two pairs could meet, so a row found is checked. */
static uint64_t
key(uint64_t addr, uint32_t boot)
{
	return addr ^ (uint64_t)boot << 32;
}

int
d9m_kernel_names_share(struct d9m_model *m)
{
	struct d9m_symbols *t = &m->symbols;
	struct d9_hmap named;
	size_t filled = 0;
	uint32_t boot, from;

	d9_hmap_init(&named);
	for (size_t r = 0; r < t->n; r++) {	/* each boot's first named */
		if (!(t->addr[r] >> 63) || t->depth[r] != 0 ||
		    kernel_unnamed(m, r) ||
		    (boot = boot_of(m, t->seg[r])) == D9_NONE ||
		    d9_hmap_get(&named, key(t->addr[r], boot)) != D9_NONE)
			continue;
		if (d9_hmap_put(&named, key(t->addr[r], boot), (uint32_t)r) <
		    0) {
			d9_hmap_free(&named);
			return -1;
		}
	}
	for (size_t r = 0; named.n > 0 && r < t->n; r++) {
		if (!(t->addr[r] >> 63) || !kernel_unnamed(m, r) ||
		    (boot = boot_of(m, t->seg[r])) == D9_NONE ||
		    (from = d9_hmap_get(&named, key(t->addr[r], boot))) ==
		    D9_NONE || t->addr[from] != t->addr[r] ||
		    boot_of(m, t->seg[from]) != boot)
			continue;
		t->name[r] = t->name[from];
		t->file[r] = t->file[from];
		filled++;
	}
	d9_hmap_free(&named);
	return filled > 0;
}
