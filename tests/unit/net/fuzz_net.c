// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for everything the listener parses from the network: protocol messages, the
 * text prologue, and the trace.dat metadata a client sends.
 *
 * libFuzzer build (clang):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -DKT_LIBFUZZER -D_GNU_SOURCE \
 *     -Iinclude -Isrc/listen tests/unit/net/fuzz_net.c src/net/net_msg.c src/net/net_hello.c src/listen/meta.c \
 *     src/strbuf.c -o fuzz_net && ./fuzz_net -max_total_time=60
 * Without KT_LIBFUZZER it builds its own driver, run briefly by the unit suite: a fixed-seed
 * mutation loop over valid messages and metadata (iterations in argv[1]).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktrace/dat_format.h"
#include "ktrace/net.h"
#include "listen.h"

static int meta_fd = -1;

static void parse_messages(const uint8_t *data, size_t size)
{
	unsigned int ports[NET_MAX_CPUS];
	struct net_msg m;
	const char *s;
	size_t pos;
	int n;

	while (size) {
		n = net_msg_parse_max(data, size, 1U << 20, &m);
		if (n <= 0)
			return;
		if ((size_t)n > size || m.size != (uint32_t)n)
			abort();
		pos = 0;
		while (net_msg_next_string(&m, &pos, &s) > 0)
			if (pos > m.payload_len || strlen(s) >= m.payload_len)
				abort();
		if (m.cmd == NET_RINIT)
			net_rinit_ports(&m, ports, m.rinit.cpus);
		data += n;
		size -= (size_t)n;
	}
}

static void parse_prologue(const uint8_t *data, size_t size)
{
	struct net_v1_init v1;
	enum net_hello hello;
	int n = net_hello_parse(data, size, &hello);

	if (n > 0 && (size_t)n > size)
		abort();
	if (n > 0 && hello == NET_HELLO_V3)
		net_v3_magic_parse(data + n, size - (size_t)n);
	n = net_v1_parse(data, size, &v1);
	if (n > 0 && (size_t)n > size)
		abort();
}

static void parse_metadata(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_meta m;

	if (meta_fd < 0)
		meta_fd = memfd_create("fuzz-meta", 0);
	if (meta_fd < 0 || ftruncate(meta_fd, 0) ||
	    pwrite(meta_fd, data, size, 0) != (ssize_t)size)
		abort();
	if (!dat_meta_scan(meta_fd, size, &m, &err) &&
	    (m.options_next_at + 8 > size || (m.version != 6 && m.version != 7)))
		abort();
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_messages(data, size);
	parse_prologue(data, size);
	parse_metadata(data, size);
	return 0;
}

#ifndef KT_LIBFUZZER
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static void le(struct strbuf *sb, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		strbuf_addch(sb, (int)(v >> (8 * i)) & 0xff);
}

/* The smallest metadata a v6 client could send, with a TRACECLOCK option. */
static void seed_v6(struct strbuf *sb)
{
	strbuf_add(sb, DAT_MAGIC, DAT_MAGIC_LEN);
	strbuf_add(sb, "6\0\0\x08", 4);
	le(sb, 4096, 4);
	strbuf_add(sb, "header_page", 12);
	le(sb, 3, 8);
	strbuf_add(sb, "abc", 3);
	strbuf_add(sb, "header_event", 13);
	le(sb, 0, 8);
	le(sb, 1, 4);
	le(sb, 2, 8);
	strbuf_add(sb, "xy", 2);
	le(sb, 1, 4);
	strbuf_add(sb, "sched", 6);
	le(sb, 1, 4);
	le(sb, 1, 8);
	strbuf_addch(sb, 'z');
	le(sb, 0, 4);
	le(sb, 0, 4);
	le(sb, 0, 8);
	le(sb, 2, 4);
	strbuf_add(sb, "options  ", 10);
	le(sb, DAT_OPT_TRACECLOCK, 2);
	le(sb, 14, 4);
	strbuf_add(sb, "[local] global", 14);
	le(sb, 0, 2);
}

static void seed_v7(struct strbuf *sb)
{
	strbuf_add(sb, DAT_MAGIC, DAT_MAGIC_LEN);
	strbuf_add(sb, "7\0\0\x08", 4);
	le(sb, 4096, 4);
	strbuf_add(sb, "zstd\0" "1.5.4", 11);
	le(sb, sb->len + 8, 8);
	le(sb, 0, 2);
	le(sb, 0, 2);
	le(sb, 0, 4);
	le(sb, 6 + 4 + 6 + 8, 8);
	le(sb, DAT_OPT_CPUCOUNT, 2);
	le(sb, 4, 4);
	le(sb, 2, 4);
	le(sb, 0, 2);
	le(sb, 8, 4);
	le(sb, 0, 8);
}

static void seed_messages(struct strbuf *sb)
{
	unsigned int ports[2] = { 1500, 1501 };

	strbuf_add(sb, "-1V3\0" NET_V3_MAGIC, 5 + NET_V3_MAGIC_LEN);
	net_encode_tinit(sb, 2, 4096, 1);
	net_encode_rinit(sb, ports, 2);
	net_encode_data(sb, "metadata", 8);
	net_encode_simple(sb, NET_FIN_DATA);
	net_encode_simple(sb, NET_CLOSE);
}

static const uint32_t boundary[] = { 0, 1, 11, 12, 13, 8191, 8192, 8193, 0x7fffffff,
				     0x80000000, 0xfffffff4, 0xffffffff };

static void mutate(uint8_t *buf, size_t *len, size_t cap)
{
	size_t pos = *len ? next_rand() % *len : 0;
	uint32_t v;

	switch (next_rand() % 5) {
	case 0:
		buf[pos] ^= (uint8_t)(1U << (next_rand() % 8));
		break;
	case 1:
		buf[pos] = (uint8_t)next_rand();
		break;
	case 2:
		v = boundary[next_rand() % (sizeof(boundary) / sizeof(boundary[0]))];
		if (pos + 4 <= *len)
			memcpy(buf + pos, &v, 4);
		break;
	case 3:
		*len = pos;
		break;
	default:
		if (*len < cap)
			buf[(*len)++] = (uint8_t)next_rand();
		break;
	}
}

int main(int argc, char **argv)
{
	long iterations = argc > 1 ? atol(argv[1]) : 100000;
	struct strbuf seeds[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	uint8_t buf[4096];
	size_t len;
	long i;
	int k, n;

	seed_messages(&seeds[0]);
	seed_v6(&seeds[1]);
	seed_v7(&seeds[2]);
	for (k = 1; k < 3; k++) {
		struct strbuf err = STRBUF_INIT;
		struct dat_meta m;

		/* The seeds must be valid, or the loop would explore nothing deep. */
		parse_metadata((const uint8_t *)seeds[k].buf, seeds[k].len);
		if (dat_meta_scan(meta_fd, seeds[k].len, &m, &err)) {
			fprintf(stderr, "seed %d is invalid: %s\n", k, strbuf_str(&err));
			return 1;
		}
		strbuf_release(&err);
	}
	for (i = 0; i < iterations; i++) {
		k = (int)(next_rand() % 3);
		len = seeds[k].len < sizeof(buf) ? seeds[k].len : sizeof(buf);
		memcpy(buf, seeds[k].buf, len);
		for (n = 1 + (int)(next_rand() % 4); n > 0; n--)
			mutate(buf, &len, sizeof(buf));
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("%ld inputs, no crash\n", iterations);
	for (k = 0; k < 3; k++)
		strbuf_release(&seeds[k]);
	close(meta_fd);
	return 0;
}
#endif
