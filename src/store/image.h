/*
 * image.h: a finished model as one flat file, and a model mapped back
 * from it (the persistent index, store/cache.h). Every table, derived
 * array and interned blob is a section of the file; opening maps the file
 * and points the model's columns into it, so nothing is decoded or
 * derived again and only the pages a view reads are brought in.
 *
 * An image is only ever a cache: its header names the format version and
 * the key of the inputs it was made from, a checksum covers every byte
 * (checked on open with reads, not through the mapping), and sections
 * must lie inside the file, in order, with the sizes their tables say.
 * The checksum tells a damaged file, not a forged one: every row index,
 * id and offset in the file is checked against its table as the file
 * is summed (image_check.h). A file that fails any test is refused with
 * a reason, never used.
 *
 * A mapped model is finished and read-only: d9m_model_load and
 * d9m_model_follow refuse it, d9m_model_finish leaves it as it is;
 * interning new strings, stacks, errors and task rows still works (those
 * are copied out of the file).
 */
#ifndef D9I_IMAGE_H
#define D9I_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "store/image_check.h"
#include "model/queries/lanes.h"
#include "model/core/model.h"

/* Write m (finished) and its lanes x to fd from its current offset: 0,
 * or -1 with errno (out of memory, a failed write, or ECANCELED once
 * *cancel, when given, is set). */
int	 d9i_image_write(const struct d9m_model *m, const struct d9m_lanes *x,
	    int fd, uint64_t key, const _Atomic int *cancel);
/* The size of m's image in bytes (UINT64_MAX when out of memory). */
uint64_t d9i_image_size(const struct d9m_model *m,
	    const struct d9m_lanes *x);
/* Map the image in fd (not closed): 0 with *out and *lanes (mapped too:
 * free *lanes before *out); -1 with why set when
 * the file is not a usable image of key (damaged, another key or
 * version); -2 when this process could not (out of memory or address
 * space). */
int	 d9i_image_open(int fd, uint64_t key, struct d9m_model **out,
	    struct d9m_lanes **lanes, char *why, size_t whylen);
/* For the tests and the fuzz target that forge images. The header's
 * bytes (the body follows). */
#define D9I_IMAGE_HEAD	72
/* Opening reads, sums and checks the sections in steps of this many
 * bytes from the first section's byte, at d9i_image_head() (0 when out
 * of memory). */
#define D9I_IMAGE_STEP	((uint64_t)256 << 10)
uint64_t d9i_image_head(void);
/* The checks that opening the image in fd ran on its columns
 * (image_check.h), in file order: 0 with *checks (free() it) and *n, or
 * d9i_image_open's -1 or -2. */
int	 d9i_image_checks(int fd, uint64_t key, struct d9i_icheck **checks,
	    size_t *n);
/* Make buf (size bytes: an image, or anything at all after the header's
 * room) an image of key with a sound header and checksum, whatever its
 * body says: 0, or -1 when size is below the header's. */
int	 d9i_image_reseal(uint8_t *buf, size_t size, uint64_t key);
/* Whether m is mapped from an image (its backing is an image's: the
 * model gives the pages back, d9m_model_release, and unmaps them,
 * d9m_model_free). */
int	 d9i_image_is(const struct d9m_model *m);

#endif
