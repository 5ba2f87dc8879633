/*
 * groups.h: which process each segment came from (struct d9m_groups in
 * model.h). While a segment is read, what names its process gathers in a
 * struct d9m_pending: service, host and boot from segment metadata
 * (service/service_name, host/instance_path, boot_id), its first clock
 * sync; at the segment's first other event the group is found or made
 * (d9m_group_resolve), falling back on the input's path (dial9's S3 and
 * boot-id layouts, FORMAT 1.4, 1.7, 5) when the metadata names nothing.
 * Segments that name no boot are one group only if their clocks agree
 * (ANALYSIS 23): the same wall-clock offset within 1 ms; a segment
 * without clock sync joins the segment read before it only when its
 * times continue that one's.
 */
#ifndef D9M_GROUPS_H
#define D9M_GROUPS_H

#include <stddef.h>
#include <stdint.h>

struct d9m_model;

struct d9m_pending {
	uint32_t	 service, host, boot;	/* string ids, D9_NONE */
	int		 named;		/* metadata named one of them */
	int		 host_named;	/* host by its own key, not by the
					 * system's hostname */
	int		 has_wall;
	int64_t		 wall;		/* realtime - monotonic */
	uint32_t	 group;		/* D9_NONE until resolved */
	int64_t		 shift;		/* the group's, once resolved */
};

/* The segment read before the one being resolved, as recorded (raw
 * times): a segment without clock sync may go on its source. */
struct d9m_prevseg {
	uint32_t	 group;		/* D9_NONE: none */
	uint64_t	 first, last;	/* its events' times */
	uint64_t	 longest;	/* the longest segment so far */
};

/* dial9 0.5.1's system metadata (perf-self-profile's
 * system_metadata.rs): segment metadata keys. */
#define D9M_META_HOSTNAME	"cpu.profile.machine_hostname"
#define D9M_META_ARCH		"cpu.profile.machine_architecture"
#define D9M_META_KERNEL		"cpu.profile.kernel_release"
#define D9M_META_KERNEL_VER	"cpu.profile.kernel_version"
#define D9M_META_CPU		"cpu.profile.cpu_model"
#define D9M_META_MEMORY		"cpu.profile.memory_total_bytes"

void	d9m_pending_reset(struct d9m_pending *p);
/* Derive m->group_cover (finished tables): for each group, the first and
 * last time of its runtime events, CPU samples and custom events. */
int	d9m_groups_cover(struct d9m_model *m);
/* A metadata entry of the segment (string ids). */
void	d9m_pending_meta(const struct d9m_model *m, struct d9m_pending *p,
	    uint32_t key, uint32_t val);
/* A clock sync of the segment (its first one counts). */
void	d9m_pending_clock(struct d9m_pending *p, uint64_t mono, uint64_t real);
/* Whether a segment whose process is p (resolved) has ended and another
 * process's begins: metadata entries (string ids, n of them) naming
 * another service, host or boot, or (n == 0) a clock sync (mono, real)
 * whose wall-clock offset is not p's. */
int	d9m_pending_other(const struct d9m_model *m, const struct d9m_pending *p,
	    const uint32_t *keys, const uint32_t *vals, size_t n,
	    uint64_t mono, uint64_t real);
/* Find or make the group of segment seg, whose first event is at ts;
 * prev: the segment read before it. Moves the clock rows already read
 * for seg by the group's shift. -1 when out of memory. */
int	d9m_group_resolve(struct d9m_model *m, struct d9m_pending *p,
	    uint32_t seg, uint64_t ts, const struct d9m_prevseg *prev);

/* A time of the resolved segment on the model's clock. */
static inline uint64_t
d9m_pending_ts(const struct d9m_pending *p, uint64_t ts)
{
	if (p->shift < 0 && ts < (uint64_t)-p->shift)
		return 0;
	return ts + (uint64_t)p->shift;
}

/* "service host boot" of group g, the parts known, or "(unnamed)". */
void	d9m_group_name(const struct d9m_model *m, uint32_t g, char *out,
	    size_t cap);

#endif
