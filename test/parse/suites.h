/*
 * suites.h: the Check suites of the parser tests, one per module, and
 * the assertions they share. test_main.c runs them all (CK_RUN_SUITE
 * picks one).
 */
#ifndef D9_TEST_SUITES_H
#define D9_TEST_SUITES_H

#include <check.h>

#include "recsink.h"

Suite	*suite_buf(void);
Suite	*suite_pool(void);
Suite	*suite_decoder(void);
Suite	*suite_bad(void);
Suite	*suite_input(void);
Suite	*suite_reader(void);
Suite	*suite_trace(void);

/* Read t as input "t" and compare the whole log and all notes. */
#define ck_read(t, log, notes) do {					\
	struct rec r_;							\
									\
	rec_init(&r_);							\
	ck_assert_int_eq(rec_read(&r_, (t)->p, (t)->n), 0);		\
	ck_assert_str_eq(rec_log(&r_), (log));				\
	ck_assert_str_eq(rec_notes(&r_), (notes));			\
	rec_free(&r_);							\
} while (0)

#endif
