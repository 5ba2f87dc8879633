/*
 * mkimage.c: the seeds of fuzz_image (fuzz/corpus-image was made with
 * it): each trace named, read and finished as d9top does, written as an
 * index entry (store/image.h) without its header, to DIR/NAME.body.
 *   mkimage DIR TRACE...
 * An entry's body changes with the model's layout: seeds of another
 * layout are still inputs, but refused at once; make them again then.
 */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/io.h"
#include "store/image.h"
#include "model/queries/lanes.h"
#include "model/core/model.h"

static int
seed(const char *dir, const char *trace)
{
	struct d9m_model *m = d9m_model_new();
	struct d9m_lanes *x = NULL;
	struct d9p_read_stats st;
	struct stat sb;
	char out[4096], *copy = strdup(trace);
	int fd = memfd_create("mkimage", MFD_CLOEXEC), o, rc = -1;
	uint8_t *p = NULL;

	if (m == NULL || copy == NULL || fd < 0 ||
	    d9m_model_load(m, &trace, 1, NULL, NULL, NULL, &st) < 0 ||
	    d9m_model_finish_last(m) < 0 || (x = d9m_lanes_build(m)) == NULL ||
	    d9i_image_write(m, x, fd, 0, NULL) < 0 || fstat(fd, &sb) < 0 ||
	    (p = malloc((size_t)sb.st_size)) == NULL ||
	    pread(fd, p, (size_t)sb.st_size, 0) != sb.st_size)
		goto out;
	snprintf(out, sizeof out, "%s/%s.body", dir, basename(copy));
	if ((o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		goto out;
	rc = d9_write_all(o, p + D9I_IMAGE_HEAD,
	    (size_t)sb.st_size - D9I_IMAGE_HEAD);
	if (close(o) < 0)
		rc = -1;
	if (rc == 0)
		printf("%s: %lld bytes\n", out,
		    (long long)sb.st_size - D9I_IMAGE_HEAD);
out:
	if (rc < 0)
		fprintf(stderr, "mkimage: %s: failed\n", trace);
	free(p);
	free(copy);
	d9m_lanes_free(&x);
	d9m_model_free(&m);
	if (fd >= 0)
		close(fd);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: mkimage DIR TRACE...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		rc |= seed(argv[1], argv[i]) < 0;
	return rc;
}
