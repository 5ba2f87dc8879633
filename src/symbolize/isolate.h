/*
 * isolate.h: run code that reads untrusted input in a child process and
 * take back only the bytes it produces. The child is forked, runs fn,
 * writes a small header and fn's buffer (or fn's error) into a pipe and
 * leaves with _exit(); the parent reads the pipe until the time limit.
 * Whatever goes wrong in the child (a signal, abort(), a hang, running
 * out of the memory it was given) ends the child, never the caller.
 *
 * In the child, fatal signals are reset to their defaults (the caller's
 * handlers, e.g. the browser's terminal restore, must not run there) and
 * unblocked, but SIGINT, SIGTERM and SIGHUP where the caller blocks them
 * (it stops at a step's end, and wants this step's answer),
 * core dumps are off and, unless built with a sanitizer (whose shadow
 * memory needs the address space), the address space is limited to what
 * the process uses plus mem_budget bytes.
 */
#ifndef D9S_ISOLATE_H
#define D9S_ISOLATE_H

#include <stddef.h>

#include "base/err.h"

/*
 * Run fn(arg, &buf, &len, e) in a child. On success *buf is a malloc'd
 * copy of the child's buffer (len bytes, at most mem_budget when that is
 * not 0). Returns 0; or fn's own error (-code, e->msg from the child;
 * D9_ERR_IO and D9_ERR_NOMEM from the child come back as
 * -D9_ERR_BAD_VALUE and as a lost child); or, when the child was lost
 * (killed, ran out of time or memory, exited without a complete
 * answer), -D9_ERR_IO with e->msg saying how.
 */
int	d9s_isolate(int (*fn)(void *arg, void **buf, size_t *len,
	    struct d9_err *e), void *arg, unsigned timeout_ms,
	    size_t mem_budget, void **buf, size_t *len, struct d9_err *e);

#endif
