/*
 * check.h: --check, rules over the --json figures for CI (DESIGN.md).
 *
 * RULES is a comma-separated list of KEY OP VALUE (commas inside [...]
 * do not separate). KEY is a path into the --json object: names joined
 * by '.', and [x] for a member whose name holds other characters
 * (pollByLoc[src/a.rs:1:1].p99) or an array index (worstPolls[0].durNs).
 * OP is one of < <= > >= == !=. VALUE is a number with an optional unit:
 * ns us ms s (times, which --json gives in nanoseconds, or in
 * milliseconds for a key ending in Ms) or B KB MB GB (bytes, powers of
 * 1000). A VALUE with a sign is a change against --baseline, the --json
 * output of an earlier run: +10% means the baseline's value plus 10 %,
 * -2ms the baseline's value less 2 ms.
 *
 * A rule is malformed (the run stops before any figure, exit 2) when it
 * does not parse, when its unit does not fit its key (a time for a
 * count: check.c's key_kind), when it is relative without a baseline,
 * when its first name is not a key of the --json output, or when KEY
 * names an object or a string. Times and sizes print in the rule's unit,
 * or as the report's when it has none. A rule fails when its value is
 * absent (a spawn location not in this run, a null percentile), when
 * the baseline has none for a relative rule, or when the comparison is
 * false.
 */
#ifndef D9O_CHECK_H
#define D9O_CHECK_H

#include <stddef.h>
#include <stdio.h>

struct d9_jval;

enum d9o_op { D9O_LT, D9O_LE, D9O_GT, D9O_GE, D9O_EQ, D9O_NE };
enum d9o_unit { D9O_U_NONE, D9O_U_TIME, D9O_U_BYTES };

struct d9o_rule {
	char		*text;		/* as given, blanks trimmed */
	char		*key;
	enum d9o_op	 op;
	double		 value;		/* in the unit's base (ns, B) */
	enum d9o_unit	 unit;
	const char	*unit_name;	/* "ms", or NULL */
	int		 relative;	/* +/-: against the baseline */
	int		 percent;	/* relative value in percent */
};

struct d9o_rules {
	struct d9o_rule	*v;
	size_t		 n;
};

/* Parse each of the n texts (each comma-separated rules). 0, or -1 with
 * a message naming the rule in err. */
int	d9o_rules_parse(struct d9o_rules *r, const char *const *texts,
	    size_t n, int have_baseline, char *err, size_t errlen);
void	d9o_rules_free(struct d9o_rules *r);
/* Whether every rule's key names a number (or null) kind of key of doc:
 * 0, or -1 with a message naming the rule. */
int	d9o_rules_valid(const struct d9o_rules *r, const struct d9_jval *doc,
	    char *err, size_t errlen);
/* Evaluate against doc (and base, for relative rules): one line per rule
 * to f, "PASS RULE: actual ..." or "FAIL RULE: ...". The number of rules
 * that failed. */
size_t	d9o_rules_check(const struct d9o_rules *r, const struct d9_jval *doc,
	    const struct d9_jval *base, FILE *f);

#endif
