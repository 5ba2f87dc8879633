/*
 * suites.h: the Check suites of the parser tests, one per module, and
 * the assertions they share. test_main.c runs them all (CK_RUN_SUITE
 * picks one).
 */
#ifndef D9_TEST_SUITES_H
#define D9_TEST_SUITES_H

#include <check.h>
#include <stdint.h>

#include "recsink.h"

Suite	*suite_buf(void);
Suite	*suite_pool(void);
Suite	*suite_decoder(void);
Suite	*suite_bad(void);
Suite	*suite_input(void);
Suite	*suite_reader(void);
Suite	*suite_follow(void);
Suite	*suite_copies(void);
Suite	*suite_trace(void);
Suite	*suite_limits(void);
Suite	*suite_whole(void);
Suite	*suite_resync(void);
Suite	*suite_fit(void);

/* Read t as input "t" and compare the whole log and all notes. */
void	ck_read(const struct tg *t, const char *log, const char *notes);
/*
 * Read t as input "t" (in a directory when in_dir) and check that it
 * gave `events` events and exactly the one note printf(fmt, ...) + "\n".
 */
void	ck_note(const struct tg *t, int in_dir, uint64_t events,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same with nnotes notes, all of them (each line ends in "\n"). */
void	ck_notes(const struct tg *t, int in_dir, uint64_t events,
	    size_t nnotes, const char *notes);

#endif
