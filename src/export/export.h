/*
 * export.h: d9top --export parquet OUTDIR PATH... (FLEET.md): every
 * input read as its events stream in, one segment's model at a time
 * (split.h), and each of its sources (ANALYSIS 23) folded into its
 * leaves (fold.h). Inputs are exported by workers at once (one per
 * core, D9X_WORKERS at most), each reading and folding inputs of its
 * own; with one worker, or one input to read (stdin), the reading runs
 * ahead on other threads instead (loader.h). Memory: a segment's model
 * per worker (or per reading thread, and the one being folded), one row
 * group per table being filled. The leaves are the same, byte for byte,
 * whatever the number of workers. A source's key
 * is a hash of its segment's identity (parse/segid.h: the boot and the
 * segment's first batch, the same from a file of its own, a file of
 * many or stdin; where its first bytes name none, damaged, the boot,
 * first clock sync and first event time of what it held) and its group,
 * so the same segment exported again, whichever way it comes, writes
 * nothing and a directory that gained segments writes the new
 * ones only: a file whose first source's `segments` leaf is in place
 * was exported whole (that leaf is renamed into place last, once every
 * segment of the file is) and is not even read.
 * Of the files holding the same segment, the one with the most decoded
 * bytes is read; a segment still being written (.active) is left for
 * when it is sealed.
 */
#ifndef D9X_EXPORT_H
#define D9X_EXPORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "export/tables.h"
#include "model/core/frames.h"

#define D9X_WORKERS	2

struct d9x_progress {
	size_t		 inputs;	/* to look at */
	size_t		 done;		/* looked at so far */
	size_t		 exported;	/* inputs written */
	size_t		 present;	/* inputs already exported */
	size_t		 active;	/* .active files left for later */
	size_t		 copies;	/* files holding a segment read once */
	size_t		 failed;	/* inputs that gave no events */
	size_t		 cut;		/* inputs that ended cut: exported
					 * again at the next run (redo.h) */
	uint64_t	 files, bytes, rows;	/* written */
	uint64_t	 table_bytes[D9X_T_COUNT], table_rows[D9X_T_COUNT];
	uint64_t	 in_bytes;	/* of the inputs read */
	const char	*current;	/* the input just done */
};

struct d9x_opts {
	const char		 *outdir;
	const char *const	 *paths;
	size_t			  npaths;
	const struct d9m_resolver *resolver;	/* names beyond the trace's */
	/* or, when set, a resolver of its own for each segment's model
	 * (one resolver serves one model: symbolize/resolver.h), freed
	 * once the segment is written; NULL from it: no names beyond */
	struct d9m_resolver	*(*resolver_new)(void *ctx);
	void			(*resolver_free)(void *ctx,
				    struct d9m_resolver *r);
	/* messages about input (skipped, damaged): msg is only valid
	 * during the call */
	void			(*note)(void *ctx, const char *msg);
	/* after each input */
	void			(*progress)(void *ctx,
				    const struct d9x_progress *p);
	void			 *ctx;
	int			  stream_only;	/* every input streams */
	/* inputs exported at once (each by a worker of its own, its model
	 * and leaves: D9X_WORKERS at most, the output the same whatever
	 * their number); 0: one per core */
	unsigned		  workers;
	/* optional: once set, the export stops at the next segment (and a
	 * wait for OUTDIR's lock ends), dropping the held leaf of the input
	 * it was in: what is in place is what a run that never began that
	 * input would leave, and the next run goes on from there */
	const _Atomic int	 *cancel;
};

/* 0: done (p says what), -1: a leaf could not be written (err says
 * why, with the path; what was in place stays), or o->cancel was set
 * (err: "interrupted"). */
int	d9x_export(const struct d9x_opts *o, struct d9x_progress *p,
	    char *err, size_t errlen);

#endif
