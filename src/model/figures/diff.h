/*
 * diff.h: two runs compared (--diff, and the browser's baseline window).
 *
 * A side is the figures of one run keyed by name, not by id, so two
 * traces (whose string ids differ), two windows of one trace and a
 * --json output read back (src/output/jsonread.c) compare alike:
 * polls by spawn location, long polls, scheduling delay, on-CPU and
 * in-poll off-CPU samples by leaf frame, allocation sites by estimated
 * bytes, spans by name. The off-CPU leaf of a sample is its first frame
 * outside the kernel (where the thread entered it: every context
 * switch's kernel leaf is the scheduler); the on-CPU leaf is its first
 * frame. An allocation site is its frames, leaf first, hooks stripped
 * (ANALYSIS 7), as the --json topSites list them.
 *
 * The diff ranks what changed: locations and spans by the increase of
 * their p99, those only in the new run first (by their p99) and those
 * only in the old run last; leaf frames by the change of their share of
 * the samples, largest increase first; sites by the change of their
 * estimated bytes, largest increase first. Ties go by name, so the
 * order is stable.
 */
#ifndef D9M_DIFF_H
#define D9M_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/intern.h"
#include "model/figures/analysis.h"
#include "model/queries/flame.h"
#include "model/queries/spanset.h"

/* A named distribution (a spawn location's polls, a span name). */
struct d9m_npct {
	const char	*name;
	const char	*key;	/* what matches across runs: the name, a
				 * spawn location past its machine's cargo
				 * home (d9m_loc_key) */
	struct d9m_pct	 v;
};

/* A named weight: samples of a leaf frame, bytes of a site (key: its
 * frames joined by newlines; name: its leaf). */
struct d9m_nweight {
	const char	*name;
	const char	*key;
	double		 w;
};

struct d9m_side {
	struct d9_arena	 arena;		/* the names */
	struct d9_intern names;		/* every name and key, copied */
	struct d9_intern keys[3];	/* per weight list: key -> index */
	struct d9m_npct	*locs;		/* polls by spawn location */
	size_t		 nlocs, caplocs;
	size_t		 long_polls;
	struct d9m_pct	 sched;
	struct d9m_nweight *cpu;	/* on-CPU samples by leaf */
	size_t		 ncpu, capcpu;
	double		 cpu_total;
	struct d9m_nweight *off;	/* in-poll off-CPU samples by leaf */
	size_t		 noff, capoff;
	double		 off_total;
	struct d9m_nweight *sites;	/* estimated bytes by site */
	size_t		 nsites, capsites;
	struct d9m_npct	*spans;
	size_t		 nspans, capspans;
	uint64_t	 duration_ns;	/* of its runtime events, 0 unknown */
};

/* The part of spawn location name that does not depend on the machine
 * that built it: a crate's source under a cargo home (".../registry/src/
 * INDEX/hyper-util-0.1.20/src/rt/tokio.rs:115:9" from /home/u/.cargo or
 * /usr/local/cargo alike) from the crate's folder on, a git dependency's
 * from its checkout's revision folder on; else the name. Points into
 * name. */
const char *d9m_loc_key(const char *name);
/* The row an unnamed frame (d9m_frame_name's "0x1f2e", "0x1f2e
 * (module)" or "[kernel] 0x...") counts in when two runs are compared,
 * whose addresses never match (ASLR, another build): "[unnamed]",
 * "[unnamed in module]" (in buf, cap bytes) or "[unnamed in the
 * kernel]"; NULL for a named frame. */
#define D9M_ROW_MAX	256
const char *d9m_unnamed_row(const char *name, char *buf, size_t cap);
void	d9m_side_init(struct d9m_side *s);
void	d9m_side_free(struct d9m_side *s);
/* Add to a side (names are copied); -1 when out of memory. Adding a
 * name twice to a weight list adds the weights. */
int	d9m_side_loc(struct d9m_side *s, const char *name,
	    const struct d9m_pct *v);
int	d9m_side_span(struct d9m_side *s, const char *name,
	    const struct d9m_pct *v);
int	d9m_side_weight(struct d9m_side *s, int which, const char *name,
	    const char *key, double w);
enum { D9M_SIDE_CPU, D9M_SIDE_OFF, D9M_SIDE_SITE };

/* The figures of analysis a of model m, names through r. The spawn
 * locations keep a's order (those without polls are left out). */
int	d9m_side_of(struct d9m_side *s, const struct d9m_model *m,
	    const struct d9m_resolver *r, const struct d9m_analysis *a);
/* Only the leaf frames of the on-CPU and in-poll off-CPU samples. */
int	d9m_side_leaves(struct d9m_side *s, const struct d9m_model *m,
	    const struct d9m_resolver *r, const struct d9m_analysis *a);
/* Only the spawn locations (the tasks section; with all, also those
 * without polls, so side and analysis have one index), or only the
 * spans (the spanset's order). */
int	d9m_side_locs(struct d9m_side *s, const struct d9m_model *m,
	    const struct d9m_analysis *a, int all);
int	d9m_side_spans(struct d9m_side *s, const struct d9m_model *m,
	    const struct d9m_spanset *ss);

/* The indexes of a weight list, heaviest first (ties by name); malloc'd,
 * NULL when out of memory or empty. */
size_t	*d9m_side_order(const struct d9m_side *s, int which);

/* A name in either run; old or new NULL where it is not. */
struct d9m_dpct {
	const char		*name;
	const struct d9m_pct	*old, *new;
	size_t			 iold, inew;	/* its index in each side */
	double			 old_share, new_share;	/* of the count */
};

struct d9m_dweight {
	const char	*name, *key;
	double		 old, new;	/* shares (cpu, off) or bytes */
	double		 old_rate, new_rate;	/* sites: bytes per second */
};

/* Runs of unequal length (durations more than 10 % apart) compare by
 * rates: counts come with their per-second rate, and sites rank by the
 * change of their bytes per second. */
struct d9m_diff {
	uint64_t	 dur_old, dur_new;	/* ns, 0 unknown */
	int		 unequal;
	double		 long_old_rate, long_new_rate;	/* per second */
	struct d9m_dpct	*locs;
	size_t		 nlocs;
	size_t		 long_old, long_new;
	struct d9m_pct	 sched_old, sched_new;
	struct d9m_dweight *cpu, *off, *sites;
	size_t		 ncpu, noff, nsites;
	struct d9m_dpct	*spans;
	size_t		 nspans;
	struct d9m_side	*grouped;	/* [2]: the sides' weights with their
					 * unnamed frames in one row each
					 * (d9m_unnamed_row), what the
					 * weights point into */
};

/* Compare; d points into both sides, which must outlive it (unnamed
 * frames of leaves and sites are compared in one row per module: their
 * addresses never match between runs). */
int	d9m_diff(const struct d9m_side *old, const struct d9m_side *new,
	    struct d9m_diff *d);
void	d9m_diff_free(struct d9m_diff *d);
/* n per second of a run of dur_ns nanoseconds; 0 when dur_ns is 0. */
double	d9m_per_sec(double n, uint64_t dur_ns);
/* The change of a row's p99 (new - old; a side without it counts 0). */
int64_t	d9m_dpct_change(const struct d9m_dpct *r);
/* new - old, held to -INT64_MAX .. INT64_MAX (a side read from a --json
 * file may hold any count or time). */
int64_t	d9m_delta(uint64_t new, uint64_t old);

/*
 * A flame tree compared with the same tree of a baseline window
 * (flamediff.c): for each node of cur the weight of the node at the same
 * path of frame names in base (0 where base has none), and each node's
 * children ordered by the change of their share of the whole tree (cur's
 * minus base's), largest increase first, ties by weight. Nodes only in
 * base are not in cur's tree and have no row.
 */
struct d9m_fdiff {
	double		*base_w;	/* per node of cur */
	double		 base_total;	/* base's root weight */
	uint32_t	*kids;		/* as cur->kids, each run by change */
};

int	d9m_flame_diff(const struct d9m_flame *cur, const struct d9m_flame *base,
	    struct d9m_fdiff *d);
void	d9m_fdiff_free(struct d9m_fdiff *d);
/* The change of node i's share of its tree, from base to cur. */
double	d9m_fdiff_change(const struct d9m_flame *cur,
	    const struct d9m_fdiff *d, uint32_t i);

#endif
