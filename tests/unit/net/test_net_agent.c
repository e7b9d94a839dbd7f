// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host-guest messages: round trips, the bytes trace-cmd 3.1.6 sends (a TRACE_REQ as
 * `trace-cmd record -A` wrote it), and malformed parameters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "ktrace/net_agent.h"

/*
 * The header of trace-cmd 3.1.6's `record -A 127.0.0.1:18390 -e sched_switch` request (seen
 * with strace): 78 bytes, TRACE_REQ, 16 bytes of fixed fields; ARGS "-C local -e
 * sched_switch" and TSYNC_PROTOS "ptp".
 */
static const uint8_t tc_req_hdr[12] = { 0, 0, 0, 0x4e, 0, 0, 0, 6, 0, 0, 0, 16 };

static void test_req_round_trip(void **state)
{
	char *argv[] = { "-C", "local", "-e", "sched_switch", NULL };
	const char *protos[] = { "kvm", "ptp", NULL };
	struct strbuf sb = STRBUF_INIT;
	struct net_trace_req req;
	struct net_msg m;

	(void)state;
	assert_int_equal(net_encode_trace_req(&sb, 0, 0x8e28f23e41d1118fULL, 4, argv, protos), 0);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_trace_req_parse(&m, &req), 0);
	assert_int_equal(req.argc, 4);
	assert_string_equal(req.argv[3], "sched_switch");
	assert_null(req.argv[4]);
	assert_true(req.trace_id == 0x8e28f23e41d1118fULL);
	assert_true(net_trace_req_offers(&req, "ptp"));
	assert_false(net_trace_req_offers(&req, "xyz"));
	net_trace_req_release(&req);
	strbuf_release(&sb);
}

/* The header of trace-cmd's request for 4 arguments and "kvm", "ptp": same size as ours. */
static void test_req_size_as_trace_cmd(void **state)
{
	char *argv[] = { "-C", "local", "-e", "sched_switch", NULL };
	const char *protos[] = { "kvm", "ptp", NULL };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(net_encode_trace_req(&sb, 0, 1, 4, argv, protos), 0);
	/* 12 + 16 + (8 + 4 + 25) + (8 + 9) = 82; trace-cmd's capture with only "ptp" is 78 */
	assert_int_equal(sb.len, 82);
	assert_memory_equal(sb.buf + 4, tc_req_hdr + 4, 8);
	strbuf_release(&sb);
}

static void test_req_bad_args(void **state)
{
	char *argv[] = { "-e", "sched", NULL };
	struct strbuf sb = STRBUF_INIT;
	struct net_trace_req req;
	struct net_msg m;
	uint8_t *p;

	(void)state;
	assert_int_equal(net_encode_trace_req(&sb, 0, 1, 2, argv, NULL), 0);
	p = (uint8_t *)sb.buf;
	/* ARGS' argc says 200 strings: more than its bytes hold */
	p[12 + 16 + 8 + 3] = 200;
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_trace_req_parse(&m, &req), -EBADMSG);
	/* a parameter longer than the message */
	p[12 + 16 + 8 + 3] = 2;
	p[12 + 16 + 7] = 0xff;
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_trace_req_parse(&m, &req), -EBADMSG);
	/* the last argument without its NUL */
	p[12 + 16 + 7] = 4 + 3 + 5 + 1;
	assert_int_equal(net_msg_parse(sb.buf, sb.len - 1, &m), 0);
	strbuf_release(&sb);
}

static void test_resp_round_trip(void **state)
{
	unsigned int ports[2] = { 1500, 65000 };
	struct net_trace_resp r = { .cpus = 2, .page_size = 4096, .trace_id = 42,
				    .tsync_proto = "ptp", .tsync_port = 1502, .ports = ports };
	struct strbuf sb = STRBUF_INIT;
	struct net_trace_resp got;
	struct net_msg m;

	(void)state;
	assert_int_equal(net_encode_trace_resp(&sb, &r), 0);
	assert_int_equal(sb.len, 12 + 40 + 5 + 6);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_trace_resp_parse(&m, &got), 0);
	assert_int_equal(got.cpus, 2);
	assert_int_equal(got.page_size, 4096);
	assert_true(got.trace_id == 42);
	assert_string_equal(got.tsync_proto, "ptp");
	assert_int_equal(got.tsync_port, 1502);
	assert_int_equal(got.ports[1], 65000);
	free(got.ports);
	strbuf_release(&sb);
}

static void test_resp_short_ports(void **state)
{
	unsigned int ports[2] = { 1500, 1501 };
	struct net_trace_resp r = { .cpus = 2, .page_size = 4096, .ports = ports };
	struct strbuf sb = STRBUF_INIT;
	struct net_trace_resp got;
	struct net_msg m;
	uint8_t *p;

	(void)state;
	assert_int_equal(net_encode_trace_resp(&sb, &r), 0);
	p = (uint8_t *)sb.buf;
	p[12 + 7] = 3;	/* three CPUs, two ports */
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_trace_resp_parse(&m, &got), -EBADMSG);
	assert_null(got.ports);
	strbuf_release(&sb);
}

static void test_time_sync_round_trip(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_time_sync ts;
	struct net_msg m;

	(void)state;
	assert_int_equal(net_encode_time_sync(&sb, "ptp", 3, "abcd", 4), 0);
	assert_int_equal(sb.len, 12 + 20 + 4);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_time_sync_parse(&m, &ts), 0);
	assert_string_equal(ts.proto, "ptp");
	assert_int_equal(ts.id, 3);
	assert_int_equal(ts.payload_len, 4);
	assert_memory_equal(ts.payload, "abcd", 4);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_req_round_trip),
		cmocka_unit_test(test_req_size_as_trace_cmd),
		cmocka_unit_test(test_req_bad_args),
		cmocka_unit_test(test_resp_round_trip),
		cmocka_unit_test(test_resp_short_ports),
		cmocka_unit_test(test_time_sync_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
