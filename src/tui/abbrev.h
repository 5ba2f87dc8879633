/*
 * abbrev.h: a symbol (a Rust or C++ path) shortened to fit a row, the
 * way logback shortens Java package names: the module names of its
 * paths (lowercase names followed by "::") become their first letter,
 * from the left, until it fits. Types, functions and closures stay
 * whole, so that
 *
 *	tokio::runtime::scheduler::multi_thread::worker::Context::run_task
 *	<alloc::sync::Arc<T,A> as core::ops::deref::Deref>::deref
 *
 * fit 40 and 46 columns as
 *
 *	t::r::s::m::worker::Context::run_task
 *	<a::s::Arc<T,A> as c::o::deref::Deref>::deref
 *
 * where cutting the end (the function) or the start (the type of a
 * trait impl) would drop what tells frames apart.
 */
#ifndef D9T_ABBREV_H
#define D9T_ABBREV_H

#include <stddef.h>

/* s (UTF-8) with as few module names shortened as make it at most cols
 * columns, into out (cap bytes, NUL-terminated; s whole when it fits or
 * has nothing to shorten); its columns. */
size_t	d9t_abbrev(const char *s, size_t cols, char *out, size_t cap);

#endif
