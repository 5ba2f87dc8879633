/*
 * minijson.h: a small JSON reader for tests: parses a document into a
 * tree and looks values up by path ("worstPolls.0.durNs"). Also proves
 * that d9top's output is valid JSON.
 */
#ifndef MINIJSON_H
#define MINIJSON_H

#include <stddef.h>

enum mj_type { MJ_NULL, MJ_BOOL, MJ_NUM, MJ_STR, MJ_ARR, MJ_OBJ };

struct mj {
	enum mj_type	 type;
	double		 num;
	char		*str;		/* MJ_STR; also object member key */
	char		*key;
	struct mj	*kids;		/* array items or object members */
	size_t		 n;
};

/* NULL on a syntax error (err gets the offset and reason). */
struct mj	*mj_parse(const char *text, char *err, size_t errlen);
void		 mj_free(struct mj *v);
/* Path lookup: dot-separated keys or array indexes; NULL if absent. */
const struct mj	*mj_get(const struct mj *v, const char *path);
/* A member by exact key (keys may contain dots). */
const struct mj	*mj_member(const struct mj *v, const char *key);
char		*mj_read_file(const char *path);
/* The same, with the length (the text may hold NULs). */
char		*mj_read_file_n(const char *path, size_t *n);

#endif
