/*
 * fuzz_parse.c: bytes -> d9p_read_fd -> the recording sink of the parser
 * tests (test/parse/recsink.c), which renders every value: each string,
 * map entry, stack address and dynamic byte is read. Inputs are capped
 * at 1 MiB.
 *
 * Half the small inputs (by their last byte; a thread per run is slow)
 * are read a second time through a pipe fed in small chunks: frames are decoded again whenever they were incomplete, so the
 * log and the notes must not depend on where the reads split the bytes.
 * A difference aborts, like a crash. Exceptions: where zlib notices
 * damage (the byte named, even the complaint) depends on how far it had
 * read ahead, so for those notes only the container counts; and zstd
 * decodes a damaged frame differently when it arrives whole (one pass,
 * may fail before any output) or in pieces (block by block, may hand out
 * garbage first), so inputs with a zstd error are not compared, nor are
 * damaged inputs that hold a zstd frame's magic anywhere: damage in a
 * batch already noted is not noted again, so a frame's may go unsaid
 * (the first found: raw bytes, a bad schema noted, then a zstd magic
 * whose garbage frame gave 12 bytes in pieces and none whole).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recsink.h"

#define MAX_INPUT	(1u << 20)
#define MAX_PIPED	4096

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether data holds the magic of a zstd frame. */
static int
has_zstd(const uint8_t *data, size_t size)
{
	static const uint8_t magic[] = { 0x28, 0xb5, 0x2f, 0xfd };

	return memmem(data, size, magic, sizeof magic) != NULL;
}

/* What a note line is compared by: the container name for containers. */
static size_t
key(const char *line, const char **k)
{
	const char *c = strstr(line, ": gzip: "), *z = strstr(line, ": zstd: ");
	size_t len = strcspn(line, "\n");

	if (c == NULL || (z != NULL && z < c))
		c = z;
	if (c != NULL && c < line + len) {
		*k = c;
		return 8;
	}
	*k = line;
	return len;
}

static void
same(const char *what, const char *a, const char *b, int containers)
{
	const char *pa = a, *pb = b;

	while (containers && *pa && *pb) {
		const char *ka, *kb;
		size_t la = key(pa, &ka), lb = key(pb, &kb);

		if (la != lb || memcmp(ka, kb, la) != 0)
			break;
		pa += strcspn(pa, "\n");
		pb += strcspn(pb, "\n");
		pa += *pa == '\n';
		pb += *pb == '\n';
	}
	if (strcmp(pa, pb) == 0)
		return;
	fprintf(stderr, "fuzz_parse: %s differ between one read and a "
	    "chunked pipe\n--- one read\n%s\n--- pipe\n%s\n", what, a, b);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rec whole, piped;
	struct tg_pipe tp;

	if (size > MAX_INPUT)
		return 0;
	rec_init(&whole);
	if (rec_read(&whole, data, size) < 0)
		abort();		/* only out of memory may fail */
	if (size > 0 && size <= MAX_PIPED && (data[size - 1] & 1)) {
		rec_init(&piped);
		rec_read_fd(&piped, tg_pipe_start(&tp, data, size,
		    1 + (data[size - 1] ^ size) % 61), "t", 0);
		tg_pipe_join(&tp);
		if (strstr(rec_notes(&whole), ": zstd: ") == NULL &&
		    strstr(rec_notes(&piped), ": zstd: ") == NULL &&
		    !(has_zstd(data, size) && (*rec_notes(&whole) != '\0' ||
		    *rec_notes(&piped) != '\0'))) {
			same("notes", rec_notes(&whole), rec_notes(&piped), 1);
			same("logs", rec_log(&whole), rec_log(&piped), 0);
		}
		rec_free(&piped);
	}
	rec_free(&whole);
	return 0;
}
