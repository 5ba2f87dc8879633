/*
 * compare.c: see compare.h. A side of --diff is read as a --json output
 * when it is a regular file whose text opens a JSON object; else it is
 * loaded and analysed as a trace (load.c) in its window: OLD@A..B, else
 * --window, else all of it. Its figures become a model/figures/diff.h side and
 * the model is freed before the other side loads, so two large traces
 * are never in memory together.
 *
 * --check evaluates its rules (src/output/check.h) over the --json
 * object of the run, or over a --json output given instead of a trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/compare.h"
#include "app/load.h"
#include "base/file.h"
#include "base/json.h"
#include "model/figures/diff.h"
#include "output/check.h"
#include "output/output.h"

/* The text of path when it is a --json output: 1 (*text malloc'd), 0
 * when it is something else, -1 after a message when it cannot be
 * read. */
static int
read_json(const char *path, char **text, size_t *len)
{
	struct stat sb;
	struct d9_err e;
	uint64_t size;
	char head[64], msg[512];
	ssize_t n;
	int fd;

	*text = NULL;
	if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
	    !S_ISREG(sb.st_mode))
		return 0;
	if ((fd = d9_file_open(path, UINT64_MAX, &size, &e)) < 0) {
		snprintf(msg, sizeof msg, "%s: %s", path, e.msg);
		d9a_note(NULL, msg);
		return -1;
	}
	n = read(fd, head, sizeof head);
	if (n <= 0 || !d9_json_looks(head, (size_t)n)) {
		close(fd);
		return 0;	/* a trace, of any size */
	}
	if (size > D9_JSON_MAX_TEXT) {
		snprintf(msg, sizeof msg, "%s: byte %u: JSON: larger than %u "
		    "MiB, not read", path, D9_JSON_MAX_TEXT,
		    D9_JSON_MAX_TEXT >> 20);
		d9a_note(NULL, msg);
		close(fd);
		return -1;
	}
	if ((*text = malloc(size + 1)) == NULL ||
	    pread(fd, *text, size, 0) != (ssize_t)size) {
		snprintf(msg, sizeof msg, "%s: cannot be read", path);
		d9a_note(NULL, msg);
		free(*text);
		*text = NULL;
		close(fd);
		return -1;
	}
	close(fd);
	(*text)[size] = '\0';
	*len = (size_t)size;
	return 1;
}

/* Parse a --json output read by read_json (which it frees); 0, or 1
 * after a message naming the file and byte. */
static int
parse_doc(const char *path, char *text, size_t len, struct d9_json *doc)
{
	struct d9_err e;
	char msg[512];
	int rc = d9_json_parse(doc, text, len, &e);

	free(text);
	if (rc == 0)
		return 0;
	snprintf(msg, sizeof msg, "%s: byte %llu: %s", path,
	    (unsigned long long)e.off, e.msg);
	d9a_note(NULL, msg);
	d9_json_free(doc);
	return 1;
}

/* spec is PATH, or PATH@A..B when no file is named spec and the text
 * after its last '@' is a window: the path (malloc'd) and window; NULL
 * with *bad set when PATH names a file but A..B is no window. */
static char *
split(const char *spec, struct d9a_win *w, int *bad)
{
	const char *at = strrchr(spec, '@');
	struct stat sb;
	char *path;

	*bad = 0;
	if (at == NULL || stat(spec, &sb) == 0)
		return strdup(spec);
	if ((path = strndup(spec, (size_t)(at - spec))) == NULL)
		return NULL;
	if (d9a_window_arg(at + 1, &w->lo_ms, &w->hi_ms) == 0)
		w->have = 1;
	else if (stat(path, &sb) == 0) {	/* FILE@ and no window */
		*bad = 1;
		free(path);
		path = NULL;
	} else {
		free(path);
		path = strdup(spec);
	}
	return path;
}

static void
name_of(char *out, size_t cap, const char *path, const struct d9a_win *w)
{
	if (!w->have)
		snprintf(out, cap, "%s", path);
	else if (w->hi_ms < 0)
		snprintf(out, cap, "%s (window %g.. ms)", path, w->lo_ms);
	else
		snprintf(out, cap, "%s (window %g..%g ms)", path, w->lo_ms,
		    w->hi_ms);
}

/* One side of --diff into s, named into name; 0 or the exit status. */
static int
side_load(const struct d9a_opts *o, const char *spec, struct d9m_side *s,
    char *name, size_t cap)
{
	struct d9a_win w = { 0, 0, -1 };
	char *path, *text, msg[600];
	struct d9a_load l;
	struct d9_json doc;
	size_t len;
	int rc, bad;

	if ((path = split(spec, &w, &bad)) == NULL && bad) {
		snprintf(msg, sizeof msg, "--diff %s: after '@', a window "
		    "A..B in milliseconds from the trace's start, A <= B", spec);
		d9a_note(NULL, msg);	/* escaped: it quotes an argument */
		return 2;
	}
	if (path == NULL)
		return 1;
	if (!w.have)
		w = d9a_win_of(o);
	rc = read_json(path, &text, &len);
	if (rc < 0 || (rc == 1 && (rc = parse_doc(path, text, len, &doc) ?
	    -1 : 1) < 0)) {
		free(path);
		return 1;
	}
	name_of(name, cap, path, rc == 1 ? &(struct d9a_win){ 0, 0, -1 } :
	    &w);
	if (rc == 1) {
		if (w.have && !o->quiet) {
			snprintf(msg, sizeof msg, "%s is a --json output: its "
			    "window was chosen when it was written", path);
			d9a_note(NULL, msg);
		}
		rc = d9o_side_from_json(doc.root, s, msg, sizeof msg) < 0;
		if (rc) {
			char full[700];

			snprintf(full, sizeof full, "%s: %s", path, msg);
			d9a_note(NULL, full);
		}
		d9_json_free(&doc);
		free(path);
		return rc;
	}
	rc = d9a_load(&l, o, (const char *const *)&path, 1, &w, 1);
	if (rc == 0) {
		if (d9m_side_of(s, l.m, l.res, &l.a) < 0) {
			fprintf(stderr, "d9top: out of memory\n");
			rc = 1;
		}
		d9a_load_free(&l);
	}
	free(path);
	return rc;
}

int
d9a_diff_main(const struct d9a_opts *o, FILE *f)
{
	struct d9m_side old, new;
	struct d9m_diff d;
	struct d9o_diff_out out;
	char on[4200], nn[4200];
	int rc;

	d9m_side_init(&old);
	d9m_side_init(&new);
	if ((rc = side_load(o, o->diff_old, &old, on, sizeof on)) != 0 ||
	    (rc = side_load(o, o->paths[0], &new, nn, sizeof nn)) != 0)
		goto out;
	if (d9m_diff(&old, &new, &d) < 0) {
		fprintf(stderr, "d9top: out of memory\n");
		rc = 1;
		goto out;
	}
	out.f = f;
	out.d = &d;
	out.old_name = on;
	out.new_name = nn;
	if (o->json)
		d9o_diff_json(&out);
	else
		d9o_diff_text(&out);
	d9m_diff_free(&d);
	rc = 0;
out:
	d9m_side_free(&old);
	d9m_side_free(&new);
	return rc;
}

/* The --json object of the run (the input itself when it is one). */
static int
run_doc(const struct d9a_opts *o, struct d9_json *doc)
{
	struct d9a_win w = d9a_win_of(o);
	struct d9a_load l;
	struct d9o_out out;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (o->npaths == 1 && (rc = read_json(o->paths[0], &text, &len)) != 0)
		return rc < 0 ? 1 : parse_doc(o->paths[0], text, len, doc);
	if ((rc = d9a_load(&l, o, o->paths, o->npaths, &w, 1)) != 0)
		return rc;
	memset(&out, 0, sizeof out);
	out.m = l.m;
	out.a = &l.a;
	out.r = l.res;
	out.inputs = o->paths;
	out.ninputs = o->npaths;
	out.chain = o->have_chain ? o->chain : 0;
	if ((out.f = f = open_memstream(&text, &len)) != NULL) {
		d9o_json(&out);
		fclose(f);
	}
	d9a_load_free(&l);
	if (f == NULL || text == NULL) {
		free(text);
		fprintf(stderr, "d9top: out of memory\n");
		return 1;
	}
	return parse_doc("the --json output", text, len, doc);
}

int
d9a_check_main(const struct d9a_opts *o, FILE *f)
{
	struct d9o_rules rules;
	struct d9_json doc, base;
	char err[700], *text;
	size_t len;
	int rc, have_base = 0;

	if (d9o_rules_parse(&rules, o->checks, o->nchecks, o->baseline != NULL,
	    err, sizeof err) < 0) {
		d9a_note(NULL, err);
		d9o_rules_free(&rules);
		return 2;
	}
	if (o->baseline != NULL) {
		struct stat sb;

		rc = read_json(o->baseline, &text, &len);
		if (rc == 0) {
			snprintf(err, sizeof err, "--baseline %s: %s",
			    o->baseline, stat(o->baseline, &sb) != 0 ?
			    strerror(errno) : "not a --json output of d9top");
			d9a_note(NULL, err);
		}
		if (rc <= 0 || parse_doc(o->baseline, text, len, &base) != 0) {
			d9o_rules_free(&rules);
			return 1;
		}
		have_base = 1;
		if (d9_json_member(base.root, "pollByLoc") == NULL) {
			/* what every --json has: another JSON file given */
			snprintf(err, sizeof err, "--baseline %s: JSON without "
			    "pollByLoc: not a --json output of d9top",
			    o->baseline);
			d9a_note(NULL, err);
			rc = 1;
			goto out;
		}
	}
	if ((rc = run_doc(o, &doc)) != 0)
		goto out;
	if (d9o_rules_valid(&rules, doc.root, err, sizeof err) < 0) {
		d9a_note(NULL, err);
		rc = 2;
	} else {
		rc = d9o_rules_check(&rules, doc.root, have_base ? base.root :
		    NULL, f) ? 3 : 0;
	}
	d9_json_free(&doc);
out:
	if (have_base)
		d9_json_free(&base);
	d9o_rules_free(&rules);
	return rc;
}
