/*
 * meter.h: the progress of a long read on stderr, for the modes that
 * print an answer at the end (--json, --report, --check, --diff,
 * --chrome). On a terminal only, and only once the read has taken
 * D9A_METER_DELAY_MS (a warm open or a small trace stays silent), one
 * line is redrawn in place at most every D9A_METER_EVERY_MS (zstd's
 * progress line): the share of the input bytes read, the events so far,
 * then the finishing of the model and its analysis. The line is wiped
 * before a message and before the answer, so neither lands after it.
 */
#ifndef D9A_METER_H
#define D9A_METER_H

#include <pthread.h>
#include <stdio.h>

#include "parse/reader.h"
#include "store/files.h"

#define D9A_METER_DELAY_MS	500
#define D9A_METER_EVERY_MS	200

struct d9a_meter {
	struct d9p_progress	 prog;	/* for the read (store.h d9i_opts) */
	FILE			*f;	/* stderr */
	int			 on;
	double			 t0, next;	/* s, CLOCK_MONOTONIC */
	unsigned		 delay_ms;
	size_t			 shown;	/* bytes of the line on screen */
	pthread_mutex_t		 mu;	/* notes and ticks may race */
	/* D9TOP_TIMES: when the read ended (0: none, the index's entry
	 * was mapped), the analysis started, the answer started */
	int			 times;
	double			 t_read, t_an, t_end;
};

/* A meter on f when on (else it prints nothing), its first line after
 * delay_ms; with times, d9a_meter_free says where the time went. */
void	d9a_meter_init(struct d9a_meter *mt, FILE *f, int on,
	    unsigned delay_ms, int times);
/* For d9i_opts.read_done: the read is over, finishing the model starts. */
void	d9a_meter_read_done(void *mt);
/* For d9i_opts.note: a message about input on f ("d9top: ...",
 * escaped), the line wiped first. */
void	d9a_meter_note(void *mt, const char *msg);
/* For d9i_opts.changed: on a terminal, why everything is read again
 * (a directory that gained a segment since the index's entry of it). */
void	d9a_meter_changed(void *mt, const struct d9i_prior *p);
/* The model is read and finished: its analysis of events starts. */
void	d9a_meter_analysing(struct d9a_meter *mt);
/* Wiped, and no more lines (messages still go to f): the answer
 * starts. */
void	d9a_meter_end(struct d9a_meter *mt);
/* For an answer written to a file or a pipe (d9a_tally): "d9top:
 * writing 1.2 GB of what", once the answer has taken the delay, when the
 * read's progress was shown; d9a_meter_end wipes it. */
void	d9a_meter_written(struct d9a_meter *mt, uint64_t bytes,
	    const char *what);
/* With times: "d9top: times: read 2.316 s, finish 0.702 s, analysis
 * 0.199 s, answer 0.012 s" (an entry mapped: "index entry 0.031 s" for
 * the first two); stages that did not run are left out. */
void	d9a_meter_free(struct d9a_meter *mt);

#endif
