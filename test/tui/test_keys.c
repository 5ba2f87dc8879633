/*
 * test_keys.c: the canvas, and the key table against itself (no key
 * bound twice in a view, every action reachable) and the action list
 * against the KEYS section of man/d9top.1, keys and text.
 */
#include <ctype.h>
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

/* Below the size asked for, one line says so, cut to the width; reads
 * and copies outside the canvas are clipped. */
START_TEST(canvas_too_small)
{
	struct d9t_canvas cv = { 0, 0, NULL }, src = { 0, 0, NULL };
	char row[256];

	ck_assert_int_eq(d9t_canvas_init(&cv, 80, 2), 0);
	d9t_canvas_put(&cv, 0, 1, 0, "old");
	ck_assert_int_eq(d9t_canvas_too_small(&cv, 40, 10), 1);
	d9t_canvas_row(&cv, 0, row, sizeof row);
	ck_assert_str_eq(row, "terminal too small (need 40x10)");
	d9t_canvas_row(&cv, 1, row, sizeof row);
	ck_assert_str_eq(row, "");
	ck_assert_int_eq(d9t_canvas_init(&cv, 3, 3), 0);
	ck_assert_int_eq(d9t_canvas_too_small(&cv, 40, 10), 1);
	d9t_canvas_row(&cv, 0, row, sizeof row);
	ck_assert_str_eq(row, "ter");
	ck_assert_uint_eq(d9t_canvas_ch(&cv, 1, 0), 'e');
	ck_assert_uint_eq(d9t_canvas_ch(&cv, 3, 0), 0);
	ck_assert_uint_eq(d9t_canvas_ch(&cv, 0, 3), 0);
	ck_assert_uint_eq(d9t_canvas_ch(&cv, -1, 0), 0);
	ck_assert_int_eq(d9t_canvas_init(&cv, 40, 10), 0);
	ck_assert_int_eq(d9t_canvas_too_small(&cv, 40, 10), 0);
	/* two rows of a wider canvas onto the last row: one copied, cut */
	ck_assert_int_eq(d9t_canvas_init(&src, 50, 2), 0);
	d9t_canvas_put(&src, 0, 0, 0, "first row, fifty columns wide "
	    "...........");
	d9t_canvas_put(&src, 0, 1, 0, "second");
	d9t_canvas_blit(&cv, 9, &src, 2);
	d9t_canvas_row(&cv, 9, row, sizeof row);
	ck_assert_str_eq(row, "first row, fifty columns wide ..........");
	d9t_canvas_row(&cv, 8, row, sizeof row);
	ck_assert_str_eq(row, "");
	d9t_canvas_free(&src);
	d9t_canvas_free(&cv);
}
END_TEST

Suite *
suite_canvas(void)
{
	Suite *s = suite_create("canvas");
	TCase *tc = tcase_create("canvas");

	tcase_add_test(tc, canvas_clip_and_escape);
	tcase_add_test(tc, canvas_too_small);
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

/* The keys of action a in every view, "k , Up" as the man page's .It
 * line writes them (without the Ic macros and \& escapes). */
static void
action_keys(enum d9t_action a, char *out, size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < d9t_nbindings; i++) {
		const struct d9t_binding *b = &d9t_bindings[i];
		int dup = 0;

		for (size_t k = 0; k < i; k++)
			dup |= d9t_bindings[k].action == a &&
			    strcmp(d9t_bindings[k].name, b->name) == 0;
		if (b->action != a || dup)
			continue;
		n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " , " : "",
		    b->name);
	}
}

/* One entry of the KEYS section: its keys and its text. */
struct man_entry {
	char	keys[64];
	char	text[256];
};

static size_t
man_entries(struct man_entry *e, size_t max)
{
	FILE *f = fopen(D9_MAN, "r");
	char line[512];
	int in = 0;
	size_t n = 0;

	ck_assert_msg(f != NULL, "cannot open %s", D9_MAN);
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".Sh ", 4) == 0)
			in = strncmp(line, ".Sh KEYS", 8) == 0;
		if (!in || strcmp(line, ".El") == 0)
			in = in && strcmp(line, ".El") != 0;
		if (!in)
			continue;
		if (strncmp(line, ".It ", 4) == 0) {
			char *k = e[n].keys;
			size_t kn = 0;

			ck_assert_uint_lt(n, max);
			/* ".It Ic a , Ic \&-": drop "Ic " and "\&" */
			for (const char *p = line + 4; *p; p++) {
				if (strncmp(p, "Ic ", 3) == 0)
					p += 2;
				else if (strncmp(p, "\\&", 2) == 0)
					p += 1;
				else if (kn + 1 < sizeof e[n].keys)
					k[kn++] = *p;
			}
			k[kn] = '\0';
			e[n++].text[0] = '\0';
		} else if (n > 0 && line[0] != '.') {
			struct man_entry *x = &e[n - 1];

			snprintf(x->text + strlen(x->text), sizeof x->text -
			    strlen(x->text), "%s%s", x->text[0] ? " " : "", line);
		}
	}
	fclose(f);
	return n;
}

/* The KEYS section lists every action in the order of the action list,
 * with all its keys and its help text (capitalised, a full stop). */
START_TEST(keys_match_man_page)
{
	static struct man_entry man[128];
	size_t n = man_entries(man, 128), k = 0;

	for (int a = D9T_A_NONE + 1; a < D9T_A_COUNT; a++, k++) {
		char keys[64], text[256];
		const char *h = d9t_action_help((enum d9t_action)a);

		action_keys((enum d9t_action)a, keys, sizeof keys);
		snprintf(text, sizeof text, "%c%s.", toupper((unsigned char)h[0]),
		    h + 1);
		ck_assert_msg(k < n, "man/d9top.1 lacks the keys %s (%s)", keys,
		    text);
		ck_assert_str_eq(man[k].keys, keys);
		ck_assert_str_eq(man[k].text, text);
	}
	ck_assert_msg(k == n, "man/d9top.1 lists %zu key entries, the action "
	    "list %zu", n, k);
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
		ck_screen_has(&f, d9t_action_help(d9t_bindings[i].action));
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
