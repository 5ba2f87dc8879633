/*
 * test_main.c: runs every parser suite. CK_FORK=no for a debugger,
 * CK_RUN_SUITE=decoder (say) for one suite. Exits 77 (skipped) when a
 * test could not run and none failed.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "../skip.h"
#include "suites.h"

void
ck_read(const struct tg *t, const char *log, const char *notes)
{
	struct rec r;

	rec_init(&r);
	ck_assert_int_eq(rec_read(&r, t->p, t->n), 0);
	ck_assert_str_eq(rec_log(&r), log);
	ck_assert_str_eq(rec_notes(&r), notes);
	rec_free(&r);
}

void
ck_notes(const struct tg *t, int in_dir, uint64_t events, size_t nnotes,
    const char *notes)
{
	struct rec r;

	/* a file, then pipes (decompressed ahead on another thread:
	 * parse/ahead.h) in small and large writes: the same notes */
	for (int pass = 0; pass < 3; pass++) {
		struct tg_pipe tp;
		int fd = pass == 0 ? tg_memfd(t->p, t->n) :
		    tg_pipe_start(&tp, t->p, t->n, pass == 1 ? 4096 : 1 << 20);

		rec_init(&r);
		ck_assert_int_eq(rec_read_fd(&r, fd, "t", in_dir), 0);
		if (pass > 0)
			tg_pipe_join(&tp);
		ck_assert_str_eq(rec_notes(&r), notes);
		ck_assert_uint_eq(r.nnotes, nnotes);
		ck_assert_uint_eq(r.nevents, events);
		rec_free(&r);
	}
}

void
ck_note(const struct tg *t, int in_dir, uint64_t events, const char *fmt,
    ...)
{
	struct tg want;
	va_list ap;

	tg_init(&want);
	va_start(ap, fmt);
	tg_vprintf(&want, fmt, ap);
	va_end(ap);
	tg_printf(&want, "\n");
	ck_notes(t, in_dir, events, 1, tg_cstr(&want));
	tg_free(&want);
}

int
main(void)
{
	SRunner *sr = srunner_create(suite_buf());
	int status;

	srunner_add_suite(sr, suite_pool());
	srunner_add_suite(sr, suite_decoder());
	srunner_add_suite(sr, suite_bad());
	srunner_add_suite(sr, suite_input());
	srunner_add_suite(sr, suite_reader());
	srunner_add_suite(sr, suite_follow());
	srunner_add_suite(sr, suite_copies());
	srunner_add_suite(sr, suite_trace());
	srunner_add_suite(sr, suite_limits());
	srunner_add_suite(sr, suite_whole());
	srunner_add_suite(sr, suite_resync());
	srunner_add_suite(sr, suite_fit());
	t_skip_init();
	srunner_run_all(sr, CK_ENV);
	status = t_exit_status(sr);
	srunner_free(sr);
	return status;
}
