// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text prologue of trace-cmd's protocol: the version request, the v3 magic, and the
 * whole version 1 setup. Everything here parses untrusted bytes; no string may run longer
 * than NUM_MAX, so a client cannot make the listener buffer more than a few bytes.
 */
#include <errno.h>
#include <string.h>

#include "ktrace/net.h"

/* Longest decimal string accepted ("4294967295" + NUL fits). */
#define NUM_MAX		16
#define V1_OPTIONS_MAX	16

/*
 * Finds the NUL-terminated string at buf[*pos]: 1 with *s set, 0 if the NUL has not arrived
 * yet, -EBADMSG when the string is longer than NUM_MAX.
 */
static int take_string(const uint8_t *buf, size_t len, size_t *pos, const char **s)
{
	size_t left = len - *pos;
	const uint8_t *nul;

	nul = memchr(buf + *pos, '\0', left < NUM_MAX ? left : NUM_MAX);
	if (!nul)
		return left < NUM_MAX ? 0 : -EBADMSG;
	*s = (const char *)buf + *pos;
	*pos = (size_t)(nul - buf) + 1;
	return 1;
}

static int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -EBADMSG;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EBADMSG;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return -EBADMSG;
	}
	*out = (uint32_t)v;
	return 0;
}

int net_hello_parse(const void *buf, size_t len, enum net_hello *hello)
{
	const char *s;
	size_t pos = 0;
	uint32_t cpus;
	int ret;

	ret = take_string(buf, len, &pos, &s);
	if (ret <= 0)
		return ret;
	if (!strcmp(s, NET_V3_REQUEST)) {
		*hello = NET_HELLO_V3;
		return (int)pos;
	}
	if (!strncmp(s, "-1V", 3))
		return -EPROTONOSUPPORT;
	if (parse_u32(s, &cpus))
		return -EBADMSG;
	*hello = NET_HELLO_V1;
	return (int)pos;
}

int net_v3_magic_parse(const void *buf, size_t len)
{
	size_t n = len < NET_V3_MAGIC_LEN ? len : NET_V3_MAGIC_LEN;

	if (memcmp(buf, NET_V3_MAGIC "", n))
		return -EBADMSG;
	return len < NET_V3_MAGIC_LEN ? 0 : NET_V3_MAGIC_LEN;
}

static int take_number(const uint8_t *buf, size_t len, size_t *pos, uint32_t *v)
{
	const char *s;
	int ret = take_string(buf, len, pos, &s);

	if (ret <= 0)
		return ret;
	return parse_u32(s, v) ? -EBADMSG : 1;
}

static int v1_options(const uint8_t *p, size_t len, size_t *pos, uint32_t nopts,
		      struct net_v1_init *out)
{
	uint32_t i, size;
	int ret;

	for (i = 0; i < nopts; i++) {
		ret = take_number(p, len, pos, &size);
		if (ret <= 0)
			return ret;
		/*
		 * "TCP\0" is the only option there is, and trace-cmd refuses others too: checking
		 * the size first keeps the whole prologue within a few dozen bytes.
		 */
		if (size != 4)
			return -EINVAL;
		if (len - *pos < size)
			return 0;
		if (memcmp(p + *pos, "TCP", 4))
			return -EINVAL;
		out->tcp = 1;
		*pos += size;
	}
	return 1;
}

int net_v1_parse(const void *buf, size_t len, struct net_v1_init *out)
{
	const uint8_t *p = buf;
	uint32_t nopts;
	size_t pos = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = take_number(p, len, &pos, &out->cpus);
	if (ret > 0)
		ret = take_number(p, len, &pos, &out->page_size);
	if (ret > 0)
		ret = take_number(p, len, &pos, &nopts);
	if (ret <= 0)
		return ret;
	if (!out->cpus || out->cpus > NET_MAX_CPUS || out->page_size < NET_MIN_PAGE_SIZE ||
	    out->page_size > NET_MAX_PAGE_SIZE || (out->page_size & (out->page_size - 1)) ||
	    nopts > V1_OPTIONS_MAX)
		return -EINVAL;
	ret = v1_options(p, len, &pos, nopts, out);
	if (ret <= 0)
		return ret;
	return (int)pos;
}
