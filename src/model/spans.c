/*
 * spans.c: span events paired into lives as ANALYSIS 6 defines, once
 * per finished model (d9m_spans_derive, from d9m_model_finish): events
 * are linked into lives (one span id up to its close), each life is
 * paired (raw duration = first enter to last exit), and the lives that
 * exited are kept sorted by their first enter, so a window takes the
 * lives that start in it by binary search. Also the per-poll span
 * counts the red flags need.
 */
#include <stdlib.h>
#include <string.h>

#include "model/spans.h"
#include "model/table.h"

/* Link every event to the next one of its life: events grouped by span
 * id (a stable sort keeps their time order), cut after each close. */
static int
link_lives(struct d9m_spanev *e)
{
	uint32_t *perm = malloc((e->n ? e->n : 1) * sizeof *perm);
	uint32_t last = D9_NONE, enter = D9_NONE;
	uint64_t id = 0;

	e->next = malloc((e->n ? e->n : 1) * sizeof *e->next);
	e->prev_enter = malloc((e->n ? e->n : 1) * sizeof *e->prev_enter);
	if (perm == NULL || e->next == NULL || e->prev_enter == NULL ||
	    d9m_sort_perm(e->span_id, e->n, perm) < 0) {
		free(perm);
		return -1;
	}
	for (size_t k = 0; k < e->n; k++) {
		uint32_t i = perm[k];

		if (k > 0 && e->span_id[i] != id)
			last = enter = D9_NONE;	/* another span id */
		id = e->span_id[i];
		e->next[i] = D9_NONE;
		e->prev_enter[i] = enter;
		if (last != D9_NONE)
			e->next[last] = i;
		last = i;
		if (e->kind[i] == D9M_SPAN_ENTER)
			enter = i;
		else if (e->kind[i] == D9M_SPAN_CLOSE)
			last = enter = D9_NONE;	/* the id may be reused */
	}
	free(perm);
	return 0;
}

/* One life, paired from its first enter on. */
struct life {
	uint64_t	first, last_start, last_end;
	uint64_t	open_ts;	/* enter of the open pair */
	size_t		nsegs;
	uint32_t	fields;		/* the first enter's, or the last
					 * exit's that has fields */
	int		open;
};

/*
 * Pair the life whose first enter is event i: an enter opens a pair
 * (unless one is open), an exit closes it into a segment, a close ends
 * the life. exit_of[enter] is set to the exit of each segment.
 */
static void
pair_life(const struct d9m_spanev *e, uint32_t i, uint32_t *exit_of,
    struct life *l)
{
	uint32_t opened = i;

	memset(l, 0, sizeof *l);
	l->open = 1;
	l->open_ts = e->ts[i];
	l->fields = e->fields[i];
	for (uint32_t j = e->next[i]; j != D9_NONE; j = e->next[j]) {
		if (e->kind[j] == D9M_SPAN_CLOSE) {
			l->open = 0;
			break;
		}
		if (e->kind[j] == D9M_SPAN_ENTER) {
			if (!l->open) {
				l->open = 1;
				l->open_ts = e->ts[j];
				opened = j;
			}
			continue;
		}
		if (!l->open)
			continue;
		l->open = 0;
		if (l->nsegs == 0 || l->open_ts < l->first)
			l->first = l->open_ts;
		if (l->nsegs == 0 || l->open_ts >= l->last_start) {
			l->last_start = l->open_ts;
			l->last_end = e->ts[j];
		}
		l->nsegs++;
		if (e->fields[j] != D9_NONE)
			l->fields = e->fields[j];
		exit_of[opened] = j;
	}
}

/*
 * Spans fully inside one poll of their worker (many-spans-per-poll),
 * over the whole trace. Segments come by their enter, in time order, so
 * the poll each worker runs is found by walking its polls along.
 */
struct in_polls {
	uint32_t	*cnt;		/* per poll: segments inside it */
	size_t		*cur;		/* per worker slot: its last poll
					 * started so far */
};

static int
in_polls_init(const struct d9m_model *m, struct in_polls *ip)
{
	ip->cnt = calloc(m->polls.n + 1, sizeof *ip->cnt);
	ip->cur = malloc((m->nworkers + 1) * sizeof *ip->cur);
	if (ip->cnt == NULL || ip->cur == NULL)
		return -1;
	for (size_t w = 0; w < m->nworkers; w++)
		ip->cur[w] = m->workers[w].poll0;
	return 0;
}

/* The segment from enter i to exit x. */
static void
in_polls_add(const struct d9m_model *m, struct in_polls *ip, size_t i,
    uint32_t x)
{
	const struct d9m_spanev *e = &m->spanev;
	uint32_t w = d9m_worker_slot(m, e->worker[i]);
	size_t end, *p;

	if (w == D9_NONE)
		return;
	end = m->workers[w].poll0 + m->workers[w].npolls;
	for (p = &ip->cur[w]; *p + 1 < end && m->polls.start[*p + 1] <=
	    e->ts[i]; ++*p)
		;
	if (*p < end && m->polls.start[*p] <= e->ts[i] &&
	    e->ts[x] <= m->polls.end[*p])
		ip->cnt[*p]++;
}

static void
in_polls_figures(const struct d9m_model *m, const struct in_polls *ip,
    struct d9m_spans *s)
{
	for (size_t p = 0; p < m->polls.n; p++) {
		if (ip->cnt[p] > 20)
			s->polls_over20++;
		if (ip->cnt[p] > s->poll_max) {
			s->poll_max = ip->cnt[p];
			s->poll_row = (uint32_t)p;
		}
	}
}

int
d9m_spans_derive(struct d9m_model *m)
{
	const struct d9m_spanev *e = &m->spanev;
	struct d9m_spans *s = &m->spans;
	struct in_polls ip = { NULL, NULL };
	size_t nl = 0;
	uint32_t *exit_of;
	int rc = -1;

	memset(s, 0, sizeof *s);
	s->poll_row = D9_NONE;
	if (link_lives(&m->spanev) < 0)
		return -1;
	for (size_t i = 0; i < e->n; i++)
		nl += e->kind[i] == D9M_SPAN_ENTER &&
		    e->prev_enter[i] == D9_NONE;
	s->first = malloc((nl ? nl : 1) * sizeof *s->first);
	s->dur = malloc((nl ? nl : 1) * sizeof *s->dur);
	s->name = malloc((nl ? nl : 1) * sizeof *s->name);
	s->worker = malloc((nl ? nl : 1) * sizeof *s->worker);
	s->fields = malloc((nl ? nl : 1) * sizeof *s->fields);
	s->open_ts = malloc((nl ? nl : 1) * sizeof *s->open_ts);
	exit_of = malloc((e->n ? e->n : 1) * sizeof *exit_of);
	if (s->first == NULL || s->dur == NULL || s->name == NULL ||
	    s->worker == NULL || s->fields == NULL ||
	    s->open_ts == NULL || exit_of == NULL || in_polls_init(m, &ip) < 0)
		goto out;
	for (size_t i = 0; i < e->n; i++)
		exit_of[i] = D9_NONE;
	/* lives by first enter, which is where their first segment starts */
	for (size_t i = 0; i < e->n; i++) {
		struct life l;

		if (e->kind[i] != D9M_SPAN_ENTER)
			continue;
		if (e->prev_enter[i] == D9_NONE) {
			pair_life(e, (uint32_t)i, exit_of, &l);
			if (l.nsegs > 0) {
				s->first[s->n] = l.first;
				s->dur[s->n] = l.last_end - l.first;
				s->worker[s->n] = e->worker[i];
				s->fields[s->n] = l.fields;
				s->name[s->n++] = e->name[i];
			}
			if (l.open)
				s->open_ts[s->nopen++] = l.open_ts;
		}
		/* set when its life was paired, at its first enter */
		if (exit_of[i] != D9_NONE)
			in_polls_add(m, &ip, i, exit_of[i]);
	}
	in_polls_figures(m, &ip, s);
	rc = d9m_sort_u64(s->open_ts, s->nopen);
out:
	free(ip.cnt);
	free(ip.cur);
	free(exit_of);
	return rc;
}
