/* measure.c: see measure.h. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "measure.h"
#include "../../test/settle.h"

double
d9b_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child: stdin from /dev/null, stdout to fd, stderr to err
 * (unless NULL), then exec. */
static void
child(char *const argv[], char *const env[], int fd, const char *err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC), e = -1;

	if (err != NULL && ((e = open(err, O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) < 0 || dup2(e, 2) < 0))
		_exit(127);
	if (null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0)
		_exit(127);
	for (size_t i = 0; env != NULL && env[i] != NULL; i++)
		putenv(env[i]);
	execvp(argv[0], argv);
	_exit(127);
}

int
d9b_run(char *const argv[], char *const env[], const char *out,
    const char *err, struct d9b_run *r)
{
	struct rusage ru;
	double t0;
	pid_t pid;
	int fd, st;

	r->status = -1;
	r->wall = r->cpu = r->rss_mib = 0;
	fd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) :
	    open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	t0 = d9b_now();
	if ((pid = fork()) == 0)
		child(argv, env, fd, err);
	close(fd);
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0)
		return -1;
	r->wall = d9b_now() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec /
	    1e6 + (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec /
	    1e6;
	r->rss_mib = (double)ru.ru_maxrss / 1024;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return r->status;
}

int
d9b_capture(char *const argv[], char *buf, size_t cap)
{
	int fd[2], st;
	size_t n = 0;
	ssize_t k;
	pid_t pid;

	if (cap == 0 || pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	if ((pid = fork()) == 0)
		child(argv, NULL, fd[1], NULL);
	close(fd[1]);
	while (n < cap - 1 && (k = read(fd[0], buf + n, cap - 1 - n)) > 0)
		n += (size_t)k;
	buf[n] = '\0';
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

double
d9b_settle(const char *cache)
{
	char idx[PATH_MAX];
	double t0 = d9b_now();

	snprintf(idx, sizeof idx, "%s/d9top", cache);
	settle_index(idx);
	return d9b_now() - t0;
}

uint64_t
d9b_gunzip_bytes(const char *path)
{
	gzFile g = gzopen(path, "rb");
	static const unsigned chunk = 1u << 16;
	char *buf = malloc(chunk);
	uint64_t n = 0;
	int r;

	while (g != NULL && buf != NULL && (r = gzread(g, buf, chunk)) > 0)
		n += (uint64_t)r;
	if (g != NULL)
		gzclose(g);
	free(buf);
	return n;
}

int
d9b_gzip_baseline(const char *dir, struct d9b_run *best)
{
	char *argv[] = { "sh", "-c", "cat \"$1\"/* | gzip -dc", "sh",
	    (char *)dir, NULL };
	struct d9b_run r;

	if (d9b_run(argv, NULL, NULL, NULL, &r) != 0)	/* page cache */
		return -1;
	for (int i = 0; i < 3; i++) {
		if (d9b_run(argv, NULL, NULL, NULL, &r) != 0)
			return -1;
		if (i == 0 || r.wall < best->wall)
			*best = r;
	}
	return 0;
}
