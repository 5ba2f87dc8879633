/* files.c: see files.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/io.h"
#include "base/file.h"
#include "base/sum.h"
#include "base/vec.h"
#include "parse/reader.h"
#include "store/files.h"

#define MAGIC		"d9top files 1\n"
#define MAGIC_LEN	(sizeof MAGIC - 1)
#define MAX_BYTES	((size_t)64 << 20)	/* a list read back */
#define MAX_PATH	4096
#define ID_BYTES	(8 * sizeof(uint64_t))

struct listwalk {
	struct d9i_files *fl;
	time_t		 now;
};

static int
list_visit(void *ctx, const char *path, int fd, const struct stat *sb,
    int in_dir)
{
	struct listwalk *w = ctx;
	struct d9i_files *fl = w->fl;
	struct d9i_file *f;

	close(fd);
	/* a segment being written is live: its next read would miss, so
	 * writing an entry for it is wasted */
	if (!S_ISREG(sb->st_mode) || d9p_is_written(path, sb, w->now))
		fl->live = 1;
	if (d9_grow(&fl->v, &fl->cap, fl->n + 1, sizeof *fl->v) < 0)
		return -1;
	f = &fl->v[fl->n];
	if ((f->path = strdup(path)) == NULL)
		return -1;
	f->id[0] = (uint64_t)sb->st_dev;
	f->id[1] = (uint64_t)sb->st_ino;
	f->id[2] = (uint64_t)sb->st_size;
	f->id[3] = (uint64_t)sb->st_mtim.tv_sec;
	f->id[4] = (uint64_t)sb->st_mtim.tv_nsec;
	f->id[5] = (uint64_t)sb->st_ctim.tv_sec;
	f->id[6] = (uint64_t)sb->st_ctim.tv_nsec;
	f->id[7] = (uint64_t)in_dir;
	fl->n++;
	return 0;
}

int
d9i_files_list(const char *const *paths, size_t npaths, struct d9i_files *fl)
{
	struct listwalk w = { fl, time(NULL) };
	struct d9p_read_opts o = { 0 };
	struct d9p_read_stats st = { 0 };

	memset(fl, 0, sizeof *fl);
	if (d9p_walk(paths, npaths, list_visit, &w, &o, &st) < 0 ||
	    st.failed) {
		d9i_files_free(fl);
		return -1;
	}
	return 0;
}

uint64_t
d9i_files_sum(const struct d9i_files *fl)
{
	static const char version[] = "d9top model image 1";
	struct d9_sum s;

	d9_sum_init(&s);
	d9_sum_add(&s, version, sizeof version);
	for (size_t i = 0; i < fl->n; i++) {
		d9_sum_add(&s, fl->v[i].path, strlen(fl->v[i].path) + 1);
		d9_sum_add(&s, fl->v[i].id, sizeof fl->v[i].id);
	}
	return d9_sum_end(&s);
}

void
d9i_files_free(struct d9i_files *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->v[i].path);
	free(fl->v);
	memset(fl, 0, sizeof *fl);
}

/* The list as bytes: MAGIC, files (u64), n (u64), then per file its
 * path's length (u32), the path and its identity; malloc'd, or NULL. */
static uint8_t *
encode(uint64_t files, const struct d9i_files *fl, size_t *len)
{
	size_t n = MAGIC_LEN + 16, at;
	uint64_t count = fl->n;
	uint8_t *b;

	for (size_t i = 0; i < fl->n; i++)
		n += 4 + strlen(fl->v[i].path) + ID_BYTES;
	if ((b = malloc(n)) == NULL)
		return NULL;
	memcpy(b, MAGIC, MAGIC_LEN);
	memcpy(b + MAGIC_LEN, &files, 8);
	memcpy(b + MAGIC_LEN + 8, &count, 8);
	at = MAGIC_LEN + 16;
	for (size_t i = 0; i < fl->n; i++) {
		uint32_t pl = (uint32_t)strlen(fl->v[i].path);

		memcpy(b + at, &pl, 4);
		memcpy(b + at + 4, fl->v[i].path, pl);
		memcpy(b + at + 4 + pl, fl->v[i].id, ID_BYTES);
		at += 4 + pl + ID_BYTES;
	}
	*len = n;
	return b;
}

int
d9i_files_save(int dfd, const char *name, uint64_t files,
    const struct d9i_files *fl)
{
	char tmp[96];
	size_t len;
	uint8_t *b = encode(files, fl, &len);
	int fd, rc = -1;

	if (b == NULL)
		return -1;
	/* the writer holds the roots' lock: one temporary name is enough */
	snprintf(tmp, sizeof tmp, ".tmp-files-%ld", (long)getpid());
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (fd >= 0) {
		/* locked: the cleaner of dead writers' files leaves it */
		rc = flock(fd, LOCK_EX) == 0 ? d9_write_all(fd, b, len) : -1;
		if (close(fd) < 0)
			rc = -1;
		if (rc == 0)
			rc = renameat(dfd, tmp, dfd, name);
		if (rc < 0)
			unlinkat(dfd, tmp, 0);
	}
	free(b);
	return rc;
}

/* Read the file open at fd whole (at most MAX_BYTES): malloc'd, or
 * NULL. */
static uint8_t *
slurp(int fd, size_t *len)
{
	struct stat sb;
	uint8_t *b;
	size_t got;

	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    d9_file_not_private(&sb) != NULL ||
	    sb.st_size < (off_t)(MAGIC_LEN + 16) ||
	    (uint64_t)sb.st_size > MAX_BYTES ||
	    (b = malloc((size_t)sb.st_size)) == NULL)
		return NULL;
	got = (size_t)d9_read_full(fd, b, (size_t)sb.st_size);
	if (got != (size_t)sb.st_size) {
		free(b);
		return NULL;
	}
	*len = got;
	return b;
}

/* Decode b (len bytes) into fl: 0, or -1 when it is not a sound list. */
static int
decode(const uint8_t *b, size_t len, uint64_t *files, struct d9i_files *fl)
{
	uint64_t count;
	size_t at = MAGIC_LEN + 16;

	if (memcmp(b, MAGIC, MAGIC_LEN) != 0)
		return -1;
	memcpy(files, b + MAGIC_LEN, 8);
	memcpy(&count, b + MAGIC_LEN + 8, 8);
	/* each file takes at least 4 + 1 + ID_BYTES bytes */
	if (count > (len - at) / (5 + ID_BYTES))
		return -1;
	for (uint64_t i = 0; i < count; i++) {
		struct d9i_file *f;
		uint32_t pl;

		if (len - at < 4)
			return -1;
		memcpy(&pl, b + at, 4);
		if (pl == 0 || pl > MAX_PATH || len - at - 4 < pl + ID_BYTES ||
		    memchr(b + at + 4, '\0', pl) != NULL ||
		    d9_grow(&fl->v, &fl->cap, fl->n + 1, sizeof *fl->v) < 0)
			return -1;
		f = &fl->v[fl->n];
		if ((f->path = malloc(pl + 1)) == NULL)
			return -1;
		memcpy(f->path, b + at + 4, pl);
		f->path[pl] = '\0';
		memcpy(f->id, b + at + 4 + pl, ID_BYTES);
		fl->n++;
		at += 4 + pl + ID_BYTES;
	}
	return at == len ? 0 : -1;
}

int
d9i_files_load(int dfd, const char *name, uint64_t *files,
    struct d9i_files *fl)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK);
	uint8_t *b = NULL;
	size_t len = 0;
	int rc = -1;

	memset(fl, 0, sizeof *fl);
	if (fd < 0)
		return -1;
	if ((b = slurp(fd, &len)) != NULL)
		rc = decode(b, len, files, fl);
	close(fd);
	free(b);
	if (rc < 0)
		d9i_files_free(fl);
	return rc;
}

/* Whether a and b are the same file unchanged: path, device, inode,
 * size, modification time (the change time and the place may differ:
 * a file linked again is the same bytes). */
static int
same_file(const struct d9i_file *a, const struct d9i_file *b)
{
	return strcmp(a->path, b->path) == 0 &&
	    memcmp(a->id, b->id, 5 * sizeof a->id[0]) == 0;
}

/* Whether now holds old's path further on. */
static int
has_path(const struct d9i_files *now, size_t from, const char *path)
{
	for (size_t i = from; i < now->n; i++)
		if (strcmp(now->v[i].path, path) == 0)
			return 1;
	return 0;
}

/* Whether old (an .active segment) is sealed as now: the same stem. */
static int
sealed_as(const char *old, const char *now)
{
	char *a, *b;
	int same;

	if (!d9p_is_active(old) || d9p_is_active(now))
		return 0;
	a = d9p_stem(old);
	b = d9p_stem(now);
	same = a != NULL && b != NULL && strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

void
d9i_files_compare(const struct d9i_files *old, const struct d9i_files *now,
    struct d9i_prior *p)
{
	size_t i;

	p->kept = 0;
	p->added = 0;
	for (i = 0; i < old->n && i < now->n; i++)
		if (!same_file(&old->v[i], &now->v[i]))
			break;
	p->kept = i;
	if (i == old->n) {
		p->added = now->n - i;
		p->how = p->added > 0 ? D9I_GROWN : D9I_SAME;
	} else if (i < now->n && sealed_as(old->v[i].path, now->v[i].path))
		p->how = D9I_SEALED;
	else if (i < now->n && strcmp(old->v[i].path, now->v[i].path) == 0)
		p->how = D9I_REPLACED;
	else if (i < now->n && has_path(now, i + 1, old->v[i].path))
		p->how = D9I_INSERTED;
	else
		p->how = D9I_REMOVED;
}

const char *
d9i_change_name(enum d9i_change how)
{
	static const char *const names[] = { "same", "grown", "replaced",
	    "removed", "sealed", "inserted", "none" };

	return (size_t)how < sizeof names / sizeof names[0] ? names[how] :
	    "?";
}

void
d9i_prior_say(const struct d9i_prior *p, char *buf, size_t size)
{
	if (p->how == D9I_GROWN)
		snprintf(buf, size, "%zu new file%s since the index's entry "
		    "of the %zu other%s", p->added, p->added == 1 ? "" : "s",
		    p->kept, p->kept == 1 ? "" : "s");
	else if (p->how == D9I_SEALED)
		snprintf(buf, size, "a segment was sealed since the index's "
		    "entry");
	else
		snprintf(buf, size, "files %s since the index's entry",
		    d9i_change_name(p->how));
}
