/*
 * mkhostile.c: hostile inputs for the screen tests (tmux_test.sh).
 *   mkhostile dir DIR            the files of hostile_dir() under DIR
 *   mkhostile bomb FILE N BYTES  a gzip trace of N pooled strings
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostile.h"

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "dir") == 0) {
		free(hostile_dir(argv[2]));
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "bomb") == 0) {
		hostile_bomb(argv[2], (unsigned)strtoul(argv[3], NULL, 0),
		    (size_t)strtoull(argv[4], NULL, 0));
		return 0;
	}
	fprintf(stderr, "usage: mkhostile dir DIR | bomb FILE N BYTES\n");
	return 2;
}
