/*
 * build.h: the parser sink that fills a model. The one switch from schema
 * name to event kind lives here; it runs once per schema registration and
 * leaves a field map on the schema, so events are routed without string
 * compares.
 */
#ifndef D9M_BUILD_H
#define D9M_BUILD_H

#include "model/core/model.h"
#include "parse/decoder.h"

int	 d9m_builder_new(struct d9m_model *m);
void	 d9m_builder_free(struct d9m_model *m);
void	 d9m_builder_sink(struct d9m_model *m, struct d9p_sink *sink);
/* Sort the model's tid maps by tid (pairs.h), for finishing; the
 * builder, if any, finds their rows again. -1 when out of memory. */
int	 d9m_builder_sort_tids(struct d9m_model *m);
/* Whether the next batch begins a new segment (the one being read
 * ended with its symbol appendix): a reader that keeps one segment at a
 * time finishes the model there (export/split.h). */
int	 d9m_builder_segment_ends(const struct d9m_model *m);

#endif
