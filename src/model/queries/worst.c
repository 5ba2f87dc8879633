/*
 * worst.c: see worst.h. A stable radix sort of the inverted durations
 * keeps equal durations in row order.
 */
#include <stdlib.h>

#include "model/core/table.h"
#include "model/queries/worst.h"

int
d9m_polls_by_dur(const struct d9m_model *m, uint32_t **out)
{
	size_t n = m->polls.n;
	uint64_t *key = malloc((n ? n : 1) * sizeof *key);

	*out = malloc((n ? n : 1) * sizeof **out);
	if (key == NULL || *out == NULL) {
		free(key);
		free(*out);
		*out = NULL;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		key[i] = UINT64_MAX - (m->polls.end[i] - m->polls.start[i]);
	if (d9m_sort_perm(key, n, *out) < 0) {
		free(key);
		free(*out);
		*out = NULL;
		return -1;
	}
	free(key);
	return 0;
}

uint32_t
d9m_worst_next(const struct d9m_model *m, const uint32_t *by_dur,
    const struct d9m_window *w, size_t *pos)
{
	for (size_t i = *pos; i < m->polls.n; i++)
		if (d9m_in_window(w, m->polls.start[by_dur[i]])) {
			*pos = i + 1;
			return by_dur[i];
		}
	*pos = m->polls.n;
	return D9_NONE;
}
