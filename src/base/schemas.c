/*
 * schemas.c: the tables D9_SCHEMAS expands to (one field array per
 * schema, then the schema table, both const), and the name lookup,
 * which also knows the older spellings of the span families.
 */
#include <string.h>

#include "base/schemas.h"

#define FIELDS_S(id, name, match) \
	static const struct d9_field_def fields_##id[] = {
#define FIELDS_F(id, field, name, type)	{ name, type },
#define FIELDS_E(id) }; \
	_Static_assert(D9_NF_##id <= D9_NF_MAX, "D9_NF_MAX too small");
D9_SCHEMAS(FIELDS_S, FIELDS_F, FIELDS_E)

#define DEF_S(id, name, match) \
	[D9_SCH_##id] = { name, match, D9_NF_##id, fields_##id },
static const struct d9_schema_def schemas[D9_SCH_COUNT] = {
	D9_SCHEMAS(DEF_S, D9_SCHEMAS_NONE4_, D9_SCHEMAS_NONE1_)
};

/* Other names of prefix families: hand-written events cannot contain
 * ':', and pre-release producers used one schema per direction. */
static const struct {
	const char	*name;
	uint8_t		 match;
	uint8_t		 id;
} aliases[] = {
	{ "SpanEnter__", D9_NAME_PREFIX, D9_SCH_SPAN_ENTER },
	{ "SpanEnterEvent", D9_NAME_EXACT, D9_SCH_SPAN_ENTER },
	{ "SpanExit__", D9_NAME_PREFIX, D9_SCH_SPAN_EXIT },
	{ "SpanExitEvent", D9_NAME_EXACT, D9_SCH_SPAN_EXIT },
	{ "SpanClose__", D9_NAME_PREFIX, D9_SCH_SPAN_CLOSE },
};

const struct d9_schema_def *
d9_schema(enum d9_schema id)
{
	return (unsigned)id < D9_SCH_COUNT ? &schemas[id] : NULL;
}

static int
matches(const char *name, const char *want, uint8_t match)
{
	return match == D9_NAME_PREFIX ?
	    strncmp(name, want, strlen(want)) == 0 : strcmp(name, want) == 0;
}

enum d9_schema
d9_schema_find(const char *name)
{
	for (size_t i = 0; i < D9_SCH_COUNT; i++)
		if (matches(name, schemas[i].name, schemas[i].match))
			return (enum d9_schema)i;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (matches(name, aliases[i].name, aliases[i].match))
			return (enum d9_schema)aliases[i].id;
	return D9_SCH_COUNT;
}
