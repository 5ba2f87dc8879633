/*
 * test_engine.c: the browser and the command line follow one rule. On
 * each real trace, for every task that was woken and polled, the chain
 * `c` shows from the task's last poll is the chain --chain TASK prints:
 * the same tasks, through the same polls, in the same order. (The
 * block-in-place trace records no wakes: nothing to compare there.)
 */
#include <stdio.h>

#include "fixture.h"
#include "model/wake.h"

static const char *const traces[] = { "demo-2026-06.bin.gz",
	"demo-2026-03.bin", "block-in-place-2026-05.bin" };

START_TEST(chain_browser_equals_cli)
{
	struct fx f;
	const struct d9m_model *m;
	const struct d9m_window all = { 0, UINT64_MAX };
	struct d9m_hop cli[D9M_CHAIN_MAX];
	size_t compared = 0, hops = 0;

	fx_open(&f, traces[_i], 120, 40, 1);
	m = f.app.m;
	for (uint32_t t = 0; t < m->tasks.n; t++) {
		uint32_t p = d9m_task_last_poll(m, t, &all);
		const struct d9m_hop *hop;
		size_t n, nh;

		if (m->wakes.by_woken_off[t] == m->wakes.by_woken_off[t + 1] ||
		    p == D9_NONE)
			continue;
		n = d9m_task_chain(m, m->tasks.id[t], &all, cli, D9M_CHAIN_MAX);
		fx_keys(&f, "1");
		d9t_select_poll(&f.app, p);
		fx_keys(&f, "c");
		hop = d9t_chain_hops(&f.app, &nh);
		ck_assert_uint_eq(nh, n);
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_eq(hop[i].task, cli[i].task);
			ck_assert_uint_eq(hop[i].poll, cli[i].poll);
			ck_assert_uint_eq(hop[i].wake, cli[i].wake);
		}
		fx_keys(&f, "q");
		compared++;
		hops += n;
	}
	fprintf(stderr, "%s: %zu chains, %zu hops compared\n", traces[_i],
	    compared, hops);
	if (m->wakes.n > 0) {
		ck_assert_uint_gt(compared, 0);
		ck_assert_uint_gt(hops, compared);	/* chains of hops */
	}
	fx_close(&f);
}
END_TEST

Suite *
suite_engine(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("chains");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, chain_browser_equals_cli, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}
