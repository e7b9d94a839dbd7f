// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: bytes a `trace-cmd record -N` client (or anyone) sends to `ktrace listen`.
 * The input is read as the listener reads a connection: the text prologue first, then a
 * stream of protocol messages, each walked the way the server uses it. Every message that
 * parses must also survive an encode/parse round trip unchanged: a mismatch aborts, so the
 * fuzzer reports it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cpu_budget.h"
#include "ktrace/net.h"
#include "ktrace/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_strings(const struct net_msg *m)
{
	const char *s;
	size_t pos = 0;
	size_t total = 0;

	while (net_msg_next_string(m, &pos, &s) > 0)
		total += strlen(s);
	(void)total;
}

static void check_round_trip(const struct net_msg *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_msg again;
	int n;

	if (net_msg_encode(&sb, m->cmd, m->fixed, m->fixed_len, m->payload, m->payload_len))
		goto out;
	n = net_msg_parse_max(sb.buf, sb.len, sb.len, &again);
	if (n != (int)m->size || again.cmd != m->cmd || again.fixed_len != m->fixed_len ||
	    again.payload_len != m->payload_len ||
	    memcmp(again.payload, m->payload, m->payload_len))
		abort();
out:
	strbuf_release(&sb);
}

static void use_message(const struct net_msg *m)
{
	unsigned int *ports;

	walk_strings(m);
	if (m->cmd == NET_RINIT && m->rinit.cpus <= NET_MAX_CPUS) {
		ports = calloc(m->rinit.cpus + 1, sizeof(*ports));
		if (ports)
			net_rinit_ports(m, ports, m->rinit.cpus);
		free(ports);
	}
	check_round_trip(m);
}

/* Messages back to back, as on the control connection, with the phase checks of a session. */
static void read_messages(const uint8_t *p, size_t len, size_t max_len)
{
	enum net_phase phase = NET_PHASE_TINIT;
	struct net_msg m;
	int n, next;

	while (len > 0) {
		n = net_msg_parse_max(p, len, max_len, &m);
		if (n <= 0)
			break;
		if ((size_t)n > len)
			abort();
		use_message(&m);
		next = net_phase_next(phase, m.cmd);
		phase = next < 0 ? NET_PHASE_TINIT : (enum net_phase)next;
		p += n;
		len -= (size_t)n;
	}
}

static void read_prologue(const uint8_t *p, size_t len)
{
	struct net_v1_init v1;
	enum net_hello hello;
	int n = net_hello_parse(p, len, &hello);

	if (n <= 0 || (size_t)n > len)
		return;
	if (hello == NET_HELLO_V1) {
		n = net_v1_parse(p, len, &v1);
		if (n > 0 && (size_t)n > len)
			abort();
		return;
	}
	p += n;
	len -= (size_t)n;
	n = net_v3_magic_parse(p, len);
	if (n > 0 && (size_t)n <= len)
		read_messages(p + n, len - (size_t)n, NET_MSG_MAX_LEN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy: any read past the end is caught, whatever the caller's buffer */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	cpu_budget_start();
	read_prologue(copy, size);
	read_messages(copy, size, NET_MSG_MAX_LEN);
	/* listen -m raises the limit: the same stream with no limit but the input */
	read_messages(copy, size, size);
	cpu_budget_stop();
	free(copy);
	return 0;
}
