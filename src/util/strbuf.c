// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/strbuf.h"

int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	size_t alloc;
	char *buf;

	if (want < sb->len)
		return -ENOMEM;
	if (want <= sb->alloc)
		return 0;
	alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < want)
		alloc *= 2;
	buf = realloc(sb->buf, alloc);
	if (!buf)
		return -ENOMEM;
	sb->buf = buf;
	sb->alloc = alloc;
	return 0;
}

int strbuf_add_slow(struct strbuf *sb, const void *data, size_t len)
{
	int ret = strbuf_grow(sb, len);

	if (ret)
		return ret;
	/* an empty add may come with no data at all: memcpy's NULL is undefined even for 0 */
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_addstr(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n, ret;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return -EINVAL;
	ret = strbuf_grow(sb, (size_t)n);
	if (ret)
		return ret;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *buf = sb->buf;

	if (len)
		*len = sb->len;
	if (!buf)
		buf = calloc(1, 1);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	return buf;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = strbuf_read_fd(sb, fd);
	close(fd);
	return ret;
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	int ret = 0;

	for (;;) {
		ssize_t n;

		ret = strbuf_grow(sb, 65536);
		if (ret)
			break;
		n = read(fd, sb->buf + sb->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		sb->len += (size_t)n;
	}
	if (sb->buf)
		sb->buf[sb->len] = '\0';
	return ret;
}
