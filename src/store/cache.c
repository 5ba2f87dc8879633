/* cache.c: see cache.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "base/sum.h"
#include "base/vec.h"
#include "store/cache.h"
#include "store/files.h"
#include "store/image.h"
#include "parse/reader.h"

#define SUFFIX		".img"
#define TMP_PREFIX	".tmp-"
#define TMP_AGE		3600	/* s: a temporary file older is left over */
#define LOCK_SUFFIX	".lock"
#define FILES_SUFFIX	".files"
#define WAIT_STEP_MS	20
#define WAIT_MAX_MS	2000	/* a writer slower than this (or a process
				 * that holds the lock and writes nothing) is
				 * not waited for: the traces are read */
#define TMP_TRIES	16

/* mkdir -p, private to the user. */
static int
make_dir(const char *path)
{
	char *p = strdup(path);
	int rc = 0;

	if (p == NULL)
		return -1;
	for (char *s = p + 1; rc == 0 && *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0700) < 0 && errno != EEXIST)
				rc = -1;
			*s = '/';
		}
	if (rc == 0 && mkdir(p, 0700) < 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

/* Whether the directory open at fd may hold the index: owned by this
 * user, writable by nobody else (ssh's and tmux's rule); NULL, or why
 * not. */
static const char *
dir_refused(int fd)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return "it is not a directory";
	return d9_file_not_private(&sb);
}

/* The index directory, opened (made first, private, with create): a
 * descriptor, or -1 when it is not there or not private. Every entry is
 * opened through it, so that what was checked is what is used. */
static int
dir_open(const struct d9i_cache *c, int create, const char **why)
{
	int fd;

	*why = NULL;
	if (c->dir == NULL || (create && make_dir(c->dir) < 0))
		return -1;
	fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			*why = errno == ENOTDIR || errno == ELOOP ?
			    "it is not a directory" : strerror(errno);
		return -1;
	}
	if ((*why = dir_refused(fd)) != NULL) {
		close(fd);
		return -1;
	}
	return fd;
}

int
d9i_cache_init(struct d9i_cache *c, const struct d9i_where *w)
{
	const char *why;
	int fd;

	c->dir = NULL;
	c->why = NULL;
	c->budget = w != NULL ? w->budget : 0;
	c->cancel = NULL;
	if (w == NULL || w->dir == NULL || c->budget == 0 ||
	    (c->dir = strdup(w->dir)) == NULL)
		return 0;
	/* one that is there must be private; one that is not is made so
	 * when an entry is written */
	if ((fd = dir_open(c, 0, &why)) >= 0)
		close(fd);
	else if (why != NULL) {
		size_t n = strlen(c->dir) + strlen(why) + 64;

		if ((c->why = malloc(n)) != NULL)
			snprintf(c->why, n, "the index %s is not used: %s",
			    c->dir, why);
		free(c->dir);
		c->dir = NULL;
	}
	return 0;
}

void
d9i_cache_free(struct d9i_cache *c)
{
	free(c->dir);
	free(c->why);
	c->dir = NULL;
	c->why = NULL;
}

/* The checksum of the paths as given, made absolute. */
static uint64_t
roots_of(const char *const *paths, size_t npaths)
{
	struct d9_sum s;

	d9_sum_init(&s);
	for (size_t i = 0; i < npaths; i++) {
		char *abs = realpath(paths[i], NULL);
		const char *p = abs != NULL ? abs : paths[i];

		d9_sum_add(&s, p, strlen(p) + 1);
		free(abs);
	}
	return d9_sum_end(&s);
}

int
d9i_cache_key_of(const char *const *paths, size_t npaths,
    struct d9i_key *key, struct d9i_files *fl)
{
	if (d9i_files_list(paths, npaths, fl) < 0)
		return -1;
	if (fl->live || fl->n == 0) {
		d9i_files_free(fl);
		return -1;
	}
	key->files = d9i_files_sum(fl);
	key->roots = roots_of(paths, npaths);
	return 0;
}

int
d9i_cache_key(const char *const *paths, size_t npaths, struct d9i_key *key)
{
	struct d9i_files fl;

	if (d9i_cache_key_of(paths, npaths, key, &fl) < 0)
		return -1;
	d9i_files_free(&fl);
	return 0;
}

#define NAME_LEN	(16 + 1 + 16 + sizeof SUFFIX - 1)

/* "<roots>-<files>.img" */
static void
entry_name(const struct d9i_key *key, char name[48])
{
	snprintf(name, 48, "%016llx-%016llx" SUFFIX,
	    (unsigned long long)key->roots, (unsigned long long)key->files);
}

/* "<roots>.files": the files of the entry of these roots (files.h). */
static void
files_name(const struct d9i_key *key, char name[32])
{
	snprintf(name, 32, "%016llx" FILES_SUFFIX,
	    (unsigned long long)key->roots);
}

/* "<roots>.lock": held by whoever writes an entry of these roots. */
static void
lock_name(const struct d9i_key *key, char name[32])
{
	snprintf(name, 32, "%016llx" LOCK_SUFFIX,
	    (unsigned long long)key->roots);
}

int
d9i_cache_claim(const struct d9i_cache *c, const struct d9i_key *key)
{
	char name[32];
	const char *why;
	int dfd = dir_open(c, 1, &why), fd;

	if (dfd < 0)
		return -1;
	lock_name(key, name);
	fd = openat(dfd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);	/* another d9top is writing it */
		fd = -1;
	}
	close(dfd);
	return fd;
}

void
d9i_cache_release(const struct d9i_cache *c, const struct d9i_key *key,
    int fd)
{
	char name[32];
	const char *why;
	int dfd;

	if (fd < 0)
		return;
	/* unlinked while still held: a waiter that opened it sees the lock
	 * go and finds the entry; a later writer makes a new file */
	if ((dfd = dir_open(c, 0, &why)) >= 0) {
		lock_name(key, name);
		unlinkat(dfd, name, 0);
		close(dfd);
	}
	close(fd);
}

/* Wait (at most WAIT_MAX_MS) while another d9top writes an entry of
 * key's roots: 1 when one did, 0 when none was. Whoever holds the lock
 * longer (a slow writer, or any process of the user's that took it)
 * costs this run two seconds, not the index. */
static int
wait_writer(int dfd, const struct d9i_key *key)
{
	char name[32];
	int fd, waited = 0;

	lock_name(key, name);
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	for (int ms = 0; flock(fd, LOCK_SH | LOCK_NB) < 0 &&
	    errno == EWOULDBLOCK && ms < WAIT_MAX_MS; ms += WAIT_STEP_MS) {
		struct timespec ts = { 0, WAIT_STEP_MS * 1000000L };

		nanosleep(&ts, NULL);
		waited = 1;
	}
	close(fd);
	return waited;
}

/* Whether the file open at fd may be an entry: a regular file of this
 * user's that nobody else may write to. */
static int
entry_owned(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    d9_file_not_private(&sb) == NULL;
}

/* The entry of key in the directory open at dfd, mapped: 0, or 1. */
static int
map_at(int dfd, const struct d9i_key *key, struct d9m_model **out,
    struct d9m_lanes **lanes)
{
	char why[128], name[48];
	int fd, rc = -1;

	entry_name(key, name);
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 1;
	if (entry_owned(fd))
		rc = d9i_image_open(fd, key->files, out, lanes, why,
		    sizeof why);
	if (rc == 0)		/* used: the last to be evicted */
		futimens(fd, NULL);
	else if (rc == -1)
		unlinkat(dfd, name, 0);	/* damaged, forged or another
					 * version */
	close(fd);
	return rc == 0 ? 0 : 1;
}

int
d9i_cache_map(const struct d9i_cache *c, const struct d9i_key *key,
    struct d9m_model **out, struct d9m_lanes **lanes)
{
	const char *why;
	int dfd = dir_open(c, 0, &why), rc;

	if (dfd < 0)
		return 1;
	rc = map_at(dfd, key, out, lanes);
	close(dfd);
	return rc;
}

/* How the files now differ from those of the entry the directory open
 * at dfd holds for key's roots (files.h). */
static void
prior_at(int dfd, const struct d9i_key *key, const struct d9i_files *now,
    struct d9i_prior *p)
{
	struct d9i_files old;
	struct d9i_key was = *key;
	struct stat sb;
	char list[32], name[48];

	memset(p, 0, sizeof *p);
	p->how = D9I_NONE;
	files_name(key, list);
	if (d9i_files_load(dfd, list, &was.files, &old) < 0)
		return;
	entry_name(&was, name);
	if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(sb.st_mode)) {
		d9i_files_compare(&old, now, p);
		p->files = was.files;
	}
	d9i_files_free(&old);
}

/* The entry of key's roots made from the files now has (the same
 * paths, devices, inodes, sizes and modification times: only their
 * change times differ, a file linked or its mode changed), mapped under
 * the key it was made for: 0, or 1. Its list takes today's files, so
 * that the next read finds them the same again. */
static int
map_same(int dfd, const struct d9i_key *key, const struct d9i_files *now,
    const struct d9i_prior *prior, struct d9m_model **out,
    struct d9m_lanes **lanes)
{
	struct d9i_key was = { prior->files, key->roots };
	char list[32];

	if (map_at(dfd, &was, out, lanes) != 0)
		return 1;
	files_name(key, list);
	d9i_files_save(dfd, list, was.files, now);
	return 0;
}

int
d9i_cache_find(const struct d9i_cache *c, const char *const *paths,
    size_t npaths, struct d9i_key *key, struct d9m_model **out,
    struct d9m_lanes **lanes, struct d9i_prior *prior)
{
	struct d9i_files now;
	const char *why;
	int rc, dfd;

	*out = NULL;
	*lanes = NULL;
	if (prior != NULL) {
		memset(prior, 0, sizeof *prior);
		prior->how = D9I_NONE;
	}
	if (c->dir == NULL || d9i_cache_key_of(paths, npaths, key, &now) < 0)
		return -1;
	if ((dfd = dir_open(c, 0, &why)) < 0) {
		d9i_files_free(&now);
		return why == NULL ? 1 : -1;	/* not made yet, or refused */
	}
	/* an entry being written is waited for: mapping it when done beats
	 * reading the traces again */
	if ((rc = map_at(dfd, key, out, lanes)) == 1 && wait_writer(dfd, key))
		rc = map_at(dfd, key, out, lanes);
	if (rc == 1 && prior != NULL) {
		prior_at(dfd, key, &now, prior);
		if (prior->how == D9I_SAME)
			rc = map_same(dfd, key, &now, prior, out, lanes);
	}
	close(dfd);
	d9i_files_free(&now);
	return rc;
}

struct ent {
	char		*name;
	uint64_t	 bytes;
	struct timespec	 used;
};

static int
older(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	return x->used.tv_nsec < y->used.tv_nsec ? -1 :
	    x->used.tv_nsec > y->used.tv_nsec;
}

static int
is_entry(const char *name)
{
	return strlen(name) == NAME_LEN && name[16] == '-' &&
	    strcmp(name + 33, SUFFIX) == 0;
}

/* The directory open at dfd, to read (its own descriptor). */
static DIR *
dir_list(int dfd)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (d == NULL && fd >= 0)
		close(fd);
	if (d != NULL)
		rewinddir(d);
	return d;
}

/* Remove the entries of the same roots as name but name itself. */
static void
replace(int dfd, const char *name)
{
	DIR *d = dir_list(dfd);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (is_entry(de->d_name) && strncmp(de->d_name, name, 17) == 0 &&
		    strcmp(de->d_name, name) != 0)
			unlinkat(dfd, de->d_name, 0);
	closedir(d);
}

static int
is_tmp(const char *name)
{
	return strncmp(name, TMP_PREFIX, strlen(TMP_PREFIX)) == 0;
}

/* Remove the temporary file name if no writer holds it: its writer died
 * (killed, or past its file size limit) before it could remove it. A
 * writer locks its file from the start (make_tmp). */
static void
drop_if_dead(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK);

	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		unlinkat(dfd, name, 0);
	close(fd);
}

/* Remove what dead writers left: their temporary files. */
static void
clean_tmps(int dfd)
{
	DIR *d = dir_list(dfd);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (is_tmp(de->d_name))
			drop_if_dead(dfd, de->d_name);
	closedir(d);
}

/* Remove the files list of the roots of entry name (files.h): its
 * entry is gone. */
static void
drop_files(int dfd, const char *name)
{
	char list[32];

	snprintf(list, sizeof list, "%.16s" FILES_SUFFIX, name);
	unlinkat(dfd, list, 0);
}

/* Remove the least recently used entries until the budget holds, and
 * lock files that a crashed d9top left. */
static void
evict(const struct d9i_cache *c, int dfd)
{
	DIR *d = dir_list(dfd);
	struct dirent *de;
	struct ent *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	time_t now = time(NULL);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		struct stat sb;
		size_t len = strlen(de->d_name);
		int lock = len > strlen(LOCK_SUFFIX) &&
		    strcmp(de->d_name + len - strlen(LOCK_SUFFIX),
		    LOCK_SUFFIX) == 0;

		if ((!lock && !is_entry(de->d_name)) ||
		    fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		if (lock) {
			if (now - sb.st_mtim.tv_sec > TMP_AGE)
				unlinkat(dfd, de->d_name, 0);
			continue;
		}
		if (d9_grow(&v, &cap, n + 1, sizeof *v) < 0 ||
		    (v[n].name = strdup(de->d_name)) == NULL)
			break;
		v[n].bytes = (uint64_t)sb.st_size;
		v[n].used = sb.st_mtim;
		total += v[n++].bytes;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, older);
	for (size_t i = 0; i < n; i++) {
		if (total > c->budget && unlinkat(dfd, v[i].name, 0) == 0) {
			total -= v[i].bytes;
			drop_files(dfd, v[i].name);
		}
		free(v[i].name);
	}
	free(v);
	closedir(d);
}

static int put(const struct d9i_cache *, int, const struct d9i_key *,
    const struct d9i_files *, const struct d9m_model *,
    const struct d9m_lanes *);

int
d9i_cache_put(const struct d9i_cache *c, const struct d9i_key *key,
    const char *const *paths, size_t npaths, const struct d9m_model *m,
    const struct d9m_lanes *lanes)
{
	struct d9m_lanes *own = NULL;
	struct d9i_files fl;
	struct d9i_key now;
	const char *why;
	int rc = -1, dfd = -1;

	if (c->dir == NULL || d9i_cache_key_of(paths, npaths, &now, &fl) < 0)
		return -1;
	if (now.files != key->files || (dfd = dir_open(c, 1, &why)) < 0)
		goto out;
	clean_tmps(dfd);
	if (lanes == NULL && (lanes = own = d9m_lanes_build(m)) == NULL)
		goto out;
	rc = put(c, dfd, key, &fl, m, lanes);
	d9m_lanes_free(&own);
out:
	if (dfd >= 0)
		close(dfd);
	d9i_files_free(&fl);
	return rc;
}

/* A new temporary file in the directory open at dfd, locked while this
 * process writes it (clean_tmps leaves it alone): its descriptor and
 * name, or -1. */
static int
make_tmp(int dfd, char name[64])
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuv";
	struct timespec ts;
	struct stat sb;

	for (int k = 0; k < TMP_TRIES; k++) {
		uint64_t r;
		int fd, i;

		clock_gettime(CLOCK_REALTIME, &ts);
		r = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
		    (uint64_t)getpid() << 32 ^ (uint64_t)k;
		i = snprintf(name, 64, TMP_PREFIX "%ld-", (long)getpid());
		for (int j = 0; j < 12; j++, r >>= 5)
			name[i++] = digits[r & 31];
		name[i] = '\0';
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
		    O_NOFOLLOW, 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -1;
		/* a cleaner that took it first removed it: another name */
		if (flock(fd, LOCK_EX) == 0 && fstat(fd, &sb) == 0 &&
		    sb.st_nlink > 0)
			return fd;
		close(fd);
	}
	return -1;
}

static int
put(const struct d9i_cache *c, int dfd, const struct d9i_key *key,
    const struct d9i_files *fl, const struct d9m_model *m,
    const struct d9m_lanes *lanes)
{
	char tmp[64], name[48], list[32];
	int fd, rc = -1;
	struct statvfs fs;
	uint64_t size;

	/* an entry over the budget would go at once; and the index never
	 * takes the last half of the free space */
	size = d9i_image_size(m, lanes);
	if (size > c->budget || fstatvfs(dfd, &fs) < 0 ||
	    size > (uint64_t)fs.f_bavail * fs.f_frsize / 2)
		return -1;
	entry_name(key, name);
	if ((fd = make_tmp(dfd, tmp)) < 0)
		return -1;
	/* a write past the file size limit fails (EFBIG) where SIGXFSZ is
	 * ignored (app/keep.c); elsewhere the signal ends the process and
	 * the next writer removes what it left (clean_tmps) */
	rc = d9i_image_write(m, lanes, fd, key->files, c->cancel);
	if (rc == 0)
		rc = renameat(dfd, tmp, dfd, name);
	if (rc < 0)
		unlinkat(dfd, tmp, 0);
	if (close(fd) < 0 && rc == 0) {
		unlinkat(dfd, name, 0);
		rc = -1;
	}
	if (rc == 0) {
		replace(dfd, name);
		/* what the entry was made from, for the next read to tell
		 * how the files changed since (d9i_cache_prior); none is no
		 * harm */
		files_name(key, list);
		if (d9i_files_save(dfd, list, key->files, fl) < 0)
			unlinkat(dfd, list, 0);
		evict(c, dfd);
	}
	return rc;
}
