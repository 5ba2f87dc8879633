/*
 * err.h: error codes and the error record every fallible call fills in.
 * Libraries never print or abort; they return -code and describe the
 * problem in a struct d9_err (what went wrong and at which byte).
 */
#ifndef D9_ERR_H
#define D9_ERR_H

#include <stdint.h>

#define D9_ERRORS(X) \
	X(OK,		"ok") \
	X(NOMEM,	"out of memory") \
	X(IO,		"read error") \
	X(TRUNCATED,	"truncated") \
	X(BAD_MAGIC,	"not a dial9 trace") \
	X(BAD_VERSION,	"unsupported format version") \
	X(BAD_FRAME,	"malformed frame") \
	X(BAD_TAG,	"unknown frame tag") \
	X(BAD_SCHEMA,	"bad schema") \
	X(BAD_VALUE,	"bad field value") \
	X(TOO_BIG,	"frame too large") \
	X(CONTAINER,	"bad compressed data") \
	X(USAGE,	"bad usage")

enum d9_code {
#define D9_X(name, text) D9_ERR_##name,
	D9_ERRORS(D9_X)
#undef D9_X
	D9_ERR_COUNT
};

/* On a function whose failure the caller must handle (a result that is
 * -1 or NULL when it failed): the compiler warns where it is dropped. */
#if defined(__GNUC__) || defined(__clang__)
#define D9_MUST_USE	__attribute__((warn_unused_result))
#else
#define D9_MUST_USE
#endif

#define D9_ERR_MSG_MAX 240

struct d9_err {
	int		code;		/* enum d9_code, 0 when no error */
	uint64_t	off;		/* byte offset the message refers to */
	char		msg[D9_ERR_MSG_MAX];
};

const char	*d9_err_name(int code);
/* Record an error; returns -code so callers can `return d9_err_set(...)`. */
int		 d9_err_set(struct d9_err *e, int code, uint64_t off,
		    const char *fmt, ...)
		    __attribute__((format(printf, 4, 5)));
void		 d9_err_clear(struct d9_err *e);

#endif
