// SPDX-License-Identifier: GPL-2.0-only
/* The protocol messages: round trips, and every malformed input the parser must refuse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "ktrace/net.h"

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void header(uint8_t *p, uint32_t size, uint32_t cmd, uint32_t fixed)
{
	put_be32(p, size);
	put_be32(p + 4, cmd);
	put_be32(p + 8, fixed);
}

static void test_tinit_round_trip(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_msg m;
	const char *opt;
	size_t pos = 0;

	(void)state;
	assert_int_equal(net_encode_tinit(&sb, 2, 4096, 1), 0);
	assert_int_equal(sb.len, 12 + 12 + 4);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(m.cmd, NET_TINIT);
	assert_int_equal(m.tinit.cpus, 2);
	assert_int_equal(m.tinit.page_size, 4096);
	assert_int_equal(m.tinit.opt_num, 1);
	assert_int_equal(net_msg_next_string(&m, &pos, &opt), 1);
	assert_string_equal(opt, "tcp");
	assert_int_equal(net_msg_next_string(&m, &pos, &opt), 0);
	strbuf_release(&sb);
}

static void test_rinit_round_trip(void **state)
{
	unsigned int ports[3] = { 1500, 65535, 2 }, back[3];
	struct strbuf sb = STRBUF_INIT;
	struct net_msg m;

	(void)state;
	assert_int_equal(net_encode_rinit(&sb, ports, 3), 0);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(m.cmd, NET_RINIT);
	assert_int_equal(net_rinit_ports(&m, back, 3), 0);
	assert_memory_equal(ports, back, sizeof(ports));
	assert_int_equal(net_rinit_ports(&m, back, 2), -EBADMSG);
	strbuf_release(&sb);
}

static void test_data_is_split_and_streamed(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = 20000, pos = 0, got = 0;
	char *data = malloc(len);
	struct net_msg m;
	int n, msgs = 0;

	(void)state;
	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7);
	assert_int_equal(net_encode_data(&sb, data, len), 0);
	assert_int_equal(net_encode_simple(&sb, NET_FIN_DATA), 0);
	/* Feeding one byte more each time: every prefix is "incomplete", never an error. */
	while (pos < sb.len) {
		size_t avail = 0;

		do {
			avail++;
			n = net_msg_parse(sb.buf + pos, avail, &m);
			assert_true(n >= 0);
		} while (!n && pos + avail < sb.len);
		assert_true(n > 0);
		assert_true(m.size <= NET_MSG_MAX_LEN);
		if (m.cmd == NET_SEND_DATA) {
			assert_memory_equal(data + got, m.payload, m.payload_len);
			got += m.payload_len;
		}
		pos += (size_t)n;
		msgs++;
	}
	assert_int_equal(got, len);
	assert_int_equal(msgs, 4);
	assert_int_equal(m.cmd, NET_FIN_DATA);
	free(data);
	strbuf_release(&sb);
}

static void test_short_header_needs_more(void **state)
{
	uint8_t b[12] = { 0 };
	struct net_msg m;

	(void)state;
	header(b, 12, NET_CLOSE, 0);
	for (size_t i = 0; i < 12; i++)
		assert_int_equal(net_msg_parse(b, i, &m), 0);
	assert_int_equal(net_msg_parse(b, 12, &m), 12);
	assert_int_equal(m.cmd, NET_CLOSE);
}

static void test_bad_sizes(void **state)
{
	uint8_t b[64] = { 0 };
	struct net_msg m;

	(void)state;
	header(b, 11, NET_CLOSE, 0);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EMSGSIZE);
	header(b, 0, NET_CLOSE, 0);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EMSGSIZE);
	/* "Negative" sizes are huge unsigned ones. */
	header(b, 0xffffffffU, NET_SEND_DATA, 0);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EMSGSIZE);
	header(b, NET_MSG_MAX_LEN + 1, NET_SEND_DATA, 0);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EMSGSIZE);
	/* Refused before the body arrives, so a liar cannot make us wait for it. */
	assert_int_equal(net_msg_parse(b, 12, &m), -EMSGSIZE);
	assert_int_equal(net_msg_parse_max(b, 12, NET_MSG_MAX_LEN + 1, &m), 0);
}

static void test_bad_fixed_fields(void **state)
{
	uint8_t b[64] = { 0 };
	struct net_msg m;

	(void)state;
	/* cmd_size larger than the message */
	header(b, 20, NET_SEND_DATA, 9);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EBADMSG);
	header(b, 20, NET_SEND_DATA, 0xfffffff0U);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EBADMSG);
	/* TINIT without room for its fields */
	header(b, 20, NET_TINIT, 8);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -EBADMSG);
}

static void test_unknown_command(void **state)
{
	uint8_t b[12];
	struct net_msg m;

	(void)state;
	header(b, 12, NET_NR_CMDS, 0);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -ENOMSG);
	header(b, 12, 0x80000000U, 0);
	assert_int_equal(net_msg_parse(b, sizeof(b), &m), -ENOMSG);
	assert_string_equal(net_cmd_name(1000), "unknown");
	assert_string_equal(net_cmd_name(NET_FIN_DATA), "FIN_DATA");
}

static void test_tinit_values(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_msg m;
	const char *s;
	size_t pos = 0;

	(void)state;
	assert_int_equal(net_encode_tinit(&sb, 0, 4096, 0), 0);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), -EINVAL);
	strbuf_reset(&sb);
	assert_int_equal(net_encode_tinit(&sb, NET_MAX_CPUS + 1, 4096, 0), 0);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), -EINVAL);
	strbuf_reset(&sb);
	assert_int_equal(net_encode_tinit(&sb, 4, 4095, 0), 0);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), -EINVAL);
	strbuf_reset(&sb);
	/* An option string without its NUL */
	assert_int_equal(net_msg_encode(&sb, NET_TINIT, "\0\0\0\1\0\0\x10\0\0\0\0\1", 12,
					"tcp", 3), 0);
	assert_int_equal(net_msg_parse(sb.buf, sb.len, &m), (int)sb.len);
	assert_int_equal(net_msg_next_string(&m, &pos, &s), -EBADMSG);
	strbuf_release(&sb);
}

static void test_phase_order(void **state)
{
	(void)state;
	assert_int_equal(net_phase_next(NET_PHASE_TINIT, NET_TINIT), NET_PHASE_META);
	assert_int_equal(net_phase_next(NET_PHASE_TINIT, NET_SEND_DATA), -EPROTO);
	assert_int_equal(net_phase_next(NET_PHASE_TINIT, NET_CLOSE), -EPROTO);
	assert_int_equal(net_phase_next(NET_PHASE_META, NET_SEND_DATA), NET_PHASE_META);
	assert_int_equal(net_phase_next(NET_PHASE_META, NET_TINIT), -EPROTO);
	assert_int_equal(net_phase_next(NET_PHASE_META, NET_CLOSE), -EPROTO);
	assert_int_equal(net_phase_next(NET_PHASE_META, NET_FIN_DATA), NET_PHASE_RECORDING);
	assert_int_equal(net_phase_next(NET_PHASE_RECORDING, NET_SEND_DATA), -EPROTO);
	assert_int_equal(net_phase_next(NET_PHASE_RECORDING, NET_CLOSE), NET_PHASE_CLOSED);
	assert_int_equal(net_phase_next(NET_PHASE_CLOSED, NET_CLOSE), -EPROTO);
}

static void test_hello(void **state)
{
	enum net_hello h;
	struct net_v1_init v1;
	const char good_v1[] = "2\0" "4096\0" "1\0" "4\0" "TCP";

	(void)state;
	assert_int_equal(net_hello_parse("-1V3", 4, &h), 0);
	assert_int_equal(net_hello_parse("-1V3", 5, &h), 5);
	assert_int_equal(h, NET_HELLO_V3);
	assert_int_equal(net_hello_parse("-1V4", 5, &h), -EPROTONOSUPPORT);
	assert_int_equal(net_hello_parse("GET / HTTP/1.1\r\n", 16, &h), -EBADMSG);
	assert_int_equal(net_hello_parse("xx", 3, &h), -EBADMSG);
	assert_int_equal(net_hello_parse("2", 2, &h), 2);
	assert_int_equal(h, NET_HELLO_V1);
	assert_int_equal(net_v3_magic_parse("7666", 4), 0);
	assert_int_equal(net_v3_magic_parse("766679\0\0", 8), 8);
	assert_int_equal(net_v3_magic_parse("766670", 6), -EBADMSG);

	assert_int_equal(net_v1_parse(good_v1, sizeof(good_v1), &v1), (int)sizeof(good_v1));
	assert_int_equal(v1.cpus, 2);
	assert_int_equal(v1.page_size, 4096);
	assert_int_equal(v1.tcp, 1);
	for (size_t i = 0; i < sizeof(good_v1); i++)
		assert_int_equal(net_v1_parse(good_v1, i, &v1), 0);
	assert_int_equal(net_v1_parse("2\0" "4096\0" "0", 9, &v1), 9);
	assert_int_equal(v1.tcp, 0);
	assert_int_equal(net_v1_parse("2\0" "4096\0" "1\0" "99999\0", 16, &v1), -EINVAL);
	assert_int_equal(net_v1_parse("2\0" "4096\0" "1\0" "4\0" "UDP", 16, &v1), -EINVAL);
	assert_int_equal(net_v1_parse("2\0" "4000\0" "0", 9, &v1), -EINVAL);
	assert_int_equal(net_v1_parse("99999999999\0", 12, &v1), -EBADMSG);
	assert_int_equal(net_v1_parse("1111111111111111111111", 22, &v1), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tinit_round_trip),
		cmocka_unit_test(test_rinit_round_trip),
		cmocka_unit_test(test_data_is_split_and_streamed),
		cmocka_unit_test(test_short_header_needs_more),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_bad_fixed_fields),
		cmocka_unit_test(test_unknown_command),
		cmocka_unit_test(test_tinit_values),
		cmocka_unit_test(test_phase_order),
		cmocka_unit_test(test_hello),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
