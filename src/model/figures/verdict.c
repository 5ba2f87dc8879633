/*
 * verdict.c: see verdict.h. An off-CPU sample's stack is walked from the
 * leaf; the first frame whose name holds one of the patterns decides its
 * class. A pattern matches at a word start (the character before it is
 * not a letter or digit) and, unless it ends in '*', at a word end, so
 * "read" is found in "ksys_read" and "std::io::Read::read_exact" but not
 * in "thread_start". An exit to user mode calls the scheduler only when
 * a reschedule is pending, so a switch under it is preemption even on
 * the way out of a system call (ANALYSIS 17.1); interrupt entries mean
 * preemption only in a stack without a system-call entry.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/stackcap.h"
#include "model/figures/analysis.h"
#include "model/figures/framekind.h"
#include "model/figures/observer.h"
#include "model/queries/samples.h"
#include "model/figures/verdict.h"
#include "model/queries/window.h"


struct pattern {
	const char	*text;		/* '*' at the end: a prefix */
	enum d9m_vclass	 cls;
	const char	*why;		/* what the verdict says */
	int		 no_syscall;	/* only in a stack without one */
};

static const struct pattern patterns[] = {
	{ "preempt_schedule*", D9M_V_PREEMPTED, "preemption", 0 },
	{ "irqentry_exit_to_user_mode", D9M_V_PREEMPTED, "preemption", 0 },
	{ "exit_to_user_mode_loop", D9M_V_PREEMPTED, "preemption", 0 },
	{ "syscall_exit_to_user_mode", D9M_V_PREEMPTED, "preemption", 0 },
	{ "exit_to_user_mode_prepare", D9M_V_PREEMPTED, "preemption", 0 },
	{ "asm_sysvec_*", D9M_V_PREEMPTED, "an interrupt", 1 },
	{ "asm_common_interrupt", D9M_V_PREEMPTED, "an interrupt", 1 },
	{ "futex_*", D9M_V_LOCK, "futex", 0 },
	{ "__x64_sys_futex", D9M_V_LOCK, "futex", 0 },
	{ "lock_contended", D9M_V_LOCK, "a contended lock", 0 },
	{ "pthread_mutex_lock", D9M_V_LOCK, "pthread_mutex_lock", 0 },
	{ "parking_lot", D9M_V_LOCK, "parking_lot", 0 },
	{ "Condvar::wait*", D9M_V_LOCK, "Condvar::wait", 0 },
	{ "nanosleep", D9M_V_SLEEP, "nanosleep", 0 },
	{ "clock_nanosleep", D9M_V_SLEEP, "nanosleep", 0 },
	{ "do_nanosleep", D9M_V_SLEEP, "nanosleep", 0 },
	{ "hrtimer_nanosleep", D9M_V_SLEEP, "nanosleep", 0 },
	{ "thread::sleep", D9M_V_SLEEP, "thread::sleep", 0 },
	{ "read", D9M_V_IO, "read", 0 },
	{ "write", D9M_V_IO, "write", 0 },
	{ "pread*", D9M_V_IO, "pread", 0 },
	{ "pwrite*", D9M_V_IO, "pwrite", 0 },
	{ "readv", D9M_V_IO, "readv", 0 },
	{ "writev", D9M_V_IO, "writev", 0 },
	{ "recv*", D9M_V_IO, "recv", 0 },
	{ "send*", D9M_V_IO, "send", 0 },
	{ "fsync", D9M_V_IO, "fsync", 0 },
	{ "fdatasync", D9M_V_IO, "fdatasync", 0 },
	{ "openat", D9M_V_IO, "openat", 0 },
	{ "io_schedule*", D9M_V_IO, "io_schedule", 0 },
	{ "filemap_read", D9M_V_IO, "filemap_read", 0 },
	{ "vfs_*", D9M_V_IO, "a file system call", 0 },
	{ "asm_exc_page_fault", D9M_V_FAULT, "page fault", 0 },
	{ "handle_mm_fault", D9M_V_FAULT, "page fault", 0 },
	{ "do_page_fault", D9M_V_FAULT, "page fault", 0 },
};

static const char *const syscall_entries[] = { "do_syscall_64",
	"entry_SYSCALL*" };

static const char *const class_names[D9M_V_COUNT] = { "cpu", "preempted",
	"lock", "sleep", "io", "fault", "blocked", "unknown", "off-cpu" };

const char *
d9m_confidence_name(enum d9m_confidence c)
{
	static const char *const names[] = { "low", "medium", "high" };

	return (unsigned)c <= D9M_CONF_HIGH ? names[c] : "low";
}

/* low under 3, medium under 10, high from 10 (ANALYSIS 17.1). */
static enum d9m_confidence
confidence_of(double n)
{
	return n < 3 ? D9M_CONF_LOW : n < 10 ? D9M_CONF_MEDIUM :
	    D9M_CONF_HIGH;
}

const char *
d9m_vclass_name(enum d9m_vclass c)
{
	return (unsigned)c < D9M_V_COUNT ? class_names[c] : "unknown";
}

int
d9m_vclass_blocks(enum d9m_vclass c)
{
	return c == D9M_V_LOCK || c == D9M_V_SLEEP || c == D9M_V_IO ||
	    c == D9M_V_FAULT || c == D9M_V_BLOCKED;
}

static int
word(char c)
{
	return isalnum((unsigned char)c);
}

/* Whether pattern p stands in name at a word start (and end). */
static int
matches(const char *name, const char *p)
{
	size_t n = strlen(p);
	int prefix = n > 0 && p[n - 1] == '*';

	n -= (size_t)prefix;
	for (const char *s = name; (s = strchr(s, p[0])) != NULL; s++) {
		if (strncmp(s, p, n) != 0)
			continue;
		if (s > name && word(s[-1]))
			continue;
		if (!prefix && word(s[n]))
			continue;
		return 1;
	}
	return 0;
}

#define NPAT	(sizeof patterns / sizeof patterns[0])
_Static_assert(NPAT < 0xff, "a pattern's number fits 8 bits of pack_fit");

/* What the patterns say of a frame's name: the first that matches, the
 * first of those asking for no system call (NPAT: none), and whether the
 * name is a system-call entry; as one value (pack_fit) for a memo. */
struct fit {
	uint32_t	 first, any_sys, syscall;
};

static uint32_t
pack_fit(struct fit x)
{
	return x.first | x.any_sys << 8 | x.syscall << 16;
}

static struct fit
name_fit(const char *name)
{
	struct fit x = { NPAT, NPAT, 0 };

	for (uint32_t k = 0; k < NPAT && x.any_sys == NPAT; k++) {
		if (!matches(name, patterns[k].text))
			continue;
		if (x.first == NPAT)
			x.first = k;
		if (!patterns[k].no_syscall)
			x.any_sys = k;
	}
	for (size_t k = 0; k < 2 && !x.syscall; k++)
		x.syscall = (uint32_t)matches(name, syscall_entries[k]);
	return x;
}

/* name_fit through names (name's address -> pack_fit; NULL: none). */
static struct fit
frame_fit(struct d9_hmap *names, const char *name)
{
	uint64_t key = (uint64_t)(uintptr_t)name;
	uint32_t v = names != NULL ? d9_hmap_get(names, key) : D9_NONE;
	struct fit x;

	if (v != D9_NONE)
		return (struct fit){ v & 0xff, v >> 8 & 0xff, v >> 16 & 1 };
	x = name_fit(name);
	if (names != NULL)
		(void)d9_hmap_put(names, key, pack_fit(x));	/* else again */
	return x;
}

/* d9m_stack_class with a memo of names (NULL: none). */
static enum d9m_vclass
classify(struct d9_hmap *names, const struct d9m_frame *f, size_t n,
    const char **why)
{
	int sys = -1;	/* whether the stack has a system-call entry, when
			 * a pattern first asks */

	*why = NULL;
	for (size_t i = 0; i < n; i++) {
		struct fit x;
		uint32_t k;

		if (f[i].name == NULL ||
		    (x = frame_fit(names, f[i].name)).first == NPAT)
			continue;
		k = x.first;
		if (patterns[k].no_syscall) {
			for (size_t j = 0; sys < 0 && j < n; j++)
				if (f[j].name != NULL &&
				    frame_fit(names, f[j].name).syscall)
					sys = 1;
			if (sys < 0)
				sys = 0;
			/* with one, the first match that does not ask */
			if (sys && (k = x.any_sys) == NPAT)
				continue;
		}
		*why = patterns[k].why;
		return patterns[k].cls;
	}
	return D9M_V_BLOCKED;
}

enum d9m_vclass
d9m_stack_class(const struct d9m_frame *f, size_t n, const char **why)
{
	return classify(NULL, f, n, why);
}

enum d9m_vclass
d9m_stack_class_memo(struct d9m_vmemo *k, const struct d9m_frame *f,
    size_t n, const char **why)
{
	return classify(&k->names, f, n, why);
}

enum d9m_vclass
d9m_sample_class(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_vmemo *k, size_t i, const char **why)
{
	size_t n;

	*why = NULL;
	switch (d9m_cpu_class(m, i)) {
	case D9M_ON_CPU:
		return D9M_V_CPU;
	case D9M_OFF_CPU:
		n = d9m_stack_frames_memo(m, r, &k->fm, m->cpu.seg[i],
		    m->cpu.stack[i], k->f, D9_STACK_MAX);
		return classify(&k->names, k->f, n, why);
	default:
		return D9M_V_UNKNOWN;
	}
}

/* The first application frame of a stack, "" when none. */
static void
app_frame(const struct d9m_frame *f, size_t n, char *out, size_t cap)
{
	out[0] = '\0';
	for (size_t k = 0; k < n; k++)
		if (d9m_frame_kind(&f[k]) == D9M_FK_APP) {
			snprintf(out, cap, "%s", d9m_frame_name(&f[k]));
			return;
		}
}

/* A distinct stack of the poll's samples: its class, what decided it,
 * its first application frame, how many samples. */
struct vgroup {
	enum d9m_vclass	 cls;
	const char	*why;
	char		 where[256];
	size_t		 n;
	int		 recorder;	/* a frame is the recorder's (21) */
};

/* Classify each distinct (stack, segment, on or off CPU) of poll p's
 * samples once. */
static struct vgroup *
groups(const struct d9m_model *m, const struct d9m_resolver *r, uint32_t p,
    size_t *ng)
{
	struct d9m_wstack *v = NULL, *g = NULL;
	struct d9m_frame *f = d9m_frames_alloc();
	struct vgroup *out = NULL;
	uint32_t *rows = NULL;
	size_t n = 0;

	if (d9m_poll_samples(m, p, D9M_OTHER_CPU, &rows, &n) == 0)
		v = malloc((n + 1) * sizeof *v);
	for (size_t k = 0; v != NULL && k < n; k++) {
		uint32_t i = rows[k];

		/* the segment's id, doubled, carries on or off CPU */
		v[k] = (struct d9m_wstack){ m->cpu.stack[i], m->cpu.seg[i] * 2 +
		    (d9m_cpu_class(m, i) == D9M_OFF_CPU), 1, 1 };
	}
	free(rows);
	if (f != NULL && v != NULL && d9m_wstack_merge(v, n, &g, ng) == 0)
		out = calloc(*ng + 1, sizeof *out);
	for (size_t k = 0; out != NULL && k < *ng; k++) {
		size_t nf = d9m_stack_frames(m, r, g[k].seg / 2, g[k].stack, f,
		    D9_STACK_MAX);

		out[k].cls = g[k].seg & 1 ? d9m_stack_class(f, nf,
		    &out[k].why) : D9M_V_CPU;
		app_frame(f, nf, out[k].where, sizeof out[k].where);
		out[k].n = g[k].n;
		out[k].recorder = d9m_recorder_frame(f, nf) >= 0;
	}
	free(f);
	free(v);
	free(g);
	return out;
}

#define NEAR_NS		1000000000ull	/* sampling shown within a second */
/* Off CPU by absence from an expectation of "about 2" on: a CPU-time
 * timer fires once per 1/rate of CPU time, so a poll on CPU all along
 * for 1.5 periods has at least one sample. (At least 2 missed d9demo's
 * 20 ms sleeps at 99 Hz, 1.99 due: 18 of 20 read "unknown".) */
#define ABSENT_DUE	1.5
#define NEAR_ROWS	4096		/* of so many samples each side */

/* Whether the worker of poll p has an on-CPU sample within a second
 * before or after it: its thread's CPU time was being sampled then (a
 * thread's timer starts when it registers, and the first polls may
 * come before it). */
static int
sampled_near(const struct d9m_model *m, uint32_t p)
{
	uint64_t s = m->polls.start[p], e = m->polls.end[p];
	uint32_t wk = d9m_poll_worker_id(m, p);
	size_t i = d9m_lower(m->cpu.ts, m->cpu.n, s), k;

	for (k = 0; k < NEAR_ROWS && i > 0 && m->cpu.ts[i - 1] + NEAR_NS >=
	    s; k++, i--)
		if (m->cpu.worker[i - 1] == wk &&
		    d9m_cpu_class(m, i - 1) == D9M_ON_CPU)
			return 1;
	i = d9m_lower(m->cpu.ts, m->cpu.n, e);
	for (k = 0; k < NEAR_ROWS && i < m->cpu.n && m->cpu.ts[i] <= e +
	    NEAR_NS; k++, i++)
		if (m->cpu.worker[i] == wk && d9m_cpu_class(m, i) == D9M_ON_CPU)
			return 1;
	return 0;
}

/* The class with the most samples (ties in class order), or cpu (v's
 * kind and samples). */
static void
decide(const size_t cnt[D9M_V_COUNT], struct d9m_verdict *v)
{
	for (int c = 0; c < D9M_V_UNKNOWN; c++)
		if (cnt[c] > v->samples) {
			v->samples = cnt[c];
			v->kind = (enum d9m_vclass)c;
		}
	/* on CPU for most of the poll, however many switches were sampled
	 * too: an on-CPU sample is taken per 1/rate of the thread's CPU
	 * time, an off-CPU one per context switch (many short preemptions
	 * of a 40 ms crunch outnumbered its 4 on-CPU samples, the 4 due) */
	if (v->expected > 0 && cnt[D9M_V_CPU] > 0 &&
	    2.0 * (double)cnt[D9M_V_CPU] >= v->expected) {
		v->kind = D9M_V_CPU;
		v->samples = cnt[D9M_V_CPU];
	}
}

/* Off CPU by absence: samples were due and none came on CPU. */
static int
absent(const struct d9m_model *m, uint32_t p, const size_t cnt[D9M_V_COUNT],
    const struct d9m_verdict *v)
{
	return v->expected >= ABSENT_DUE && cnt[D9M_V_CPU] == 0 &&
	    sampled_near(m, p);
}

static double
expected_of(const struct d9m_model *m, uint32_t p)
{
	return m->cpu_hz > 0 ? (double)(m->polls.end[p] -
	    m->polls.start[p]) / 1e9 * m->cpu_hz : -1;
}

int
d9m_vmemo_init(struct d9m_vmemo *k)
{
	d9_hmap_init(&k->cls);
	d9_hmap_init(&k->names);
	d9m_fmemo_init(&k->fm);
	k->f = d9m_frames_alloc();
	return k->f == NULL ? -1 : 0;
}

void
d9m_vmemo_free(struct d9m_vmemo *k)
{
	d9_hmap_free(&k->cls);
	d9_hmap_free(&k->names);
	d9m_fmemo_free(&k->fm);
	free(k->f);
	k->f = NULL;
}

/* The class of an off-CPU sample's stack, looked up or found once. */
static int
stack_class(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_vmemo *k, uint32_t seg, uint32_t stack, enum d9m_vclass *c)
{
	uint64_t key = (uint64_t)stack << 32 | seg;
	uint32_t v = d9_hmap_get(&k->cls, key);
	const char *why;
	size_t nf;

	if (v == D9_NONE) {
		nf = d9m_stack_frames_memo(m, r, &k->fm, seg, stack, k->f,
		    D9_STACK_MAX);
		v = (uint32_t)classify(&k->names, k->f, nf, &why);
		if (d9_hmap_put(&k->cls, key, v) < 0)
			return -1;
	}
	*c = (enum d9m_vclass)v;
	return 0;
}

int
d9m_poll_kind(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t p, struct d9m_vmemo *k, enum d9m_vclass *kind)
{
	size_t cnt[D9M_V_COUNT] = { 0 }, n = 0;
	struct d9m_verdict v;
	uint32_t *rows = NULL;
	int rc = 0;

	memset(&v, 0, sizeof v);
	v.kind = D9M_V_UNKNOWN;
	v.expected = expected_of(m, p);
	if (d9m_poll_samples(m, p, D9M_OTHER_CPU, &rows, &n) < 0)
		return -1;
	for (size_t j = 0; rc == 0 && j < n; j++) {
		uint32_t i = rows[j];
		enum d9m_vclass c = D9M_V_CPU;

		if (d9m_cpu_class(m, i) == D9M_OFF_CPU)
			rc = stack_class(m, r, k, m->cpu.seg[i],
			    m->cpu.stack[i], &c);
		cnt[c]++;
	}
	free(rows);
	decide(cnt, &v);
	*kind = absent(m, p, cnt, &v) ? D9M_V_OFF_CPU : v.kind;
	return rc;
}

int
d9m_poll_verdict(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t p, struct d9m_verdict *v)
{
	size_t cnt[D9M_V_COUNT] = { 0 }, ng = 0, best = 0, rec = 0;
	struct vgroup *g = groups(m, r, p, &ng);

	memset(v, 0, sizeof *v);
	v->kind = v->off_kind = D9M_V_UNKNOWN;
	v->expected = expected_of(m, p);
	if (g == NULL)
		return -1;
	for (size_t k = 0; k < ng; k++) {
		cnt[g[k].cls] += g[k].n;
		v->of += g[k].n;
	}
	decide(cnt, v);
	for (size_t k = 0; k < ng; k++)
		rec += g[k].cls == v->kind && g[k].recorder ? g[k].n : 0;
	v->recorder = v->samples > 0 && 2 * rec > v->samples;
	v->unsampled = v->of == 0 && d9m_sched_off(m, m->polls.start[p],
	    m->polls.end[p]);
	/* the reason and the frame most of the winning class's samples
	 * have (few groups: a quadratic count is fine) */
	for (size_t k = 0; v->kind != D9M_V_UNKNOWN && k < ng; k++) {
		size_t why = 0, where = 0;

		if (g[k].cls != v->kind)
			continue;
		for (size_t j = 0; j < ng; j++) {
			if (g[j].cls != v->kind)
				continue;
			why += g[j].why == g[k].why ? g[j].n : 0;
			where += strcmp(g[j].where, g[k].where) == 0 ? g[j].n : 0;
		}
		if (g[k].why != NULL && why > best) {
			best = why;
			v->why = g[k].why;
		}
		if (g[k].where[0] && (where > v->where_n || (where ==
		    v->where_n && strcmp(g[k].where, v->where) < 0))) {
			v->where_n = where;
			snprintf(v->where, sizeof v->where, "%s", g[k].where);
		}
	}
	free(g);
	if (absent(m, p, cnt, v)) {
		v->off_kind = v->kind;
		v->of -= cnt[D9M_V_UNKNOWN];
		v->kind = D9M_V_OFF_CPU;
		v->samples = 0;
		v->where[0] = '\0';
		v->where_n = 0;
		v->confidence = confidence_of(v->expected);
	} else
		v->confidence = confidence_of((double)v->of);
	return 0;
}

void
d9m_verdict_text(const struct d9m_verdict *v, char *out, size_t cap)
{
	static const char *const doing[D9M_V_COUNT] = {
		"on CPU", "preempted by the kernel (CPU contention)",
		"waiting in", "sleeping in", "waiting for I/O in", "in a",
		"off CPU", "", "" };
	int n;

	if (v->kind == D9M_V_OFF_CPU) {
		n = snprintf(out, cap, "off-cpu: no on-CPU sample where about "
		    "%.1f were due at the trace's rate", v->expected);
		if (n > 0 && (size_t)n < cap && v->off_kind != D9M_V_UNKNOWN)
			n += snprintf(out + n, cap - (size_t)n, "; %zu off-CPU "
			    "sample%s: %s", v->of, v->of == 1 ? "" : "s",
			    class_names[v->off_kind]);
		if (n > 0 && (size_t)n < cap && v->confidence == D9M_CONF_LOW)
			snprintf(out + n, cap - (size_t)n, " (a hint, not a "
			    "finding)");
		return;
	}
	if (v->kind == D9M_V_UNKNOWN || v->of == 0) {
		snprintf(out, cap, "unknown: no CPU samples in this poll%s",
		    v->unsampled ? ", and context switches were not sampled "
		    "then" : "");
		return;
	}
	n = snprintf(out, cap, "%s: %zu of %zu sample%s %s", class_names[v->kind],
	    v->samples, v->of, v->of == 1 ? "" : "s", doing[v->kind]);
	if (n > 0 && (size_t)n < cap && v->why != NULL &&
	    v->kind != D9M_V_PREEMPTED && v->kind != D9M_V_CPU)
		n += snprintf(out + n, cap - (size_t)n, " %s", v->why);
	if (n > 0 && (size_t)n < cap && v->where[0])
		n += snprintf(out + n, cap - (size_t)n, ", %s %s", v->kind ==
		    D9M_V_CPU ? "hottest in" : "under", v->where);
	if (n > 0 && (size_t)n < cap && v->recorder)
		n += snprintf(out + n, cap - (size_t)n, ", in the recorder's "
		    "own frames");
	if (n > 0 && (size_t)n < cap && v->confidence == D9M_CONF_LOW)
		snprintf(out + n, cap - (size_t)n, " (only %zu sample%s: a "
		    "hint, not a finding)", v->of, v->of == 1 ? "" : "s");
}

int
d9m_poll_top_stack(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t p, struct d9m_top_stack *t)
{
	struct d9m_stack_group *g = NULL;
	struct d9m_frame *f = d9m_frames_alloc();
	uint32_t *rows = NULL;
	size_t n = 0, ng = 0, nf;
	int rc;

	memset(t, 0, sizeof *t);
	rc = f == NULL ? -1 : d9m_poll_samples(m, p, D9M_OTHER_CPU, &rows, &n);
	if (rc == 0 && n > 0)
		rc = d9m_group_stacks(m, r, rows, n, &g, &ng);
	free(rows);
	if (rc == 0 && ng > 0 && (nf = d9m_stack_frames(m, r, g[0].seg,
	    g[0].stack, f, D9_STACK_MAX)) > 0) {
		t->count = g[0].count;
		t->of = n;
		snprintf(t->leaf, sizeof t->leaf, "%s", d9m_frame_name(&f[0]));
		for (size_t k = 1; k < nf; k++)
			if (d9m_frame_kind(&f[k]) == D9M_FK_APP) {
				snprintf(t->app, sizeof t->app, "%s",
				    d9m_frame_name(&f[k]));
				break;
			}
	}
	free(g);
	free(f);
	return rc;
}
