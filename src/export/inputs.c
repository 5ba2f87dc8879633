/* inputs.c: see inputs.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/vec.h"
#include "export/hash128.h"
#include "export/inputs.h"
#include "parse/reader.h"

static int
visit(void *ctx, const char *path, int fd, const struct stat *sb, int in_dir)
{
	struct d9x_inputs *in = ctx;
	struct d9x_input *x;

	(void)in_dir;
	if (d9_grow(&in->v, &in->cap, in->n + 1, sizeof *in->v) < 0 ||
	    (path = strdup(path)) == NULL) {
		close(fd);
		return -1;
	}
	x = &in->v[in->n++];
	memset(x, 0, sizeof *x);
	x->path = (char *)path;
	x->fd = -1;
	if (S_ISREG(sb->st_mode)) {
		close(fd);
		x->size = (uint64_t)sb->st_size;
	} else
		x->fd = fd;
	return 0;
}

int
d9x_inputs_list(struct d9x_inputs *in, const char *const *paths,
    size_t npaths, void (*note)(void *, const char *), void *ctx)
{
	const char **files = malloc((npaths + 1) * sizeof *files);
	struct d9p_read_opts ro = { .note = note, .note_ctx = ctx };
	struct d9p_read_stats st;
	size_t nf = 0, nstdin = 0;
	int rc;

	memset(in, 0, sizeof *in);
	if (files == NULL)
		return -1;
	for (size_t i = 0; i < npaths; i++) {
		if (strcmp(paths[i], "-") == 0)
			nstdin = 1;
		else
			files[nf++] = paths[i];
	}
	memset(&st, 0, sizeof st);
	rc = nf ? d9p_walk(files, nf, visit, in, &ro, &st) : 0;
	free(files);
	if (rc == 0 && nstdin) {
		if (d9_grow(&in->v, &in->cap, in->n + 1, sizeof *in->v) < 0)
			return -1;
		memset(&in->v[in->n], 0, sizeof *in->v);
		in->v[in->n++].fd = -1;
	}
	return rc;
}

void
d9x_segid_base(const struct d9p_segid *id, uint8_t base[16])
{
	uint8_t raw[sizeof id->boot + 16];

	memcpy(raw, id->boot, sizeof id->boot);
	for (int b = 0; b < 8; b++) {
		raw[sizeof id->boot + b] = (uint8_t)(id->hash >> (8 * b));
		raw[sizeof id->boot + 8 + b] = (uint8_t)(id->len >> (8 * b));
	}
	d9x_hash128(raw, sizeof raw, base);
}

static int
cmp_base(const void *a, const void *b)
{
	const struct d9x_input *x = a, *y = b;

	if (x->have_id != y->have_id)
		return y->have_id - x->have_id;
	return memcmp(x->base, y->base, 16);
}

int
d9x_inputs_identify(struct d9x_inputs *in)
{
	struct d9x_input *v;

	for (size_t i = 0; i < in->n; i++) {
		struct d9x_input *x = &in->v[i];
		struct d9p_segid id;

		if (x->path == NULL || x->fd >= 0 ||
		    d9p_segid_of(x->path, &id) < 0)
			continue;
		d9x_segid_base(&id, x->base);
		x->have_id = 1;
	}
	if ((v = malloc((in->n + 1) * sizeof *v)) == NULL)
		return -1;
	if (in->n > 0)		/* no input: in->v is NULL */
		memcpy(v, in->v, in->n * sizeof *v);
	qsort(v, in->n, sizeof *v, cmp_base);
	for (size_t i = 0, j; i < in->n && v[i].have_id; i = j) {
		int64_t best = -1;
		const char *keep = NULL;

		for (j = i; j < in->n && v[j].have_id && memcmp(v[j].base,
		    v[i].base, 16) == 0; j++)
			;
		for (size_t k = i; j - i > 1 && k < j; k++) {
			int64_t sz = d9p_decoded_size(v[k].path);

			if (sz > best) {
				best = sz;
				keep = v[k].path;
			}
		}
		for (size_t k = 0; keep != NULL && k < in->n; k++)
			if (in->v[k].have_id && memcmp(in->v[k].base,
			    v[i].base, 16) == 0 && in->v[k].path != keep)
				in->v[k].copy = 1;
	}
	free(v);
	return 0;
}

void
d9x_inputs_free(struct d9x_inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->v[i].path);
		if (in->v[i].fd >= 0)
			close(in->v[i].fd);
	}
	free(in->v);
	memset(in, 0, sizeof *in);
}
