/*
 * hide.h: the frames a flame tree leaves out (the browser's H): runtime
 * and telemetry plumbing between the application's frames. A pattern is
 * prefixes separated by '|': a frame is hidden when its name (a leading
 * '<' aside, so "<core::..." is core's) starts with one of them;
 * "@recorder" stands for the recorder's own frames (observer.h). Hidden
 * frames are taken out of each stack before a tree is built: their
 * callees join their caller, so every weight stays whole.
 */
#ifndef D9M_HIDE_H
#define D9M_HIDE_H

#include <stddef.h>

#include "model/core/frames.h"

#define D9M_HIDE_MAX	128	/* a pattern's bytes, its NUL included */
/* tokio's runtime, std/core/alloc, futures combinators, tracing, dial9's
 * wrappers and the recorder, and frames no symbol names (thread start) */
#define D9M_HIDE_DEFAULT "tokio::runtime|tokio::task|tokio::loom|std::|" \
	"core::|alloc::|futures|tracing|dial9|@recorder|0x"

/* How many of the n frames from f[0] on, in a row, are plumbing: what
 * the default pattern hides, or the kernel's, libc's, an allocator's or
 * the runtime's (framekind.h). A poll's stack folds these runs and keeps
 * the application's frames in sight. */
size_t	d9m_plumbing_run(const struct d9m_frame *f, size_t n);
/* Whether pattern hides a frame named name ("" hides nothing). */
int	d9m_hide_match(const char *pattern, const char *name);
/* The n frames fr without those pattern hides, kept in order at the
 * front of fr; returns how many are left. */
size_t	d9m_hide_frames(const char *pattern, struct d9m_frame *fr, size_t n);

#endif
