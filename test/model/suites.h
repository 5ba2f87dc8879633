/* suites.h: the suites of test-model (test/model: src/model's core,
 * queries and figures), one per module, and what their tests share. */
#ifndef D9_MODEL_SUITES_H
#define D9_MODEL_SUITES_H

#include <check.h>
#include <stdint.h>

/* The next number of a xorshift sequence (*s: its state, not 0). */
static inline uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

Suite	*model_suite(void);
Suite	*analysis_suite(void);
Suite	*window_suite(void);
Suite	*sort_suite(void);
Suite	*engine_suite(void);
Suite	*loss_suite(void);
Suite	*sources_suite(void);
Suite	*events_suite(void);
Suite	*series_suite(void);
Suite	*diff_suite(void);
Suite	*dial95_suite(void);
Suite	*lives_suite(void);
Suite	*ids_suite(void);
Suite	*deep_suite(void);
Suite	*spantags_suite(void);
Suite	*stackgroups_suite(void);

#endif
