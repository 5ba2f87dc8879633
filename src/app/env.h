/*
 * env.h: the environment variables that change what d9top does, read
 * here in src/app only and handed down as options (the libraries read
 * none; where.h reads the index's own: XDG_CACHE_HOME, HOME,
 * D9TOP_CACHE_MAX). libd9rec's D9REC_SYMBOLS is the recorder library's
 * documented interface and stays in src/rec/writer.c.
 */
#ifndef D9A_ENV_H
#define D9A_ENV_H

struct d9a_env {
	int	 stream_only;	/* D9TOP_STREAM=1: every input streams
				 * (parse/reader.h, d9p_read_opts) */
	int	 no_color;	/* NO_COLOR set and not empty */
	unsigned export_workers; /* D9TOP_EXPORT_WORKERS=1|2: inputs
				 * --export reads at once; 0: default */
	unsigned progress_ms;	/* D9TOP_PROGRESS_MS: a read's progress
				 * on a terminal from then on (meter.h) */
	int	 times;		/* D9TOP_TIMES=1: where a run's time went,
				 * on stderr at its end (meter.h) */
	const char *term;	/* TERM, or NULL: for why the browser
				 * finds no terminal */
};

void	d9a_env_read(struct d9a_env *e);

#endif
