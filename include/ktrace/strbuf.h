/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_STRBUF_H
#define KTRACE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A small growable byte buffer, always NUL-terminated, used everywhere instead of ad hoc
 * realloc arithmetic. A zeroed struct (STRBUF_INIT) is a valid empty buffer.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

int strbuf_grow(struct strbuf *sb, size_t extra);
int strbuf_add_slow(struct strbuf *sb, const void *data, size_t len);
int strbuf_addstr(struct strbuf *sb, const char *s);

/*
 * Inline while the buffer has room (the JSON and Parquet builders add a few bytes a call,
 * millions of times); strbuf_add_slow grows it.
 */
static inline int strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (len && len < sb->alloc - sb->len) {
		__builtin_memcpy(sb->buf + sb->len, data, len);
		sb->len += len;
		sb->buf[sb->len] = '\0';
		return 0;
	}
	return strbuf_add_slow(sb, data, len);
}

static inline int strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->len + 1 < sb->alloc) {
		sb->buf[sb->len++] = (char)c;
		sb->buf[sb->len] = '\0';
		return 0;
	}
	return strbuf_add_slow(sb, &(char){ (char)c }, 1);
}
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* The buffer's text, "" when nothing was ever added. */
const char *strbuf_str(const struct strbuf *sb);
/* Hands the allocation to the caller; the strbuf is empty afterwards. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/*
 * Appends the whole content of the file at path (through EINTR): 0 or negative errno. After
 * a successful read sb->buf is allocated, even for an empty file.
 */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* The same from an open file, up to its end (the caller closes it). */
int strbuf_read_fd(struct strbuf *sb, int fd);

#endif
