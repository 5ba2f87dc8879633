/* run.c: see run.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "minijson.h"
#include "../skip.h"
#include "run.h"

char *
trace_path(const char *name)
{
	const char *dir = getenv("D9_TRACES");
	char *p;

	if (dir == NULL)
		dir = "../shared/traces";
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		abort();
	return p;
}

static int
run_v(struct run_result *r, const char *bin, const char *stdin_path,
    const char *fmt, va_list ap)
{
	char args[4096], *cmd, outp[] = "/tmp/d9e2e-out-XXXXXX",
	    errp[] = "/tmp/d9e2e-err-XXXXXX";
	int fo = mkstemp(outp), fe = mkstemp(errp), st;

	vsnprintf(args, sizeof args, fmt, ap);
	close(fo);
	close(fe);
	if (asprintf(&cmd, "'%s' %s < '%s' > '%s' 2> '%s'", bin, args,
	    stdin_path ? stdin_path : "/dev/null", outp, errp) < 0)
		abort();
	st = system(cmd);
	free(cmd);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	r->out = mj_read_file_n(outp, &r->nout);
	r->err = mj_read_file_n(errp, &r->nerr);
	unlink(outp);
	unlink(errp);
	return r->status;
}

int
run_d9top(struct run_result *r, const char *stdin_path, const char *fmt, ...)
{
	const char *bin = getenv("D9TOP");
	va_list ap;
	int st;

	va_start(ap, fmt);
	st = run_v(r, bin ? bin : "d9top", stdin_path, fmt, ap);
	va_end(ap);
	return st;
}

int
run_prog(struct run_result *r, const char *bin, const char *fmt, ...)
{
	va_list ap;
	int st;

	va_start(ap, fmt);
	st = run_v(r, bin, NULL, fmt, ap);
	va_end(ap);
	return st;
}

char *
run_on_terminal(const char *env, const char *args, const char *out)
{
	const char *d9 = getenv("D9TOP");
	struct run_result r;
	char *s;

	if (access("/usr/bin/script", X_OK) != 0)
		return NULL;
	run_prog(&r, "/usr/bin/script", "-qec \"%s '%s' %s > '%s'\" "
	    "/dev/null", env, d9 ? d9 : "d9top", args, out);
	ck_assert_int_eq(r.status, 0);
	s = strdup(r.out);
	run_free(&r);
	return s;
}

void
run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
}

int
run_suite(Suite *s, int traces)
{
	SRunner *sr = srunner_create(s);
	int status;

	if (traces)
		t_need_traces("../shared/traces");
	t_skip_init();
	srunner_run_all(sr, CK_NORMAL);
	status = t_exit_status(sr);
	srunner_free(sr);
	return status;
}
