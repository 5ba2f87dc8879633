/*
 * isolate.c: the child process of isolate.h. The pipe carries one
 * answer: a header (magic, fn's result code, payload length) and the
 * payload, fn's buffer or, on error, fn's message. The parent trusts
 * nothing of it but its length: the caller checks the buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/io.h"
#include "base/statm.h"
#include "symbolize/isolate.h"

#define ISO_MAGIC	0x6f733964u	/* "d9so" */
#define ISO_MAX_OUT	((size_t)1 << 36)

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ISO_SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define ISO_SANITIZED	1
#endif
#endif

struct iso_head {
	uint32_t	magic;
	int32_t		code;		/* 0, or fn's D9_ERR_* */
	uint64_t	len;		/* payload bytes */
};

static const int iso_fatal[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU,
	SIGXFSZ, SIGQUIT, SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2,
};

static void
child_setup(size_t mem_budget)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP };
	struct rlimit rl = { 0, 0 };
	sigset_t was, keep;

	for (size_t i = 0; i < sizeof iso_fatal / sizeof iso_fatal[0]; i++)
		signal(iso_fatal[i], SIG_DFL);
	/* the signals that stop the user's work stay blocked where the
	 * caller blocks them to stop at a step's end (an export: app/
	 * interrupt.h): the answer of the step under way is still wanted */
	sigprocmask(SIG_SETMASK, NULL, &was);
	sigemptyset(&keep);
	for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
		if (sigismember(&was, stop[i]) == 1)
			sigaddset(&keep, stop[i]);
	sigprocmask(SIG_SETMASK, &keep, NULL);
	setrlimit(RLIMIT_CORE, &rl);
#ifndef ISO_SANITIZED
	if (mem_budget > 0) {
		size_t now = d9_statm(D9_STATM_SIZE);

		if (now > 0 && mem_budget <= SIZE_MAX - now) {
			rl.rlim_cur = rl.rlim_max = now + mem_budget;
			setrlimit(RLIMIT_AS, &rl);
		}
	}
#else
	(void)mem_budget;
#endif
}

static void
child(int fd, int (*fn)(void *, void **, size_t *, struct d9_err *),
    void *arg, size_t mem_budget)
{
	struct iso_head h = { ISO_MAGIC, 0, 0 };
	struct d9_err e;
	void *buf = NULL;
	size_t len = 0;
	int rc;

	child_setup(mem_budget);
	memset(&e, 0, sizeof e);
	rc = fn(arg, &buf, &len, &e);
	if (rc != 0) {
		h.code = e.code != 0 ? e.code : D9_ERR_BAD_VALUE;
		e.msg[sizeof e.msg - 1] = '\0';
		h.len = strlen(e.msg);
		buf = e.msg;
	} else
		h.len = len;
	if (d9_write_all(fd, &h, sizeof h) != 0 ||
	    d9_write_all(fd, buf, (size_t)h.len) != 0)
		_exit(1);
	_exit(0);
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read exactly n bytes before the deadline: 0, -1 (EOF or error) or -2
 * (time is up). */
static int
read_until(int fd, void *p, size_t n, long long deadline)
{
	char *c = p;

	while (n > 0) {
		struct pollfd pf = { fd, POLLIN, 0 };
		long long left = deadline - now_ms();
		ssize_t got;
		int r;

		if (left <= 0)
			return -2;
		r = poll(&pf, 1, left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0)
			continue;
		got = read(fd, c, n);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			return -1;
		c += got;
		n -= (size_t)got;
	}
	return 0;
}

static int
reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;	/* reaped elsewhere (SIGCHLD ignored) */
	return status;
}

/* The child is given up: end it and say why, into e; -D9_ERR_IO. */
static int
lost(pid_t pid, int timed_out, unsigned timeout_ms, struct d9_err *e)
{
	int status;

	kill(pid, SIGKILL);
	status = reap(pid);
	if (timed_out)
		return d9_err_set(e, D9_ERR_IO, 0, "the reader took more than "
		    "%u.%03u s", timeout_ms / 1000, timeout_ms % 1000);
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
		const char *name = sigabbrev_np(WTERMSIG(status));

		if (name != NULL)
			return d9_err_set(e, D9_ERR_IO, 0,
			    "the reader was killed by SIG%s", name);
		return d9_err_set(e, D9_ERR_IO, 0,
		    "the reader was killed by signal %d", WTERMSIG(status));
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return d9_err_set(e, D9_ERR_IO, 0,
		    "the reader exited with status %d", WEXITSTATUS(status));
	return d9_err_set(e, D9_ERR_IO, 0,
	    "the reader ended without a complete answer");
}

/* The child's answer after a good header. */
static int
answer(int fd, pid_t pid, const struct iso_head *h, long long deadline,
    unsigned timeout_ms, void **buf, size_t *len, struct d9_err *e)
{
	char msg[D9_ERR_MSG_MAX], extra;
	void *p = NULL;
	int rc = 0, status;

	if (h->code != 0) {
		if (h->len >= sizeof msg ||
		    (rc = read_until(fd, msg, (size_t)h->len, deadline)) != 0)
			return lost(pid, rc == -2, timeout_ms, e);
		msg[h->len] = '\0';
		reap(pid);
		if (h->code == D9_ERR_NOMEM)
			return d9_err_set(e, D9_ERR_IO, 0,
			    "the reader ran out of memory");
		return d9_err_set(e, h->code == D9_ERR_IO ? D9_ERR_BAD_VALUE :
		    h->code, 0, "%s", msg);
	}
	if (h->len > 0 && (p = malloc((size_t)h->len)) == NULL) {
		kill(pid, SIGKILL);
		reap(pid);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF index");
	}
	rc = read_until(fd, p, (size_t)h->len, deadline);
	if (rc == 0 && (rc = read_until(fd, &extra, 1, deadline)) != -2)
		rc = rc == -1 ? 0 : -1;	/* EOF, or more than announced */
	if (rc != 0) {
		free(p);
		return lost(pid, rc == -2, timeout_ms, e);
	}
	status = reap(pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(p);
		return d9_err_set(e, D9_ERR_IO, 0, "the reader failed after "
		    "answering");
	}
	*buf = p;
	*len = (size_t)h->len;
	return 0;
}

int
d9s_isolate(int (*fn)(void *arg, void **buf, size_t *len,
    struct d9_err *e), void *arg, unsigned timeout_ms, size_t mem_budget,
    void **buf, size_t *len, struct d9_err *e)
{
	long long deadline = now_ms() + timeout_ms;
	size_t max_out = mem_budget > 0 ? mem_budget : ISO_MAX_OUT;
	struct iso_head h;
	int fds[2], rc;
	pid_t pid;

	*buf = NULL;
	*len = 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return d9_err_set(e, D9_ERR_IO, 0, "pipe: %s", strerror(errno));
	if ((pid = fork()) < 0) {
		rc = errno;
		close(fds[0]);
		close(fds[1]);
		return d9_err_set(e, D9_ERR_IO, 0, "fork: %s", strerror(rc));
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], fn, arg, mem_budget);
	}
	close(fds[1]);
	rc = read_until(fds[0], &h, sizeof h, deadline);
	if (rc != 0 || h.magic != ISO_MAGIC || h.len > max_out)
		rc = lost(pid, rc == -2, timeout_ms, e);
	else
		rc = answer(fds[0], pid, &h, deadline, timeout_ms, buf, len, e);
	close(fds[0]);
	return rc;
}
