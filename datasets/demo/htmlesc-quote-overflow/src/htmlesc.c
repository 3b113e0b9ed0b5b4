#include "htmlesc.h"

#include <stdlib.h>
#include <string.h>

static const char *entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

size_t html_escaped_length(const char *in, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		switch (in[i]) {
		case '&': n += 5; break;
		case '<':
		case '>': n += 4; break;
		default: n += 1; break;
		}
	}
	return n;
}

char *html_escape(const char *in, size_t len)
{
	char *out = malloc(html_escaped_length(in, len) + 1);
	char *p = out;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		const char *e = entity(in[i]);

		if (e != NULL) {
			size_t n = strlen(e);

			memcpy(p, e, n);
			p += n;
		} else {
			*p++ = in[i];
		}
	}
	*p = '\0';
	return out;
}
