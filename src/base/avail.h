/*
 * avail.h: how much more memory this process can take before the machine
 * pushes back (its OOM killer, the cgroup's limit, a ulimit). A read of
 * more traces than that would end killed, or get another process killed
 * (on a production host, maybe the service being debugged); the reader
 * reads what fits instead (parse/fit.h).
 *
 * The least of: the kernel's MemAvailable (/proc/meminfo); the cgroup v2
 * limit less its use (memory.max, memory.current of the cgroup that
 * /proc/self/cgroup names); RLIMIT_AS and RLIMIT_DATA less the address
 * space in use. Files that cannot be read do not count.
 */
#ifndef D9_AVAIL_H
#define D9_AVAIL_H

#include <stdint.h>

/* Bytes; UINT64_MAX when nothing says. */
uint64_t d9_avail(void);

/* The parts, for tests: MemAvailable of a /proc/meminfo text (kB there),
 * and a cgroup's room from its memory.max and memory.current texts
 * ("max": none); UINT64_MAX when the text does not say. */
uint64_t d9_avail_meminfo(const char *text);
uint64_t d9_avail_cgroup(const char *max, const char *current);

#endif
