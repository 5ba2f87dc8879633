/* abbrev.c: see abbrev.h. */
#include <string.h>

#include "base/text.h"
#include "tui/abbrev.h"

#define NAMES_MAX	256	/* module names looked at */

static int
name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* Whether the name s[i, j) is a module's: lowercase, longer than a
 * letter, followed by "::" and not by a closure ("run::{{closure}}" is a
 * function). */
static int
module_name(const char *s, size_t i, size_t j)
{
	return s[i] >= 'a' && s[i] <= 'z' && j - i > 1 && s[j] == ':' &&
	    s[j + 1] == ':' && s[j + 2] != '{';
}

size_t
d9t_abbrev(const char *s, size_t cols, char *out, size_t cap)
{
	size_t at[NAMES_MAX], len[NAMES_MAX], n = 0, k = 0, saved = 0, o = 0;
	size_t have = d9_text_cols(s), over = have > cols ? have - cols : 0;

	if (cap == 0)
		return 0;
	for (size_t i = 0; over > 0 && s[i] != '\0' && n < NAMES_MAX; ) {
		size_t j = i;

		if (!name_char((unsigned char)s[i]) || (i > 0 &&
		    name_char((unsigned char)s[i - 1]))) {
			i++;
			continue;
		}
		while (name_char((unsigned char)s[j]))
			j++;
		if (module_name(s, i, j)) {
			at[n] = i;
			len[n++] = j - i;
		}
		i = j;
	}
	for (; k < n && saved < over; k++)	/* from the left, as needed */
		saved += len[k] - 1;
	for (size_t i = 0, m = 0; s[i] != '\0'; ) {
		if (o + 1 >= cap) {	/* cut by cap, not inside a character */
			if (((unsigned char)s[i] & 0xc0) == 0x80) {
				while (o > 0 &&
				    ((unsigned char)out[o - 1] & 0xc0) == 0x80)
					o--;
				if (o > 0)
					o--;	/* its first byte */
			}
			break;
		}
		if (m < k && i == at[m]) {
			out[o++] = s[i];
			i += len[m++];
		} else
			out[o++] = s[i++];
	}
	out[o] = '\0';
	return d9_text_cols(out);
}
