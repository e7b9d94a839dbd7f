/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_NET_BYTES_H
#define KTRACE_NET_BYTES_H

/* Numbers on the wire: trace-cmd's protocol sends every field in network (big-endian) order. */
#include <stdint.h>

static inline uint32_t net_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void net_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint64_t net_get_be64(const uint8_t *p)
{
	return (uint64_t)net_get_be32(p) << 32 | net_get_be32(p + 4);
}

static inline void net_put_be64(uint8_t *p, uint64_t v)
{
	net_put_be32(p, (uint32_t)(v >> 32));
	net_put_be32(p + 4, (uint32_t)v);
}

#endif
