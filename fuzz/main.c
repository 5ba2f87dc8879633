/*
 * main.c: with fuzzing_engine=none, the fuzz target replays its corpus
 * as a normal test: every file named on the command line, and every
 * file inside a directory named there (zstd's regression driver).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	size_t n = 0, cap = 0, r;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(p, cap)) == NULL) {
				fclose(f);
				return -1;
			}
		}
		r = fread(p + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(p, n);
	free(p);
	return 0;
}

static int
replay_path(const char *path, unsigned *count)
{
	struct stat sb;
	struct dirent *de;
	DIR *dir;
	int rc = 0;

	if (stat(path, &sb) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		(*count)++;
		return replay(path);
	}
	if ((dir = opendir(path)) == NULL) {
		perror(path);
		return -1;
	}
	while (rc == 0 && (de = readdir(dir)) != NULL) {
		char full[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(full, sizeof full, "%s/%s", path, de->d_name);
		rc = replay_path(full, count);
	}
	closedir(dir);
	return rc;
}

int
main(int argc, char **argv)
{
	unsigned count = 0;

	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i], &count) < 0)
			return 1;
	printf("replayed %u inputs\n", count);
	return count > 0 ? 0 : 1;
}
