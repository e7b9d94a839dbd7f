/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_NET_CIDR_H
#define KTRACE_NET_CIDR_H

/*
 * Address ranges for `listen --allow CIDR`: "10.0.0.0/8", "fd00::/8", or a bare address (the
 * one host). An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) matches IPv4 ranges.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct net_cidr {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];	/* network byte order; 4 bytes used for AF_INET */
	unsigned int bits;	/* prefix length */
};

/* 0, or -EINVAL for anything but an address with an optional /prefix in range. */
int net_cidr_parse(const char *s, struct net_cidr *out);
/* Appends the range s to *list (*nr of them): 0, -ENOMEM, or -EINVAL when s is no range. */
int net_cidr_list_add(struct net_cidr **list, unsigned int *nr, const char *s);
/* True when the peer's address lies in the range. */
bool net_cidr_match(const struct net_cidr *c, const struct sockaddr *peer);

#endif
