#ifndef HTMLESC_H
#define HTMLESC_H

#include <stddef.h>

/* Number of bytes html_escape() writes for in[0..len), without the terminating NUL. */
size_t html_escaped_length(const char *in, size_t len);

/* Returns a newly allocated, NUL-terminated copy of in[0..len) in which &, <, >, " and '
 * are replaced by HTML entities, or NULL when out of memory. The caller frees it. */
char *html_escape(const char *in, size_t len);

#endif
