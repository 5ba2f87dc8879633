/*
 * mkplanted.c: mkplanted [--deep | --deep150 | --events | --memory | --why]
 * PATH writes the planted trace (or the 70-frame one, the 160-frame one
 * branching at depth 150, the LogLine one, the
 * memory and task-dump one; test/fixtures/planted.h; the one of each figure
 * of issue 35, test/fixtures/whytrace.h) to PATH; mkplanted --sources DIR
 * writes two processes' recordings, DIR/a.bin and DIR/b.bin (api on
 * hosts h1 and h2, begun 2 s apart by the wall clock), for the screen
 * tests that drive d9top itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planted.h"
#include "whytrace.h"

#define S	1000000000ull
#define WALL	(1780000000ull * S)

static int
save(struct mt *t, const char *path)
{
	FILE *f;

	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(t->tg.p, 1, t->tg.n, f) != t->tg.n || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	tg_free(&t->tg);
	return 0;
}

static int
sources(const char *dir)
{
	char path[4096];
	struct mt t;

	mt_process(&t, "h1", "abcd-1", 50 * S, WALL, 1, 2, 100);
	snprintf(path, sizeof path, "%s/a.bin", dir);
	if (save(&t, path) != 0)
		return 1;
	mt_process(&t, "h2", "wxyz-2", 1000000 * S, WALL + 2 * S, 1, 1, 40);
	snprintf(path, sizeof path, "%s/b.bin", dir);
	return save(&t, path);
}

int
main(int argc, char **argv)
{
	struct mt t;
	const char *opt = argc == 3 ? argv[1] : "";

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: mkplanted [--deep | --deep150 | "
		    "--events | --memory | --why] PATH | --sources DIR\n");
		return 2;
	}
	if (strcmp(opt, "--sources") == 0)
		return sources(argv[2]);
	if (strcmp(opt, "--deep") == 0)
		mt_deep(&t);
	else if (strcmp(opt, "--deep150") == 0)
		mt_deep150(&t);
	else if (strcmp(opt, "--events") == 0)
		mt_events(&t);
	else if (strcmp(opt, "--memory") == 0)
		mt_memory(&t);
	else if (strcmp(opt, "--why") == 0)
		mt_why(&t);
	else if (argc == 2)
		mt_planted(&t);
	else {
		fprintf(stderr, "mkplanted: unknown option %s\n", opt);
		return 2;
	}
	return save(&t, argv[argc - 1]);
}
