/*
 * statm.h: the process's memory, in bytes. What it uses, as
 * /proc/self/statm counts it: the one reader of that file (a child's
 * address-space limit in symbolize/isolate.c, how much of a mapped index
 * the process holds in store/image.c). And how much more it can take
 * before the machine pushes back (its OOM killer, the cgroup's limit, a
 * ulimit): a read of more traces than that would end killed, or get
 * another process killed (on a production host, maybe the service being
 * debugged), so the reader reads what fits instead (parse/fit.h).
 */
#ifndef D9_STATM_H
#define D9_STATM_H

#include <stddef.h>
#include <stdint.h>

enum d9_statm_field {
	D9_STATM_SIZE,		/* the address space in use */
	D9_STATM_RESIDENT,	/* resident pages */
	D9_STATM_SHARED		/* resident pages backed by files */
};

/* The field's bytes now; 0 when it cannot be read (no /proc). */
size_t	d9_statm(enum d9_statm_field f);

/*
 * The bytes the process may still take: the least of the kernel's
 * MemAvailable (/proc/meminfo); the room its cgroup leaves (v2:
 * memory.max less memory.current; v1: the memory controller's
 * limit_in_bytes less usage_in_bytes; the page cache it holds, which
 * memory.stat counts, gives way and counts as room); a third of what
 * RLIMIT_AS and RLIMIT_DATA leave of the address space in use (a read
 * maps two to three times what it holds). Files that cannot be read do
 * not count; UINT64_MAX when nothing says.
 */
uint64_t d9_avail(void);

/* The parts, for tests: MemAvailable of a /proc/meminfo text (kB there),
 * and a cgroup's room from its limit, use and memory.stat texts ("max":
 * none); UINT64_MAX when the text does not say. */
uint64_t d9_avail_meminfo(const char *text);
uint64_t d9_avail_cgroup(const char *max, const char *current,
	    const char *stat);

#endif
