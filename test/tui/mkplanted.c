/*
 * mkplanted.c: mkplanted PATH writes the planted trace (test/unit/
 * planted.h) to PATH, for the screen tests that drive d9top itself.
 */
#include <stdio.h>
#include <stdlib.h>

#include "planted.h"

int
main(int argc, char **argv)
{
	struct mt t;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: mkplanted PATH\n");
		return 2;
	}
	mt_planted(&t);
	if ((f = fopen(argv[1], "wb")) == NULL ||
	    fwrite(t.tg.p, 1, t.tg.n, f) != t.tg.n || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	tg_free(&t.tg);
	return 0;
}
