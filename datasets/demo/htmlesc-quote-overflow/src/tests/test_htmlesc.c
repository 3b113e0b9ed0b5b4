#include "htmlesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect(const char *in, const char *want)
{
	char *got = html_escape(in, strlen(in));

	if (got == NULL || strcmp(got, want) != 0) {
		fprintf(stderr, "FAIL html_escape(\"%s\") = \"%s\", want \"%s\"\n", in, got ? got : "(null)", want);
		failures++;
	} else if (html_escaped_length(in, strlen(in)) != strlen(want)) {
		fprintf(stderr, "FAIL html_escaped_length(\"%s\") = %zu, want %zu\n", in,
			html_escaped_length(in, strlen(in)), strlen(want));
		failures++;
	}
	free(got);
}

int main(void)
{
	expect("", "");
	expect("plain text", "plain text");
	expect("a < b", "a &lt; b");
	expect("<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;");
	expect("fish & chips", "fish &amp; chips");
	expect("&amp;", "&amp;amp;");
	if (failures) {
		fprintf(stderr, "%d test(s) failed\n", failures);
		return 1;
	}
	printf("all tests passed\n");
	return 0;
}
