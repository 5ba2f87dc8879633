/*
 * mkdiffpair.c: mkdiffpair base|new|both PATH writes a run of
 * test/unit/diffpair.h to PATH, for the tests that drive d9top itself.
 */
#include <stdio.h>
#include <string.h>

#include "diffpair.h"

int
main(int argc, char **argv)
{
	static const char *const modes[] = { "base", "new", "both" };
	struct mt t;
	FILE *f;
	int mode = -1;

	for (int k = 0; argc == 3 && k < 3; k++)
		if (strcmp(argv[1], modes[k]) == 0)
			mode = k;
	if (mode < 0) {
		fprintf(stderr, "usage: mkdiffpair base|new|both PATH\n");
		return 2;
	}
	mt_diffpair(&t, mode);
	if ((f = fopen(argv[2], "wb")) == NULL ||
	    fwrite(t.tg.p, 1, t.tg.n, f) != t.tg.n || fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	tg_free(&t.tg);
	return 0;
}
