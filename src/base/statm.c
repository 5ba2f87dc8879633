/* statm.c: see statm.h. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/io.h"
#include "base/statm.h"

/* The first cap - 1 bytes of a small file (/proc, /sys), NUL-ended; 0,
 * or -1 when it cannot be read. */
static int
slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : d9_read_full(fd, buf, cap - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? 0 : -1;
}

size_t
d9_statm(enum d9_statm_field f)
{
	char buf[128];
	unsigned long long v[3];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	if (slurp("/proc/self/statm", buf, sizeof buf) < 0 ||
	    (unsigned)f > D9_STATM_SHARED ||
	    sscanf(buf, "%llu %llu %llu", &v[0], &v[1], &v[2]) != 3 ||
	    v[f] > SIZE_MAX / pg)
		return 0;
	return (size_t)v[f] * pg;
}

/* A decimal number at s (leading blanks skipped), UINT64_MAX when none
 * or too big. */
static uint64_t
number(const char *s)
{
	char *end;
	unsigned long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return UINT64_MAX;
	v = strtoull(s, &end, 10);
	return v >= UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* The number after key at the start of a line of text, UINT64_MAX when
 * there is none. */
static uint64_t
keyed(const char *text, const char *key)
{
	size_t k = strlen(key);
	const char *p = text;

	while (p != NULL && strncmp(p, key, k) != 0)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	return p == NULL ? UINT64_MAX : number(p + k);
}

uint64_t
d9_avail_meminfo(const char *text)
{
	uint64_t kb = keyed(text, "MemAvailable:");

	return kb == UINT64_MAX || kb > UINT64_MAX / 1024 ? UINT64_MAX :
	    kb * 1024;
}

uint64_t
d9_avail_cgroup(const char *max, const char *current, const char *stat)
{
	uint64_t lim = number(max), used = number(current);
	uint64_t act = keyed(stat, "active_file "), inact = keyed(stat,
	    "inactive_file "), cache = 0;

	if (lim == UINT64_MAX)
		return UINT64_MAX;	/* "max", or unreadable */
	if (used == UINT64_MAX)
		used = 0;
	/* the page cache it holds (the traces' own, read a moment ago)
	 * gives way before the limit bites */
	cache = act != UINT64_MAX ? act : 0;
	if (inact != UINT64_MAX)
		cache = cache + inact < cache ? UINT64_MAX : cache + inact;
	used = cache < used ? used - cache : 0;
	return used < lim ? lim - used : 0;
}

/* The room of a cgroup of this process: dir below root, whose limit
 * and use are in the files named max and cur (memory.stat beside). */
static uint64_t
room(const char *root, const char *dir, const char *max, const char *cur)
{
	char path[700], m[64], c[64], st[8192];

	if (strstr(dir, "..") != NULL)
		return UINT64_MAX;	/* no climbing out of root */
	snprintf(path, sizeof path, "%s%s/%s", root, dir, max);
	if (slurp(path, m, sizeof m) < 0)
		return UINT64_MAX;
	snprintf(path, sizeof path, "%s%s/%s", root, dir, cur);
	if (slurp(path, c, sizeof c) < 0)
		c[0] = '\0';
	snprintf(path, sizeof path, "%s%s/memory.stat", root, dir);
	if (slurp(path, st, sizeof st) < 0)
		st[0] = '\0';
	return d9_avail_cgroup(m, c, st);
}

/* The room of this process's cgroup: v2 (the "0::" line), or v1's
 * memory controller ("N:memory:" or a list holding it). */
static uint64_t
cgroup(void)
{
	char text[2048], dir[512];
	uint64_t v = UINT64_MAX, r;

	if (slurp("/proc/self/cgroup", text, sizeof text) < 0)
		return UINT64_MAX;
	for (char *l = text, *next; l != NULL && *l != '\0'; l = next) {
		char *ctl = strchr(l, ':'), *p;
		size_t n;

		if ((next = strchr(l, '\n')) != NULL)
			*next++ = '\0';
		if (ctl == NULL || (p = strchr(ctl + 1, ':')) == NULL ||
		    (n = strlen(p + 1)) >= sizeof dir || p[1] != '/')
			continue;
		memcpy(dir, p + 1, n + 1);
		*p = *ctl = '\0';	/* l: the id, ctl + 1: controllers */
		if (strcmp(l, "0") == 0 && ctl[1] == '\0')
			r = room("/sys/fs/cgroup", dir, "memory.max",
			    "memory.current");
		else if (strstr(ctl + 1, "memory") != NULL)
			r = room("/sys/fs/cgroup/memory", dir,
			    "memory.limit_in_bytes", "memory.usage_in_bytes");
		else
			continue;
		v = r < v ? r : v;
	}
	return v;
}

/* What a resource limit on address space leaves, in resident bytes: a
 * third of its room, for what a read maps is more than it holds
 * (reserved columns, thread stacks and arenas: 1.5 to 2 GB mapped for
 * the 0.75 GB that 58 segments hold). */
static uint64_t
rlimit(int which, uint64_t used)
{
	struct rlimit r;

	if (getrlimit(which, &r) < 0 || r.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	return (uint64_t)r.rlim_cur > used ? ((uint64_t)r.rlim_cur - used) / 3 :
	    0;
}

static uint64_t
least(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t
d9_avail(void)
{
	char info[4096];
	uint64_t used = d9_statm(D9_STATM_SIZE);
	uint64_t v = slurp("/proc/meminfo", info, sizeof info) == 0 ?
	    d9_avail_meminfo(info) : UINT64_MAX;

	v = least(v, cgroup());
	v = least(v, rlimit(RLIMIT_AS, used));
	return least(v, rlimit(RLIMIT_DATA, used));
}
