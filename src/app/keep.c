/*
 * keep.c: see keep.h. Two forks: the first child leaves at once, so the
 * writer is nobody's child (no zombie, no wait) and, in a session of its
 * own, no signal of the terminal (^C in the next command, a hang-up)
 * reaches it. It writes nothing to the terminal: its standard streams
 * are /dev/null, it never flushes the stdio buffers it inherited and
 * leaves by _exit. It waits for the end of a pipe that only the caller
 * holds open: until the caller is done with the model, the writer takes
 * no CPU from it (the caller's analysis runs on both cores). Past the
 * file size limit (RLIMIT_FSIZE) its write fails and it removes its
 * temporary file, rather than die of SIGXFSZ and leave it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/keep.h"

#define WRITER_NICE	10	/* the user's next command comes first */

static void __attribute__((noreturn))
writer(struct d9i_store *in, const struct d9m_model *m, int lock, int go)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	char b;

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	setsid();
	signal(SIGXFSZ, SIG_IGN);	/* a write past the limit: EFBIG */
	if (setpriority(PRIO_PROCESS, 0, WRITER_NICE) < 0)
		errno = 0;	/* as fast as the others, then */
	while (read(go, &b, 1) < 0 && errno == EINTR)
		continue;	/* EOF: the caller is done */
	close(go);
	d9i_write(in, m, NULL, lock, NULL);
	_exit(0);
}

int
d9a_keep(struct d9i_store *in, const struct d9m_model *m, int *go)
{
	int lock = d9i_claim(in), status, p[2];
	pid_t pid;

	*go = -1;
	if (lock < 0)
		return 0;	/* no index, or another d9top writes it */
	if (pipe2(p, O_CLOEXEC) < 0) {
		d9i_unclaim(in, lock);
		return -1;
	}
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		d9i_unclaim(in, lock);
		return -1;
	}
	if (pid == 0) {
		pid_t w = fork();

		if (w == 0) {
			close(p[1]);
			writer(in, m, lock, p[0]);
		}
		/* without a writer the lock goes with this process */
		_exit(w < 0 ? 1 : 0);
	}
	close(lock);		/* the writer holds it now */
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		close(p[1]);
		return -1;
	}
	*go = p[1];
	return 0;
}
