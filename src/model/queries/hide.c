/*
 * hide.c: see hide.h. The pattern is read in place at each frame (it is
 * short, and a tree resolves each distinct stack once).
 */
#include <string.h>

#include "model/figures/framekind.h"
#include "model/figures/observer.h"
#include "model/queries/hide.h"

int
d9m_hide_match(const char *pattern, const char *name)
{
	const char *p = pattern, *s;

	if (pattern == NULL || name == NULL)
		return 0;
	s = name + (*name == '<');
	while (*p != '\0') {
		size_t n = strcspn(p, "|");

		if (n > 0 && ((n == 9 && strncmp(p, "@recorder", 9) == 0 &&
		    d9m_is_recorder_frame(name)) || strncmp(s, p, n) == 0))
			return 1;
		p += n + (p[n] == '|');
	}
	return 0;
}

size_t
d9m_hide_frames(const char *pattern, struct d9m_frame *fr, size_t n)
{
	size_t k = 0;

	if (pattern == NULL || *pattern == '\0')
		return n;
	for (size_t i = 0; i < n; i++) {
		if (d9m_hide_match(pattern, d9m_frame_name(&fr[i])))
			continue;
		if (k != i)
			fr[k] = fr[i];
		k++;
	}
	return k;
}

size_t
d9m_plumbing_run(const struct d9m_frame *f, size_t n)
{
	size_t k = 0;

	for (; k < n; k++) {
		enum d9m_frame_kind c = d9m_frame_kind(&f[k]);

		if (c == D9M_FK_APP && !d9m_hide_match(D9M_HIDE_DEFAULT,
		    d9m_frame_name(&f[k])))
			break;
	}
	return k;
}
