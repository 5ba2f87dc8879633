/*
 * test_keys.c: the canvas, and the key table against itself (no key
 * bound twice in a view, every action reachable) and against the KEYS
 * section of man/d9top.1, both ways.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tui/keys.h"

START_TEST(canvas_clip_and_escape)
{
	struct d9t_canvas cv = { 0, 0, NULL };
	char row[256];

	ck_assert_int_eq(d9t_canvas_init(&cv, 10, 2), 0);
	ck_assert_int_eq(d9t_canvas_put(&cv, 6, 0, 0, "abcdef"), 4);
	d9t_canvas_row(&cv, 0, row, sizeof row);
	ck_assert_str_eq(row, "      abcd");
	/* controls and invalid UTF-8 never reach the terminal */
	d9t_canvas_put(&cv, 0, 1, 0, "a\033[2Jb\xff\xe2\x96\x88");
	d9t_canvas_row(&cv, 1, row, sizeof row);
	ck_assert_str_eq(row, "a?[2Jb?\xe2\x96\x88");
	/* wide characters would break the grid: shown as '?' */
	d9t_canvas_put(&cv, 0, 1, 0, "\xe4\xb8\xad\xf0\x9f\x98\x80");
	d9t_canvas_row(&cv, 1, row, sizeof row);
	ck_assert_int_eq(row[0], '?');
	ck_assert_int_eq(row[1], '?');
	d9t_canvas_free(&cv);
}
END_TEST

Suite *
suite_canvas(void)
{
	Suite *s = suite_create("canvas");
	TCase *tc = tcase_create("canvas");

	tcase_add_test(tc, canvas_clip_and_escape);
	suite_add_tcase(s, tc);
	return s;
}

START_TEST(keys_unique_per_view)
{
	for (size_t i = 0; i < d9t_nbindings; i++)
		for (size_t j = i + 1; j < d9t_nbindings; j++) {
			const struct d9t_binding *a = &d9t_bindings[i],
			    *b = &d9t_bindings[j];

			if (a->key == b->key && (a->views & b->views))
				ck_abort_msg("key %s bound twice (%zu, %zu)",
				    a->name, i, j);
		}
}
END_TEST

START_TEST(keys_every_action_bound)
{
	for (int a = D9T_A_NONE + 1; a < D9T_A_COUNT; a++) {
		int found = 0;

		for (size_t i = 0; i < d9t_nbindings; i++)
			found |= d9t_bindings[i].action == (enum d9t_action)a;
		ck_assert_msg(found, "action %d has no key", a);
	}
}
END_TEST

/* Key names in the man page's KEYS section: the Ic arguments of .It. */
static size_t
man_keys(char names[][32], size_t max)
{
	FILE *f = fopen(D9_MAN, "r");
	char line[512];
	int in = 0;
	size_t n = 0;

	ck_assert_msg(f != NULL, "cannot open %s", D9_MAN);
	while (fgets(line, sizeof line, f)) {
		char *p;

		if (strncmp(line, ".Sh ", 4) == 0)
			in = strncmp(line, ".Sh KEYS", 8) == 0;
		if (!in || strncmp(line, ".It ", 4) != 0)
			continue;
		for (p = strstr(line, "Ic "); p; p = strstr(p, " Ic ")) {
			char *w = p + (p[0] == 'I' ? 3 : 4), *e;

			if (strncmp(w, "\\&", 2) == 0)
				w += 2;
			e = w + strcspn(w, " \n");
			ck_assert_uint_lt(n, max);
			snprintf(names[n++], 32, "%.*s", (int)(e - w), w);
			p = e;
		}
	}
	fclose(f);
	return n;
}

START_TEST(keys_match_man_page)
{
	static char man[256][32];
	size_t n = man_keys(man, 256);

	ck_assert_uint_gt(n, 10);
	for (size_t i = 0; i < d9t_nbindings; i++) {
		int found = 0;

		for (size_t k = 0; k < n; k++)
			found |= strcmp(man[k], d9t_bindings[i].name) == 0;
		ck_assert_msg(found, "key %s is not in man/d9top.1",
		    d9t_bindings[i].name);
	}
	for (size_t k = 0; k < n; k++) {
		int found = 0;

		for (size_t i = 0; i < d9t_nbindings; i++)
			found |= strcmp(man[k], d9t_bindings[i].name) == 0;
		ck_assert_msg(found, "man/d9top.1 lists %s, the key table "
		    "does not", man[k]);
	}
}
END_TEST

START_TEST(keys_help_lists_the_table)
{
	struct fx f;

	fx_open(&f, "block-in-place-2026-05.bin", 160, 60, 1);
	fx_keys(&f, "?");
	ck_screen_has(&f, "Keys of the timeline view");
	for (size_t i = 0; i < d9t_nbindings; i++) {
		char keys[64];

		if (!(d9t_bindings[i].views & D9T_VM(D9T_V_TIMELINE)))
			continue;
		ck_screen_has(&f, d9t_bindings[i].help);
		d9t_keys_of(D9T_V_TIMELINE, d9t_bindings[i].action, keys,
		    sizeof keys);
		ck_screen_has(&f, keys);
	}
	fx_keys(&f, "q");
	ck_screen_has(&f, "w0");
	fx_close(&f);
}
END_TEST

Suite *
suite_keys(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, keys_unique_per_view);
	tcase_add_test(tc, keys_every_action_bound);
	tcase_add_test(tc, keys_match_man_page);
	tcase_add_test(tc, keys_help_lists_the_table);
	suite_add_tcase(s, tc);
	return s;
}
