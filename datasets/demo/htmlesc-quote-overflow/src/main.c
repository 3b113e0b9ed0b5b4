/* htmlesc [FILE]: writes FILE (or standard input) to standard output, HTML-escaped. */
#include "htmlesc.h"

#include <stdio.h>
#include <stdlib.h>

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0, got;
	char *buf = malloc(cap);

	while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *bigger = realloc(buf, cap *= 2);

			if (bigger == NULL)
				free(buf);
			buf = bigger;
		}
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
	size_t len;
	char *text, *escaped;

	if (argc > 2) {
		fprintf(stderr, "usage: htmlesc [FILE]\n");
		return 2;
	}
	if (f == NULL) {
		perror(argv[1]);
		return 2;
	}
	text = read_all(f, &len);
	escaped = text != NULL ? html_escape(text, len) : NULL;
	if (escaped == NULL) {
		fprintf(stderr, "htmlesc: out of memory\n");
		return 2;
	}
	fputs(escaped, stdout);
	free(escaped);
	free(text);
	return 0;
}
