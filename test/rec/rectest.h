/*
 * rectest.h: helpers of the libd9rec tests: scratch directories, writer
 * options for deterministic runs (fake clock, no profiling, no
 * compression), loading a directory through src/parse + src/model, and
 * reading model rows back as text.
 */
#ifndef D9_TEST_RECTEST_H
#define D9_TEST_RECTEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "d9rec.h"
#include "model/core/model.h"

char	*rt_tmpdir(void);
void	 rt_rmdir(char **dir);
/* Deterministic options: clock from *clk, nothing but the API's events. */
void	 rt_opts(struct d9rec_options *o, const char *dir, uint64_t *clk);
uint64_t rt_clock(void *ctx);
/* Load and finish a model of dir; *nerr: messages about bad input. */
struct d9m_model *rt_load(const char *dir, size_t *nerr);
/* Files in dir whose name ends with suffix ("" = all but hidden). */
size_t	 rt_files(const char *dir, const char *suffix);
uint64_t rt_dir_bytes(const char *dir);
/* Value of key in a field list, or NULL. */
const char *rt_field(const struct d9m_model *m, uint32_t list,
	    const char *key);
/* Symbol name of an address in segment seg, or NULL. */
const char *rt_symbol(const struct d9m_model *m, uint32_t seg, uint64_t addr);
/* Whether any frame of stack id resolves to name (or a clone of it). */
int	 rt_stack_has(const struct d9m_model *m, uint32_t seg, uint32_t stack,
	    const char *name);
size_t	 rt_count_kind(const struct d9m_model *m, int kind);
/* per poll pairs of tasks first.. and a flush, rounds times. */
void	 rt_rounds(d9rec_writer *w, struct d9rec_thread *t, uint64_t first,
	    int rounds, int per);
/* Stats handed from a child process to the test: save returns 0 or -1
 * (for the child's exit status), load asserts. */
int	 rt_stats_save(const char *path, const struct d9rec_stats *st);
void	 rt_stats_load(const char *path, struct d9rec_stats *st);

/* Output of a shell command that must exit 0 (malloc'd). */
char	*rt_run(const char *cmd);
/* The number after "key": in json (first occurrence after *from when
 * from is set; *from moves there). */
double	 rt_num(const char *json, const char *key, const char **from);

TCase	*rt_tcase_roundtrip(void);
TCase	*rt_tcase_files(void);
TCase	*rt_tcase_gzip(void);
TCase	*rt_tcase_robust(void);
TCase	*rt_tcase_loss(void);
TCase	*rt_tcase_retain(void);
TCase	*rt_tcase_disk(void);
TCase	*rt_tcase_e2e(void);
TCase	*rt_tcase_sched(void);
TCase	*rt_tcase_ksyms(void);
TCase	*rt_tcase_cost(void);
TCase	*rt_tcase_random(void);
TCase	*rt_tcase_signal(void);
TCase	*rt_tcase_owner(void);

#endif
