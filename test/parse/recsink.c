/*
 * recsink.c: the recording sink. It copies every value out while the
 * event call lasts (pointers are only valid then), which is also how a
 * real sink must treat pooled values, and it walks every map entry and
 * stack address so that a fuzzer or a sanitizer sees each byte read.
 */
#include <string.h>

#include "base/wire.h"
#include "recsink.h"

void
rec_init(struct rec *r)
{
	memset(r, 0, sizeof *r);
	r->keep = 1;
}

void
rec_free(struct rec *r)
{
	tg_free(&r->log);
	tg_free(&r->notes);
	tg_free(&r->scratch);
}

void
rec_clear(struct rec *r)
{
	tg_reset(&r->log);
	tg_reset(&r->notes);
	r->nnotes = 0;
	r->nevents = 0;
	r->sum = r->hash = 0;
	r->cuts = r->copies = r->damaged = 0;
	memset(&r->st, 0, sizeof r->st);
}

static void
quoted(struct tg *out, const uint8_t *p, size_t n)
{
	tg_u8(out, '"');
	for (size_t i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] > 0x7e || p[i] == '"' || p[i] == '\\')
			tg_printf(out, "\\x%02x", p[i]);
		else
			tg_u8(out, p[i]);
	}
	tg_u8(out, '"');
}

static void
stack(struct tg *out, const uint8_t *p, uint32_t n)
{
	tg_u8(out, '[');
	for (uint32_t i = 0; i < n; i++)
		tg_printf(out, "%s0x%llx", i ? "," : "",
		    (unsigned long long)d9p_le64(p + 8 * (size_t)i));
	tg_u8(out, ']');
}

static void
map(struct tg *out, const struct d9p_value *v)
{
	size_t pos = 0;
	const char *k, *val;
	uint32_t kl, vl, i = 0;

	tg_u8(out, '{');
	while (d9p_map_next(v, &pos, &k, &kl, &val, &vl) == 0) {
		if (i++)
			tg_u8(out, ',');
		tg_raw(out, k, kl);
		tg_u8(out, '=');
		tg_raw(out, val, vl);
	}
	tg_u8(out, '}');
	if (i != v->count)
		tg_printf(out, "!%u entries", i);
}

void
rec_value(struct tg *out, const struct d9p_field *f, const struct d9p_value *v)
{
	double d;

	if (!v->present) {
		tg_u8(out, '-');
		return;
	}
	if (v->unresolved) {
		tg_printf(out, "?#%llu", (unsigned long long)v->u);
		return;
	}
	switch (v->type) {
	case D9_FT_I64:
		tg_printf(out, "%lld", (long long)v->u);
		break;
	case D9_FT_F64:
		memcpy(&d, &v->u, sizeof d);
		tg_printf(out, "%g", d);
		break;
	case D9_FT_BOOL:
		tg_printf(out, "%s", v->u ? "true" : "false");
		break;
	case D9_FT_STRING:
	case D9_FT_BYTES:
	case D9_FT_POOLED_STRING:
		quoted(out, v->p, v->count);
		break;
	case D9_FT_STACK:
	case D9_FT_POOLED_STACK:
		stack(out, v->p, v->count);
		break;
	case D9_FT_STRING_MAP:
		map(out, v);
		break;
	case D9_FT_DYN_LIST:
	case D9_FT_DYN_MAP:
		tg_u8(out, '<');
		for (uint64_t i = 0; i < v->u; i++) {
			tg_u8(out, (uint8_t)"0123456789abcdef"[v->p[i] >> 4]);
			tg_u8(out, (uint8_t)"0123456789abcdef"[v->p[i] & 15]);
		}
		tg_u8(out, '>');
		break;
	default:
		tg_printf(out, "%llu", (unsigned long long)v->u);
		break;
	}
	if (f && f->unit) {
		tg_u8(out, '[');
		tg_raw(out, f->unit, f->unit_len);
		tg_u8(out, ']');
	}
}

/* Move the line in scratch to the log, or fold it into the checksum. */
static void
emit(struct rec *r)
{
	tg_u8(&r->scratch, '\n');
	if (r->keep)
		tg_raw(&r->log, r->scratch.p, r->scratch.n);
	else
		for (size_t i = 0; i < r->scratch.n; i++) {
			r->sum += r->scratch.p[i];
			r->hash = (r->hash ^ r->scratch.p[i]) *
			    0x100000001b3ull;
		}
	tg_reset(&r->scratch);
}

static int
on_schema(void *ctx, struct d9p_schema *s)
{
	struct rec *r = ctx;

	if (r->keep < 0)
		return 0;
	tg_printf(&r->scratch, "schema %u %s%s", s->id, s->name,
	    s->has_ts ? "" : " nots");
	for (uint16_t i = 0; i < s->nfields; i++)
		tg_printf(&r->scratch, " %s:%u", s->fields[i].name,
		    s->fields[i].type |
		    (s->fields[i].optional ? D9_FT_OPTIONAL : 0));
	emit(r);
	return 0;
}

static int
on_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct rec *r = ctx;

	if (r->stop_after && r->nevents >= r->stop_after)
		return -1;
	r->nevents++;
	if (r->keep < 0)
		return 0;
	tg_printf(&r->scratch, "%s@%llu", s->name, (unsigned long long)ts);
	for (uint16_t i = 0; i < s->nfields; i++) {
		tg_printf(&r->scratch, " %s=", s->fields[i].name);
		rec_value(&r->scratch, &s->fields[i], &v[i]);
	}
	emit(r);
	return 0;
}

static void
on_batch(void *ctx, uint64_t off)
{
	struct rec *r = ctx;

	if (r->keep < 0)
		return;
	tg_printf(&r->scratch, "batch @%llu", (unsigned long long)off);
	emit(r);
}

static void
on_input(void *ctx, const char *name)
{
	struct rec *r = ctx;

	if (r->keep < 0)
		return;
	tg_printf(&r->scratch, "input %s", name);
	emit(r);
}

static void
on_note(void *ctx, const char *msg)
{
	struct rec *r = ctx;

	tg_printf(&r->notes, "%s\n", msg);
	r->nnotes++;
}

static void
on_loss(void *ctx, int what)
{
	struct rec *r = ctx;

	if (what == D9P_LOSS_CUT)
		r->cuts++;
	else if (what == D9P_LOSS_DAMAGED)
		r->damaged++;
	else if (what == D9P_LOSS_UNREAD)
		r->unread++;
	else
		r->copies++;
}

struct d9p_sink
rec_sink(struct rec *r)
{
	struct d9p_sink s = { .ctx = r, .schema = on_schema,
	    .event = on_event, .batch = on_batch, .input = on_input,
	    .loss = on_loss };

	return s;
}

struct d9p_read_opts
rec_opts(struct rec *r)
{
	struct d9p_read_opts o = { .note = on_note, .note_ctx = r,
	    .stream_only = r->stream_only,
	    .whole_alone = !r->lone_streams, .mem_budget = r->mem_budget };

	return o;
}

int
rec_read_fd(struct rec *r, int fd, const char *name, int in_dir)
{
	struct d9p_sink s = rec_sink(r);
	struct d9p_read_opts o = rec_opts(r);

	return d9p_read_fd(fd, name, in_dir, &s, &o, &r->st);
}

int
rec_read(struct rec *r, const void *p, size_t n)
{
	return rec_read_fd(r, tg_memfd(p, n), "t", 0);
}

int
rec_read_paths(struct rec *r, const char *const *paths, size_t n)
{
	struct d9p_sink s = rec_sink(r);
	struct d9p_read_opts o = rec_opts(r);

	return d9p_read_paths(paths, n, &s, &o, &r->st);
}

const char *
rec_log(struct rec *r)
{
	return tg_cstr(&r->log);
}

const char *
rec_notes(struct rec *r)
{
	return tg_cstr(&r->notes);
}

const char *
rec_inputs(struct rec *r, const char *prefix, struct tg *out)
{
	const char *p = rec_log(r);
	size_t k = strlen(prefix);

	tg_reset(out);
	while ((p = strstr(p, "input ")) != NULL) {
		const char *e = strchr(p, '\n');

		p += 6;
		if (strncmp(p, prefix, k) == 0)
			p += k;
		tg_printf(out, "%.*s\n", (int)(e - p), p);
		p = e;
	}
	return tg_cstr(out);
}
