/*
 * bench_tui.c: the browser on a synthetic trace of N events (default
 * 10 million): time to the first frame while the trace loads in the
 * background (budget 200 ms), to the first partial model (a view that
 * works while loading) and to the whole model, against a load without
 * partial models in the same run; then the time of each key press plus the
 * frame after it, per view (budget 16 ms), in wall time and in the UI
 * thread's own CPU time (what the key costs; on a loaded machine the
 * wall time is several times that). Views whose figures are
 * computed in the background are timed twice: the UI frame (async, as
 * the program runs) and the computation itself (sync).
 *   bench-tui [EVENTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "tui/app.h"
#include "tui/loader.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

struct step {
	const char	*name;
	const char	*keys;
};

static const struct step steps[] = {
	{ "timeline, whole trace", "" },
	{ "w worst poll", "w" },
	{ "w next worst", "w" },
	{ "+ zoom in", "+" },
	{ "l pan", "l" },
	{ ". cursor", "." },
	{ "Enter poll detail", "\n" },
	{ "c wake chain", "c" },
	{ "q back", "qq" },
	{ "0 whole trace", "0" },
	{ "n next long poll", "n" },
	{ "2 tasks", "2" },
	{ "j in tasks", "j" },
	{ "o sort tasks", "o" },
	{ "O reverse tasks", "O" },
	{ "Enter location's tasks", "\n" },
	{ "Enter task, histogram", "\n" },
	{ "Esc Esc back to tasks", "\033\033" },
	{ "3 cpu flame", "3" },
	{ "Enter a chain, a row each", "j\n" },
	{ "z focus", "jz" },
	{ "4 off-cpu flame", "4" },
	{ "5 alloc flame", "5" },
	{ "6 spans", "6" },
	{ "7 report", "7" },
	{ "1 timeline", "1" },
	{ "p points of interest", "p" },
	{ "Enter jump to one", "jj\n" },
	{ "n next of its kind", "n" },
	{ "N previous of its kind", "N" },
	{ "Enter poll verdict", "\n" },
	{ "q back to timeline", "q" },
	{ "? help and legend", "?" },
	{ "q back from help", "q" },
};

/* The CPU time of the calling thread: a frame's own work, without the
 * time other threads and processes took the core from it (on a loaded
 * machine the wall time of a 3 ms frame can be 10 ms). */
static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The keys and the frame after them: wall time, and into *cpu the UI
 * thread's own CPU time. */
static double
press(struct d9t_app *app, struct d9t_canvas *cv, const char *keys,
    double *cpu)
{
	double t0 = now_ms(), c0 = cpu_ms();

	for (const char *k = keys; *k; k++)
		d9t_app_key(app, *k == '\n' ? D9T_KEY_ENTER : *k);
	d9t_app_render(app, cv);
	*cpu = cpu_ms() - c0;
	return now_ms() - t0;
}

static void
run_steps(struct d9t_app *app, struct d9t_canvas *cv, int async)
{
	double worst = 0, worst_cpu = 0;

	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		double cpu, ms = press(app, cv, steps[i].keys, &cpu), wait = 0;
		double key_ms = ms, key_cpu = cpu;

		worst = ms > worst ? ms : worst;
		worst_cpu = cpu > worst_cpu ? cpu : worst_cpu;
		/* until the view's own figures are there, not only the
		 * first background result to arrive */
		if (async && app->updating) {
			double t0 = now_ms();

			do {
				while (!d9t_jobs_poll(app->jobs))
					usleep(200);
				d9t_app_dirty(app);
				ms = press(app, cv, "", &cpu);
			} while (app->updating && now_ms() - t0 < 60000);
			wait = now_ms() - t0;
		}
		printf("tui %-5s %-24s %8.2f ms/frame (cpu %5.2f)", async ?
		    "async" : "sync", steps[i].name, key_ms, key_cpu);
		if (wait > 0)
			printf("  (background result after %.0f ms, its frame "
			    "%.2f ms)", wait, ms);
		printf("\n");
	}
	printf("tui %-5s %-24s %8.2f ms (target < 16), cpu %.2f ms\n", async ?
	    "async" : "sync", "worst key press", worst, worst_cpu);
}

/* Time to the whole model with no partial models on the way. */
static double
load_whole(const char *const *paths)
{
	double t0 = now_ms();
	struct d9t_loader *ld = d9t_loader_new(paths, 1,
	    D9T_LOAD_WHOLE | D9T_LOAD_NO_CACHE, NULL, 0);

	if (ld == NULL)
		return 0;
	while (d9t_loader_state(ld) != 2)
		usleep(10 * 1000);
	t0 = now_ms() - t0;
	d9t_loader_free(&ld);
	return t0;
}

int
main(int argc, char **argv)
{
	uint64_t want = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	struct gen_buf b = { NULL, 0, 0 };
	struct d9t_config cfg;
	struct d9t_app app;
	struct d9t_canvas cv = { 0, 0, NULL };
	struct d9t_loader *ld;
	struct d9m_model *m;
	struct d9m_lanes *ix;
	struct d9p_read_stats st;
	char path[64];
	const char *paths[1] = { path };
	double t0, first, load, whole, first_view = 0, frame_max = 0;
	uint64_t n;
	int fd, frames = 0, partials = 0;

	n = gen_trace(&b, want, 8);
	fd = memfd_create("trace", 0);
	if (fd < 0 || write(fd, b.p, b.n) != (ssize_t)b.n) {
		perror("bench-tui: memfd");
		return 1;
	}
	free(b.p);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	printf("tui trace: %llu events, %.1f MB\n", (unsigned long long)n,
	    (double)b.n / 1e6);

	d9t_config_init(&cfg);
	if (d9t_app_init(&app, &cfg, paths, 1, 1, 1) < 0)
		return 1;
	if (d9t_canvas_init(&cv, 160, 48) < 0)
		return 1;
	/* baseline: the same load without partial models */
	whole = load_whole(paths);
	t0 = now_ms();
	ld = d9t_loader_new(paths, 1, D9T_LOAD_NO_CACHE, NULL, 0);	/* timed: read */
	if (ld == NULL)
		return 1;
	d9t_app_render(&app, &cv);
	first = now_ms() - t0;
	while (d9t_loader_state(ld) != 2) {
		double f0;

		usleep(50 * 1000);
		f0 = now_ms();
		d9t_loader_progress(ld, &app.ld_bytes, &app.ld_total,
		    &app.ld_events);
		if (d9t_loader_partial(ld, &m, &ix)) {
			if (d9t_app_set_partial(&app, m, ix) < 0)
				return 1;
			if (partials++ == 0)
				first_view = f0 - t0;
			/* a key on it: the worst poll of what is there */
			d9t_app_key(&app, 'w');
		}
		d9t_app_reap(&app, 0);
		d9t_app_render(&app, &cv);
		f0 = now_ms() - f0;
		frame_max = f0 > frame_max ? f0 : frame_max;
		frames++;
	}
	load = now_ms() - t0;
	d9t_loader_take(ld, &m, &ix, &st);
	printf("tui first frame while loading %8.2f ms (target < 200)\n", first);
	printf("tui first view of a partial model %6.0f ms, %d partial "
	    "models\n", first_view, partials);
	printf("tui frames while loading: %d, slowest %.2f ms (swaps "
	    "included)\n", frames, frame_max);
	printf("tui load + finish + index     %8.0f ms with partial models, "
	    "%.0f ms without: %.2fx\n", load, whole, load / whole);
	if (m == NULL || d9t_app_set_model(&app, m, ix) < 0)
		return 1;
	run_steps(&app, &cv, 1);
	/* the same steps with the figures computed in the UI thread */
	d9t_jobs_free(&app.jobs);
	app.jobs = d9t_jobs_new(m, ix, NULL, 1);
	app.view = D9T_V_TIMELINE;
	app.nstack = 0;
	d9t_set_window(&app, m->min_ts, m->max_ts, 0);
	app.sel = D9_NONE;
	run_steps(&app, &cv, 0);
	d9t_app_free(&app);
	d9t_loader_free(&ld);	/* after the app: partials share its strings */
	d9t_canvas_free(&cv);
	close(fd);
	return 0;
}
