// SPDX-License-Identifier: GPL-2.0-only
/* Address ranges (net_cidr.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/net_cidr.h"

int net_cidr_parse(const char *s, struct net_cidr *out)
{
	const char *slash = strchr(s, '/');
	char addr[INET6_ADDRSTRLEN];
	size_t len = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long bits;
	char *end;

	memset(out, 0, sizeof(*out));
	if (!len || len >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (inet_pton(AF_INET, addr, out->addr) == 1)
		out->family = AF_INET;
	else if (inet_pton(AF_INET6, addr, out->addr) == 1)
		out->family = AF_INET6;
	else
		return -EINVAL;
	out->bits = out->family == AF_INET ? 32 : 128;
	if (!slash)
		return 0;
	if (slash[1] < '0' || slash[1] > '9')
		return -EINVAL;
	bits = strtoul(slash + 1, &end, 10);
	if (*end || bits > out->bits)
		return -EINVAL;
	out->bits = (unsigned int)bits;
	return 0;
}

static bool prefix_equal(const uint8_t *a, const uint8_t *b, unsigned int bits)
{
	unsigned int whole = bits / 8, rest = bits % 8;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));

	if (memcmp(a, b, whole))
		return false;
	return !rest || !((a[whole] ^ b[whole]) & mask);
}

bool net_cidr_match(const struct net_cidr *c, const struct sockaddr *peer)
{
	static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };
	const uint8_t *a;

	if (peer->sa_family == AF_INET) {
		a = (const uint8_t *)&((const struct sockaddr_in *)peer)->sin_addr;
		return c->family == AF_INET && prefix_equal(a, c->addr, c->bits);
	}
	if (peer->sa_family != AF_INET6)
		return false;
	a = (const uint8_t *)&((const struct sockaddr_in6 *)peer)->sin6_addr;
	if (c->family == AF_INET6)
		return prefix_equal(a, c->addr, c->bits);
	return !memcmp(a, v4_mapped, sizeof(v4_mapped)) && prefix_equal(a + 12, c->addr, c->bits);
}

int net_cidr_list_add(struct net_cidr **list, unsigned int *nr, const char *s)
{
	struct net_cidr *n = realloc(*list, (*nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	*list = n;
	if (net_cidr_parse(s, &n[*nr]))
		return -EINVAL;
	(*nr)++;
	return 0;
}
