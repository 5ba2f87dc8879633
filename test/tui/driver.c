/*
 * driver.c: d9top-tui-driver, a stand-in for `d9top` in the screen tests
 * until main.c calls d9t_run(): [--ascii] [--no-color] [--sync]
 * [--window A..B] PATH..., or --man-keys to print the KEYS list of the
 * man page from the key table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/keys.h"
#include "tui/tui.h"

static void
man_keys(void)
{
	for (size_t i = 0; i < d9t_nbindings; i++) {
		const struct d9t_binding *b = &d9t_bindings[i];
		int first = 1;

		/* one .It per (views, action, help): its keys together */
		for (size_t k = 0; k < i; k++)
			if (d9t_bindings[k].action == b->action &&
			    d9t_bindings[k].views == b->views &&
			    strcmp(d9t_bindings[k].help, b->help) == 0)
				first = 0;
		if (!first)
			continue;
		printf(".It");
		for (size_t k = i; k < d9t_nbindings; k++)
			if (d9t_bindings[k].action == b->action &&
			    d9t_bindings[k].views == b->views &&
			    strcmp(d9t_bindings[k].help, b->help) == 0)
				printf("%s Ic %s%s", k == i ? "" : " ,",
				    strchr(".,-", d9t_bindings[k].name[0]) &&
				    d9t_bindings[k].name[1] == '\0' ? "\\&" : "",
				    d9t_bindings[k].name);
		printf("\n%c%s.\n", b->help[0] - 32 * (b->help[0] >= 'a' &&
		    b->help[0] <= 'z'), b->help + 1);
	}
}

int
main(int argc, char **argv)
{
	struct d9t_config cfg;
	int i = 1;

	d9t_config_init(&cfg);
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--ascii") == 0)
			cfg.ascii = 1;
		else if (strcmp(argv[i], "--no-color") == 0)
			cfg.no_color = 1;
		else if (strcmp(argv[i], "--sync") == 0)
			cfg.sync = 1;
		else if (strcmp(argv[i], "--man-keys") == 0) {
			man_keys();
			return 0;
		} else if (strcmp(argv[i], "--window") == 0 && i + 1 < argc &&
		    sscanf(argv[i + 1], "%lf..%lf", &cfg.win_lo_ms,
		    &cfg.win_hi_ms) == 2) {
			cfg.have_window = 1;
			i++;
		} else {
			fprintf(stderr, "usage: d9top-tui-driver [--ascii] "
			    "[--no-color] [--sync] [--window A..B] PATH...\n");
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "d9top-tui-driver: no trace given\n");
		return 2;
	}
	return d9t_run((const char *const *)argv + i, (size_t)(argc - i), &cfg);
}
