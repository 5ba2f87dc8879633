/* meter.c: see meter.h. */
#include <stdint.h>
#include <string.h>

#include "app/meter.h"
#include "base/clock.h"
#include "base/text.h"
#include "base/units.h"

/* Under mu: the line on screen goes (overwritten with blanks). */
static void
wipe(struct d9a_meter *mt)
{
	if (mt->shown == 0)
		return;
	fprintf(mt->f, "\r%*s\r", (int)mt->shown, "");
	fflush(mt->f);
	mt->shown = 0;
}

/* Under mu: line in place of the one on screen. */
static void
show(struct d9a_meter *mt, const char *line)
{
	size_t n = strlen(line);

	/* blanks over what a longer line before left */
	fprintf(mt->f, "\r%s%*s", line, mt->shown > n ? (int)(mt->shown -
	    n) : 0, "");
	if (mt->shown > n)
		fprintf(mt->f, "\r%s", line);
	fflush(mt->f);
	mt->shown = n;
}

/* Under mu: whether a line is due now (the delay passed, the last one
 * is old enough); when it is, the next one is due later. */
static int
due(struct d9a_meter *mt)
{
	double t = d9_mono_s();

	if (!mt->on || t < mt->next)
		return 0;
	mt->next = t + D9A_METER_EVERY_MS / 1e3;
	return 1;
}

/* The events read so far: "12.3 M events" (or k, or none). */
static void
events_text(char *buf, size_t size, uint64_t ev)
{
	if (ev >= 1000000)
		snprintf(buf, size, "%.1f M events", (double)ev / 1e6);
	else
		snprintf(buf, size, "%llu events", (unsigned long long)ev);
}

static void
tick(void *arg)
{
	struct d9a_meter *mt = arg;
	uint64_t in = atomic_load(&mt->prog.bytes_in);
	uint64_t total = atomic_load(&mt->prog.bytes_total);
	char line[160], ev[48];

	pthread_mutex_lock(&mt->mu);
	if (due(mt)) {
		events_text(ev, sizeof ev, atomic_load(&mt->prog.events));
		if (total > 0 && in <= total)
			snprintf(line, sizeof line, "d9top: reading %.0f%% of "
			    "%.1f MB, %s", 100.0 * (double)in / (double)total,
			    (double)total / 1e6, ev);
		else
			snprintf(line, sizeof line, "d9top: reading %.1f MB, %s",
			    (double)in / 1e6, ev);
		show(mt, line);
	}
	pthread_mutex_unlock(&mt->mu);
}

void
d9a_meter_init(struct d9a_meter *mt, FILE *f, int on, unsigned delay_ms,
    int times)
{
	memset(mt, 0, sizeof *mt);
	mt->f = f;
	mt->on = on;
	mt->times = times;
	mt->t0 = d9_mono_s();
	mt->next = mt->t0 + delay_ms / 1e3;
	mt->delay_ms = delay_ms;
	pthread_mutex_init(&mt->mu, NULL);
	if (on) {
		mt->prog.tick = tick;
		mt->prog.tick_ctx = mt;
	}
}

/* A phase that starts: "d9top: <what>", from the delay on, whenever the
 * last line was (a phase may take seconds). */
static void
phase(struct d9a_meter *mt, const char *what)
{
	char line[128];

	pthread_mutex_lock(&mt->mu);
	if (mt->on && d9_mono_s() >= mt->t0 + mt->delay_ms / 1e3) {
		snprintf(line, sizeof line, "d9top: %s", what);
		show(mt, line);
	}
	pthread_mutex_unlock(&mt->mu);
}

void
d9a_meter_read_done(void *arg)
{
	struct d9a_meter *mt = arg;
	char what[96], ev[48];

	mt->t_read = d9_mono_s();	/* this thread's, before finishing */
	/* finishing takes a fifth of a cold read */
	events_text(ev, sizeof ev, atomic_load(&mt->prog.events));
	snprintf(what, sizeof what, "read %s, finishing", ev);
	phase(mt, what);
}

void
d9a_meter_analysing(struct d9a_meter *mt)
{
	mt->t_an = d9_mono_s();
	phase(mt, "analysing");
}

void
d9a_meter_note(void *arg, const char *msg)
{
	struct d9a_meter *mt = arg;

	pthread_mutex_lock(&mt->mu);
	wipe(mt);
	d9_text_put_line(mt->f, "d9top: ", msg);
	/* the next tick draws the line again below the message */
	pthread_mutex_unlock(&mt->mu);
}

void
d9a_meter_changed(void *arg, const struct d9i_prior *p)
{
	struct d9a_meter *mt = arg;
	char how[160], msg[192];

	if (!mt->on)
		return;		/* scripts' stderr stays as it was */
	d9i_prior_say(p, how, sizeof how);
	snprintf(msg, sizeof msg, "%s: all are read again", how);
	d9a_meter_note(mt, msg);
}

void
d9a_meter_end(struct d9a_meter *mt)
{
	pthread_mutex_lock(&mt->mu);
	wipe(mt);
	mt->on = 0;
	if (mt->t_end == 0) {
		mt->t_end = d9_mono_s();
		/* a line of the answer's writing: once it took the delay */
		mt->next = mt->t_end + mt->delay_ms / 1e3;
	}
	pthread_mutex_unlock(&mt->mu);
}

void
d9a_meter_written(struct d9a_meter *mt, uint64_t bytes, const char *what)
{
	char line[128], size[32];
	double t = d9_mono_s();

	pthread_mutex_lock(&mt->mu);
	/* the read's progress was shown (its tick set), the answer began
	 * and its first line is due (d9a_meter_end) */
	if (mt->prog.tick != NULL && mt->t_end != 0 && t >= mt->next) {
		mt->next = t + D9A_METER_EVERY_MS / 1e3;
		snprintf(line, sizeof line, "d9top: writing %s of %s",
		    d9_fmt_bytes(size, sizeof size, (double)bytes), what);
		show(mt, line);
	}
	pthread_mutex_unlock(&mt->mu);
}

/* ", name x.xxx s" of the stage [a, b) to line (at *n), when both ends
 * are known. */
static void
stage(char *line, size_t size, size_t *n, const char *name, double a,
    double b)
{
	int k;

	if (a == 0 || b == 0 || *n >= size)
		return;
	k = snprintf(line + *n, size - *n, "%s%s %.3f s", *n > 0 ? ", " :
	    "", name, b - a);
	*n += k > 0 ? (size_t)k : 0;
}

void
d9a_meter_free(struct d9a_meter *mt)
{
	char line[192];
	size_t n = 0;

	d9a_meter_end(mt);
	if (mt->times) {
		if (mt->t_read != 0) {
			stage(line, sizeof line, &n, "read", mt->t0,
			    mt->t_read);
			stage(line, sizeof line, &n, "finish", mt->t_read,
			    mt->t_an);
		} else
			stage(line, sizeof line, &n, "index entry", mt->t0,
			    mt->t_an);
		stage(line, sizeof line, &n, "analysis", mt->t_an,
		    mt->t_end);
		stage(line, sizeof line, &n, "answer", mt->t_end,
		    d9_mono_s());
		if (n > 0)
			fprintf(mt->f, "d9top: times: %s\n", line);
	}
	pthread_mutex_destroy(&mt->mu);
}
