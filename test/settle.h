/*
 * settle.h: waiting for d9top's detached index writers. A headless d9top
 * run leaves the writing of its index entry to a detached process that
 * holds <roots>.lock in the cache's d9top directory until the entry is in
 * place; a test or a benchmark that looks at the cache, or removes it,
 * waits for those locks first, as d9top itself does. No Check here: the
 * benchmarks use it too.
 */
#ifndef D9_TEST_SETTLE_H
#define D9_TEST_SETTLE_H

/* Wait until no writer holds a lock in idx (a cache's d9top directory);
 * nothing to wait for when idx does not exist. */
void	settle_index(const char *idx);

#endif
