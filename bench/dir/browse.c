/* browse.c: see browse.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/text.h"
#include "browse.h"
#include "measure.h"

#define POLL_NS		20000000L
#define SCREEN		16384

struct tmux {
	char	 sock[48];
};

/* tmux -L sock ARGS...; its stdout in out (cap bytes) when out. */
static int
tmux(const struct tmux *t, char *out, size_t cap, char *const args[])
{
	char *argv[32] = { "tmux", "-L", (char *)t->sock, "-f", "/dev/null" };
	char dummy[64];
	size_t n = 5;

	for (size_t i = 0; args[i] != NULL && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return d9b_capture(argv, out ? out : dummy, out ? cap : sizeof dummy);
}

/* The value of "Key:" in /proc/pid/status, in kB. */
static double
status_kb(int pid, const char *key)
{
	char path[64], line[256];
	double v = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, key, strlen(key)) == 0)
			v = atof(line + strlen(key));
	fclose(f);
	return v;
}

/* User + system seconds of pid so far. */
static double
cpu_of(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	/* after the command name in parentheses: state is field 3,
	 * utime and stime fields 14 and 15 */
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu "
	    "%llu", &ut, &st) != 2)
		return 0;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Whether the screen's first line is a header with a window (loading
 * or not), copied safe into header. */
static int
shown(const char *screen, char *header, size_t cap, char *line,
    size_t linecap)
{
	size_t n = strcspn(screen, "\n");

	snprintf(line, linecap, "%.*s", (int)(n < 1000 ? n : 1000), screen);
	d9_text_safe(header, cap, line, strlen(line));
	return strncmp(line, "d9top ", 6) == 0 &&
	    strstr(line, "  window ") != NULL;
}

/* Whether the screen's first line is a loaded header. */
static int
loaded(const char *screen, char *header, size_t cap)
{
	char line[1024];

	return shown(screen, header, cap, line, sizeof line) &&
	    strstr(line, " loading") == NULL &&
	    strstr(line, " following") == NULL &&
	    strstr(line, " updating") == NULL;
}

static int
watch(const struct tmux *t, int pid, double t0, double timeout,
    struct d9b_browse *b)
{
	char *screen = malloc(SCREEN);
	char *cap[] = { "capture-pane", "-p", "-t", "b", NULL };
	struct timespec nap = { 0, POLL_NS };
	int rc = -1;

	if (screen == NULL)
		return -1;
	while (d9b_now() - t0 < timeout) {
		if (tmux(t, screen, SCREEN, cap) != 0) {
			snprintf(b->why, sizeof b->why, "d9top quit before "
			    "its screen was loaded");
			break;
		}
		if (b->first == 0) {
			char line[1024];

			if (shown(screen, b->first_header,
			    sizeof b->first_header, line, sizeof line))
				b->first = d9b_now() - t0;
		}
		if (loaded(screen, b->header, sizeof b->header)) {
			b->wall = d9b_now() - t0;
			b->cpu = cpu_of(pid);
			b->rss_mib = status_kb(pid, "VmHWM:") / 1024;
			rc = 0;
			break;
		}
		nanosleep(&nap, NULL);
	}
	if (rc < 0 && b->why[0] == '\0')
		snprintf(b->why, sizeof b->why, "not loaded after %.0f s "
		    "(last header: %s)", timeout, b->header);
	free(screen);
	return rc;
}

/* Wait until pid has used no CPU for 0.2 s (at most 60 s): the jobs of
 * earlier windows that were still running are done. */
static void
settle(int pid)
{
	struct timespec nap = { 0, 100000000L };
	double last = -1, now;
	int quiet = 0;

	for (int i = 0; i < 600 && quiet < 2; i++) {
		nanosleep(&nap, NULL);
		now = cpu_of(pid);
		quiet = now == last ? quiet + 1 : 0;
		last = now;
	}
}

/* Zoom in until the header shows a window under a second; *rss: d9top's
 * RSS (MiB) once that screen is loaded, -1 when it is not reached. */
static void
zoom_in(const struct tmux *t, int pid, struct d9b_browse *b)
{
	char *plus[] = { "send-keys", "-t", "b", "+", NULL };
	char *cap[] = { "capture-pane", "-p", "-t", "b", NULL };
	char *screen = malloc(SCREEN), head[200];
	struct timespec nap = { 0, POLL_NS };

	b->zoom_rss_mib = -1;
	for (int k = 0; screen != NULL && k < 24; k++) {
		int ok = 0;

		if (tmux(t, NULL, 0, plus) != 0)
			break;
		/* the new window's screen, loaded (a few s at most) */
		for (int i = 0; i < 250 && !ok; i++) {
			nanosleep(&nap, NULL);
			ok = tmux(t, screen, SCREEN, cap) == 0 &&
			    loaded(screen, head, sizeof head);
		}
		if (!ok)
			break;
		if (strstr(head, "ms)") != NULL) {
			settle(pid);
			b->zoom_rss_mib = status_kb(pid, "VmRSS:") / 1024;
			break;
		}
	}
	free(screen);
}

static int
browse(const char *d9top, const char *dir, const char *cache,
    double timeout, int zoom, struct d9b_browse *b)
{
	struct tmux t;
	char env[4200], out[64];
	char *keep[] = { "new-session", "-d", "-s", "keep", "-x", "20", "-y",
	    "5", "sleep 3600", NULL };
	char *run[] = { "new-session", "-d", "-s", "b", "-x", "160", "-y",
	    "48", "env", "LANG=C.UTF-8", "TERM=tmux-256color", env,
	    (char *)d9top, (char *)dir, NULL };
	char *pid[] = { "display-message", "-p", "-t", "b", "#{pane_pid}",
	    NULL };
	char *kill[] = { "kill-server", NULL };
	double t0;
	int rc, p;

	memset(b, 0, sizeof *b);
	/* a socket of this call's own: the server of the call before may
	 * still be going away */
	snprintf(t.sock, sizeof t.sock, "d9bench-%d-%lld", (int)getpid(),
	    (long long)(d9b_now() * 1e6));
	snprintf(env, sizeof env, "XDG_CACHE_HOME=%s", cache);
	/* a server that outlives the pane, started before the clock */
	if ((rc = tmux(&t, NULL, 0, keep)) != 0) {
		snprintf(b->why, sizeof b->why, rc == 127 || rc < 0 ?
		    "no tmux" : "tmux cannot start a server here");
		return 1;
	}
	t0 = d9b_now();
	if (tmux(&t, NULL, 0, run) != 0 || tmux(&t, out, sizeof out, pid) !=
	    0 || (p = atoi(out)) <= 0) {
		snprintf(b->why, sizeof b->why, "tmux cannot start d9top");
		rc = -1;
	} else if ((rc = watch(&t, p, t0, timeout, b)) == 0 && zoom)
		zoom_in(&t, p, b);
	tmux(&t, NULL, 0, kill);
	return rc;
}

int
d9b_browse(const char *d9top, const char *dir, const char *cache,
    double timeout, struct d9b_browse *b)
{
	return browse(d9top, dir, cache, timeout, 1, b);
}

int
d9b_browse_load(const char *d9top, const char *dir, const char *cache,
    double timeout, struct d9b_browse *b)
{
	return browse(d9top, dir, cache, timeout, 0, b);
}
