/*
 * mkplanted.c: mkplanted [--deep] PATH writes the planted trace (or with
 * --deep the 70-frame one; test/unit/planted.h) to PATH, for the screen
 * tests that drive d9top itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planted.h"

int
main(int argc, char **argv)
{
	struct mt t;
	FILE *f;

	int deep = argc == 3 && strcmp(argv[1], "--deep") == 0;

	if (argc != 2 + deep) {
		fprintf(stderr, "usage: mkplanted [--deep] PATH\n");
		return 2;
	}
	if (deep)
		mt_deep(&t);
	else
		mt_planted(&t);
	if ((f = fopen(argv[1 + deep], "wb")) == NULL ||
	    fwrite(t.tg.p, 1, t.tg.n, f) != t.tg.n || fclose(f) != 0) {
		perror(argv[1 + deep]);
		return 1;
	}
	tg_free(&t.tg);
	return 0;
}
