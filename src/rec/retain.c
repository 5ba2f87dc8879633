/*
 * retain.c: the size cap. Whatever the file size, total cap and period,
 * the directory keeps the newest complete segment: the oldest sealed
 * segments go until they, the segment being sealed and room for the
 * next one (max_file_size; none after the last seal) fit in
 * max_total_size, and d9rec_open refuses a cap below two segments.
 *
 * The segment being sealed counts with what its seal will still add: its
 * appendix (memory maps and symbols, encoded first: a program with many
 * mappings has a large one) and room for its metadata.
 *
 * Deleting is planned as a seal begins (the plan is the flush thread's:
 * w->plan), so that the seal's metadata can count it
 * (d9rec.deleted_segments, d9rec.deleted_bytes), and carried out under
 * the writer's lock once the seal is renamed: until the sealed segment
 * exists, the one before it stays. A seal that holds no data (only loss
 * counters) never makes the segment before it go. A segment is deleted
 * whole: its .bin and compressed copies alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec/rec.h"

static int
victim_cmp(const void *a, const void *b)
{
	const struct seg_victim *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The sealed segments of the directory with their sizes, by index, into
 * w->plan; returns their total size. */
static uint64_t
list_sealed(struct d9rec_writer *w)
{
	uint64_t total = 0;
	struct dirent *de;
	struct seg_victim *q;
	const char *rest;
	struct stat sb;
	uint32_t idx;
	size_t i;
	DIR *d;

	w->plan_n = 0;
	pthread_mutex_lock(&w->lock);	/* the compressor renames under it */
	if ((d = d9rec_seg_dir(w)) == NULL) {
		pthread_mutex_unlock(&w->lock);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (d9rec_seg_parse_name(de->d_name, &idx, &rest) < 0 ||
		    strcmp(rest, ".active") == 0 ||
		    fstatat(w->dirfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		for (i = 0; i < w->plan_n && w->plan[i].idx != idx; i++)
			;
		if (i == w->plan_n) {
			if (w->plan_n == w->plan_cap) {
				size_t nc = w->plan_cap ? w->plan_cap * 2 : 16;

				if ((q = realloc(w->plan, nc * sizeof *q)) ==
				    NULL)
					break;
				w->plan = q;
				w->plan_cap = nc;
			}
			w->plan[i].idx = idx;
			w->plan[w->plan_n++].bytes = 0;
		}
		w->plan[i].bytes += (uint64_t)sb.st_size;
		total += (uint64_t)sb.st_size;
	}
	closedir(d);
	pthread_mutex_unlock(&w->lock);
	if (w->plan_n > 0)
		qsort(w->plan, w->plan_n, sizeof *w->plan, victim_cmp);
	return total;
}

void
d9rec_retain_plan(struct d9rec_writer *w, uint64_t reserve, uint64_t pending)
{
	uint64_t total = list_sealed(w) + w->seg_bytes + pending;
	uint64_t budget = w->opt.max_total_size;
	size_t n = w->plan_n, k = 0;

	budget -= reserve < budget ? reserve : budget;
	if (!w->seg_data && n > 0)
		n--;		/* a seal without data replaces nothing */
	w->plan_bytes = 0;
	while (k < n && total > budget) {
		total -= w->plan[k].bytes;
		w->plan_bytes += w->plan[k++].bytes;
	}
	w->plan_n = k;
}

void
d9rec_retain_apply(struct d9rec_writer *w)
{
	struct dirent *de;
	const char *rest;
	uint32_t idx;
	DIR *d;

	if ((d = d9rec_seg_dir(w)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		struct seg_victim key;

		if (d9rec_seg_parse_name(de->d_name, &idx, &rest) < 0 ||
		    strcmp(rest, ".active") == 0)
			continue;
		key.idx = idx;
		if (bsearch(&key, w->plan, w->plan_n, sizeof key, victim_cmp))
			unlinkat(w->dirfd, de->d_name, 0);
	}
	closedir(d);
	atomic_fetch_add(&w->deleted_segments, w->plan_n);
	atomic_fetch_add(&w->deleted_bytes, w->plan_bytes);
}
