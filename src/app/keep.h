/*
 * keep.h: writing the index entry of a freshly read model in the
 * background, so that a headless run (--json, --report, ...) answers as
 * soon as its analysis is done instead of waiting for the entry to be
 * written (the model is often larger than the traces). A detached
 * process, a copy of this one made by fork at the moment the model is
 * finished, writes the entry once this one is done with the model, and
 * leaves; it holds the entry's lock
 * (d9i_claim) until the entry is in place, so a d9top started in
 * the meantime waits for it rather than reading the traces again.
 */
#ifndef D9A_KEEP_H
#define D9A_KEEP_H

#include <stddef.h>

#include "model/core/model.h"
#include "store/store.h"

/* Hand the writing of the entry of in (m: its model, finished, sealed)
 * to a detached process, which starts once *go is closed (-1: nothing to
 * close; the caller closes it when done with the model, or by exiting):
 * 0 when handed over or when another d9top is writing it already; -1
 * when no process could be made (the caller writes it itself). Call
 * with no other thread running. */
int	d9a_keep(struct d9i_store *in, const struct d9m_model *m, int *go);

#endif
