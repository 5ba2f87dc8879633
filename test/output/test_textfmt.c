/* test_textfmt.c: the report's and the browser's text helpers. */
#include <check.h>
#include <string.h>

#include "output/textfmt.h"
#include "suites.h"

/* The browser's info line at 70 columns read "..." alone when the
 * location's kept tail had no '/': it keeps the tail's last characters. */
START_TEST(test_short_loc_tail_without_slash)
{
	char out[64];

	d9o_short_loc("a_very_long_module_name_without_any_slash.rs:123:45", 20,
	    out, sizeof out);
	ck_assert_str_eq(out, "...y_slash.rs:123:45");
	ck_assert_uint_eq(strlen(out), 3 + 17);
	d9o_short_loc("src/some/deep/dir/handlers.rs:12:5", 24, out, sizeof out);
	ck_assert_str_eq(out, "...dir/handlers.rs:12:5");
	d9o_short_loc("src/main.rs:1:1", 24, out, sizeof out);
	ck_assert_str_eq(out, "src/main.rs:1:1");
	/* never from the middle of a character */
	d9o_short_loc("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9.rs", 13,
	    out, sizeof out);
	ck_assert_str_eq(out, "...\xc3\xa9\xc3\xa9\xc3\xa9.rs");
}
END_TEST

Suite *
textfmt_suite(void)
{
	Suite *s = suite_create("textfmt");
	TCase *tc = tcase_create("textfmt");

	tcase_add_test(tc, test_short_loc_tail_without_slash);
	suite_add_tcase(s, tc);
	return s;
}
