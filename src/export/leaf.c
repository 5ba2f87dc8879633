/*
 * leaf.c: see leaf.h. Partition folders are made as needed (the
 * umask's modes); a failure keeps the first reason in out->e with the
 * path it was about.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/leaf.h"

#define PATH_CAP	4096

void
d9x_hive_escape(const char *v, char *out, size_t cap)
{
	/* Hive's FileUtils.escapePathName set */
	static const char special[] = "\"#%'*/:=?\\\x7f{[]^";
	size_t n = 0;

	if (cap == 0)
		return;
	if (*v == '\0') {
		snprintf(out, cap, "__HIVE_DEFAULT_PARTITION__");
		return;
	}
	for (; *v && n + 4 < cap; v++) {
		unsigned char c = (unsigned char)*v;

		if (c < 0x20 || strchr(special, c) != NULL)
			n += (size_t)snprintf(out + n, cap - n, "%%%02X", c);
		else
			out[n++] = (char)c;
	}
	out[n] = '\0';
}

static int
fail(struct d9x_leaf *l, const char *what, const char *path)
{
	if (l->out->e.code == 0)
		d9_err_set(&l->out->e, D9_ERR_IO, 0, "%s: %s: %s", path, what,
		    strerror(errno));
	l->failed = 1;
	return -1;
}

/* OUTDIR/<table>/service=S/date=D/host=H into out. */
static int
dir_of(const struct d9x_out *out, const struct d9x_source *s,
    enum d9x_table t, char *p, size_t cap)
{
	char sv[3 * D9X_NAME_MAX + 8], dt[64], ho[3 * D9X_NAME_MAX + 8];
	int n;

	d9x_hive_escape(s->service, sv, sizeof sv);
	d9x_hive_escape(s->date, dt, sizeof dt);
	d9x_hive_escape(s->host, ho, sizeof ho);
	n = snprintf(p, cap, "%s/%s/service=%s/date=%s/host=%s", out->dir,
	    d9x_tables[t].name, sv, dt, ho);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int
leaf_path(const struct d9x_leaf *l, int tmp, char *p, size_t cap)
{
	int n = snprintf(p, cap, "%s/%s%s.parquet%s", l->dir, tmp ? "." : "",
	    l->src->key, tmp ? ".tmp" : "");

	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The Parquet writer failed with pe: its reason, named by the file
 * being written, is out->e's unless that holds one already; -1. */
static int
pq_failed(struct d9x_leaf *l, const struct d9_err *pe)
{
	char p[PATH_CAP];

	l->failed = 1;
	if (l->out->e.code != 0)
		return -1;
	if (leaf_path(l, 1, p, sizeof p) < 0)
		snprintf(p, sizeof p, "%s", l->dir ? l->dir : l->out->dir);
	d9_err_set(&l->out->e, pe->code, pe->off, "%s: %s", p, pe->msg);
	return -1;
}

int
d9x_leaf_exists(const struct d9x_out *out, const struct d9x_source *src,
    enum d9x_table t)
{
	char p[PATH_CAP];
	struct stat sb;
	int n;

	if (dir_of(out, src, t, p, sizeof p) < 0)
		return 0;
	n = (int)strlen(p);
	if (snprintf(p + n, sizeof p - (size_t)n, "/%s.parquet", src->key) >=
	    (int)(sizeof p - (size_t)n))
		return 0;
	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

int
d9x_mkdirs(char *p)
{
	if (*p == '\0') {
		errno = ENOENT;
		return -1;
	}
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		/* never group-writable, whatever the umask: the tables'
		 * folders are written by this user alone */
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			*s = c;
			return -1;
		}
		*s = c;
		if (c == '\0')
			return 0;
	}
}

void
d9x_leaf_init(struct d9x_leaf *l, struct d9x_out *out,
    const struct d9x_source *src, enum d9x_table t)
{
	memset(l, 0, sizeof *l);
	l->out = out;
	l->src = src;
	l->t = t;
	l->fd = -1;
}

/* The columns every row of the leaf has the same value in. */
static void
common(struct d9x_leaf *l)
{
	const struct d9x_source *s = l->src;
	const char *v[D9X_COMMON] = { s->key, s->boot, s->service, s->date,
	    s->host };
	size_t f0 = d9x_tables[l->t].nfields - D9X_COMMON;

	for (size_t i = 0; i < D9X_COMMON; i++)
		d9x_pq_const(l->pq, f0 + i, v[i], strlen(v[i]));
}

static int
open_leaf(struct d9x_leaf *l)
{
	char p[PATH_CAP];
	const struct d9x_tabdef *td = &d9x_tables[l->t];
	struct d9_err pe;

	if (dir_of(l->out, l->src, l->t, p, sizeof p) < 0) {
		errno = ENAMETOOLONG;
		return fail(l, "cannot make the folder", l->out->dir);
	}
	if ((l->dir = strdup(p)) == NULL || d9x_mkdirs(p) < 0)
		return fail(l, "cannot make the folder", p);
	if (leaf_path(l, 1, p, sizeof p) < 0) {
		errno = ENAMETOOLONG;
		return fail(l, "cannot write", l->dir);
	}
	l->fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0644);		/* readable by all, written by this user */
	if (l->fd < 0)
		return fail(l, "cannot write", p);
	if (d9x_pq_open(&l->pq, l->fd, td->fields, td->nfields, 0, &pe) < 0)
		return pq_failed(l, &pe);
	common(l);
	if (l->expect > 0)
		d9x_pq_expect(l->pq, l->expect);
	return 0;
}

void
d9x_leaf_expect(struct d9x_leaf *l, uint64_t rows)
{
	l->expect = rows;
}

struct d9x_pq *
d9x_leaf_pq(struct d9x_leaf *l)
{
	if (l->failed)
		return NULL;
	if (l->pq == NULL && open_leaf(l) < 0)
		return NULL;
	return l->pq;
}

int
d9x_leaf_row(struct d9x_leaf *l)
{
	if (d9x_leaf_pq(l) == NULL)
		return -1;
	if (d9x_pq_row(l->pq) < 0) {
		struct d9_err pe;

		d9_err_clear(&pe);
		d9x_pq_close(&l->pq, &pe);
		return pq_failed(l, &pe);
	}
	return 0;
}

void
d9x_leaf_abort(struct d9x_leaf *l)
{
	char p[PATH_CAP];

	d9x_pq_free(&l->pq);
	if (l->fd >= 0) {
		close(l->fd);
		if (leaf_path(l, 1, p, sizeof p) == 0)
			unlink(p);
	}
	l->fd = -1;
	free(l->dir);
	l->dir = NULL;
}

int
d9x_leaf_close(struct d9x_leaf *l)
{
	char tmp[PATH_CAP], fin[PATH_CAP];
	uint64_t rows, bytes;
	struct d9_err pe;
	int rc = 0;

	if (l->pq == NULL) {
		d9x_leaf_abort(l);
		return l->failed ? -1 : 0;
	}
	rows = d9x_pq_rows(l->pq);
	d9_err_clear(&pe);
	if (d9x_pq_close(&l->pq, &pe) < 0)
		rc = pq_failed(l, &pe);
	bytes = rc == 0 ? (uint64_t)lseek(l->fd, 0, SEEK_CUR) : 0;
	if (rc == 0 && close(l->fd) < 0)
		rc = fail(l, "cannot write", l->dir);
	else if (rc < 0)
		close(l->fd);
	l->fd = -1;
	if (rc == 0 && (leaf_path(l, 1, tmp, sizeof tmp) < 0 ||
	    leaf_path(l, 0, fin, sizeof fin) < 0))
		rc = fail(l, "cannot rename into place", l->dir);
	else if (rc == 0 && l->t == D9X_T_SEGMENTS && l->out->hold) {
		l->out->hold = 0;
		if ((l->out->held_tmp = strdup(tmp)) == NULL ||
		    (l->out->held_fin = strdup(fin)) == NULL)
			rc = fail(l, "out of memory", l->dir);
	} else if (rc == 0 && rename(tmp, fin) < 0)
		rc = fail(l, "cannot rename into place", l->dir);
	if (rc < 0 && leaf_path(l, 1, tmp, sizeof tmp) == 0)
		unlink(tmp);
	if (rc == 0) {
		l->out->files++;
		l->out->bytes += bytes;
		l->out->rows += rows;
		l->out->table_bytes[l->t] += bytes;
		l->out->table_rows[l->t] += rows;
	}
	free(l->dir);
	l->dir = NULL;
	return rc;
}

int
d9x_out_release(struct d9x_out *out, int keep)
{
	int rc = 0;

	out->hold = 0;
	if (out->held_tmp == NULL || out->held_fin == NULL)
		keep = 0;
	if (keep && rename(out->held_tmp, out->held_fin) < 0) {
		if (out->e.code == 0)
			d9_err_set(&out->e, D9_ERR_IO, 0, "%s: cannot rename "
			    "into place: %s", out->held_fin, strerror(errno));
		rc = -1;
	}
	if ((!keep || rc < 0) && out->held_tmp != NULL)
		unlink(out->held_tmp);
	free(out->held_tmp);
	free(out->held_fin);
	out->held_tmp = out->held_fin = NULL;
	return rc;
}
