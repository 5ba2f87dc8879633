/*
 * rectest.c: see rectest.h.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rectest.h"
#include "../rmtree.h"

char *
rt_tmpdir(void)
{
	char tmpl[] = "/tmp/d9rec-test-XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	return strdup(tmpl);
}

void
rt_rmdir(char **dir)
{
	t_rmtree(*dir);		/* recorders' subdirectories too */
	free(*dir);
	*dir = NULL;
}

uint64_t
rt_clock(void *ctx)
{
	return *(uint64_t *)ctx;
}

void
rt_opts(struct d9rec_options *o, const char *dir, uint64_t *clk)
{
	d9rec_options_init(o);
	o->dir = dir;
	o->compression = D9REC_COMPRESS_NONE;
	o->cpu_profile = 0;
	o->sched_profile = 0;
	o->alloc_profile = 0;
	o->flush_interval_ms = 3600 * 1000;
	if (clk != NULL) {
		o->clock = rt_clock;
		o->clock_ctx = clk;
	}
}

static void
count_note(void *ctx, const char *msg)
{
	(void)msg;
	(*(size_t *)ctx)++;
}

struct d9m_model *
rt_load(const char *dir, size_t *nerr)
{
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;
	const char *paths[1] = { dir };

	*nerr = 0;
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(d9m_model_load(m, paths, 1, NULL, count_note, nerr,
	    &st), 0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	return m;
}

size_t
rt_files(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0, sl = strlen(suffix);

	while (d != NULL && (de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] != '.' && l >= sl &&
		    strcmp(de->d_name + l - sl, suffix) == 0)
			n++;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

uint64_t
rt_dir_bytes(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	uint64_t n = 0;
	char path[512];
	struct stat sb;

	while (d != NULL && (de = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (de->d_name[0] != '.' && stat(path, &sb) == 0)
			n += (uint64_t)sb.st_size;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

const char *
rt_field(const struct d9m_model *m, uint32_t list, const char *key)
{
	uint32_t len;
	const char *p = d9_intern_str(&m->lists, list, &len);

	for (uint32_t i = 0; i + 8 <= len; i += 8) {
		uint64_t pair;

		memcpy(&pair, p + i, 8);
		if (strcmp(d9m_str(m, (uint32_t)(pair >> 32)), key) == 0)
			return d9m_str(m, (uint32_t)pair);
	}
	return NULL;
}

const char *
rt_symbol(const struct d9m_model *m, uint32_t seg, uint64_t addr)
{
	for (size_t i = 0; i < m->symbols.n; i++)
		if (m->symbols.seg[i] == seg && m->symbols.addr[i] == addr)
			return d9m_str(m, m->symbols.name[i]);
	return NULL;
}

int
rt_stack_has(const struct d9m_model *m, uint32_t seg, uint32_t stack,
    const char *name)
{
	size_t n;
	const uint8_t *f = d9m_stack(m, stack, &n);

	for (size_t i = 0; i < n; i++) {
		uint64_t a;
		const char *s;

		memcpy(&a, f + 8 * i, 8);
		/* gcc clones keep the name before a dot (burn.constprop.0) */
		if ((s = rt_symbol(m, seg, a)) != NULL &&
		    strncmp(s, name, strlen(name)) == 0 &&
		    (s[strlen(name)] == 0 || s[strlen(name)] == '.'))
			return 1;
	}
	return 0;
}

size_t
rt_count_kind(const struct d9m_model *m, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < m->rt.n; i++)
		n += D9M_RT(m, kind, i) == kind;
	return n;
}

void
rt_rounds(d9rec_writer *w, struct d9rec_thread *t, uint64_t first, int rounds,
    int per)
{
	for (int i = 0; i < rounds; i++) {
		for (uint64_t k = 0; k < (uint64_t)per; k++) {
			d9rec_poll_start(t, first + (uint64_t)(i * per) + k, 0,
			    0);
			d9rec_poll_end(t);
		}
		d9rec_flush(w);
	}
}

int
rt_stats_save(const char *path, const struct d9rec_stats *st)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(st, sizeof *st, 1, f) != 1) {
		if (f != NULL)
			fclose(f);
		return -1;
	}
	return fclose(f) == 0 ? 0 : -1;
}

void
rt_stats_load(const char *path, struct d9rec_stats *st)
{
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(st, sizeof *st, 1, f), 1);
	fclose(f);
	unlink(path);
}

char *
rt_run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	size_t k;

	ck_assert_ptr_nonnull(p);
	while ((k = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += k;
		if (cap - n < 4096)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = 0;
	ck_assert_int_eq(pclose(p), 0);
	return buf;
}

double
rt_num(const char *json, const char *key, const char **from)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof pat, "\"%s\":", key);
	p = strstr(from && *from ? *from : json, pat);
	ck_assert_msg(p != NULL, "no %s in d9top output", key);
	if (from)
		*from = p;
	return strtod(p + strlen(pat), NULL);
}
