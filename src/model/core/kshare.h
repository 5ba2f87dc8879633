/*
 * kshare.h: a kernel address that one segment of a recorder names only
 * "[kernel] 0x..." takes the name another segment of the same boot_id
 * gives it (kshare.c says why the recorder leaves such rows).
 */
#ifndef D9M_KSHARE_H
#define D9M_KSHARE_H

#include "model/core/model.h"

/* Rewrites those rows' name and file in m->symbols (d9m_model_finish,
 * after the symbols are indexed): 1 when it named any, 0 when none, -1
 * out of memory. */
int	d9m_kernel_names_share(struct d9m_model *m);

#endif
