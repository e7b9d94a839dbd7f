// SPDX-License-Identifier: GPL-2.0-only
/* listen --allow's address ranges: parsing, prefixes, IPv6, and IPv4 clients of IPv6 sockets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ktrace/net_cidr.h"

static bool in_range(const char *cidr, const char *addr)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
	struct net_cidr c;

	assert_int_equal(net_cidr_parse(cidr, &c), 0);
	if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
	} else {
		assert_int_equal(inet_pton(AF_INET6, addr, &v6->sin6_addr), 1);
		v6->sin6_family = AF_INET6;
	}
	return net_cidr_match(&c, (struct sockaddr *)&ss);
}

static void test_ipv4(void **state)
{
	assert_true(in_range("10.0.0.0/8", "10.255.1.2"));
	assert_false(in_range("10.0.0.0/8", "11.0.0.1"));
	assert_false(in_range("10.0.0.0/8", "127.0.0.1"));
	assert_true(in_range("127.0.0.0/8", "127.0.0.1"));
	assert_true(in_range("192.168.4.0/22", "192.168.7.255"));
	assert_false(in_range("192.168.4.0/22", "192.168.8.0"));
	assert_true(in_range("0.0.0.0/0", "8.8.8.8"));
	assert_true(in_range("1.2.3.4", "1.2.3.4"));
	assert_false(in_range("1.2.3.4", "1.2.3.5"));
	assert_false(in_range("10.0.0.0/8", "::1"));
}

static void test_ipv6(void **state)
{
	assert_true(in_range("fd00::/8", "fd12:3456::1"));
	assert_false(in_range("fd00::/8", "fe80::1"));
	assert_true(in_range("::1", "::1"));
	assert_true(in_range("2001:db8::/33", "2001:db8:7fff::1"));
	assert_false(in_range("2001:db8::/33", "2001:db8:8000::1"));
	assert_false(in_range("::/0", "10.0.0.1"));
}

static void test_mapped(void **state)
{
	assert_true(in_range("127.0.0.0/8", "::ffff:127.0.0.1"));
	assert_false(in_range("10.0.0.0/8", "::ffff:127.0.0.1"));
	/* Only the mapped form: ::127.0.0.1 and 64:ff9b::/96 are other addresses. */
	assert_false(in_range("127.0.0.0/8", "::7f00:1"));
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"", "/8", "10.0.0.0/", "10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/8x",
		"10.0.0/8", "host.example", "10.0.0.0/ 8", "::1/+5",
	};
	struct net_cidr c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(net_cidr_parse(bad[i], &c), -EINVAL);
}

/* --allow's list: each range appended in order; a bad one leaves the list as it was */
static void test_list_add(void **state)
{
	struct net_cidr *list = NULL;
	unsigned int nr = 0;

	assert_int_equal(net_cidr_list_add(&list, &nr, "10.0.0.0/8"), 0);
	assert_int_equal(net_cidr_list_add(&list, &nr, "fd00::/8"), 0);
	assert_int_equal(net_cidr_list_add(&list, &nr, "10.0.0.0/33"), -EINVAL);
	assert_int_equal(nr, 2);
	assert_int_equal(list[0].family, AF_INET);
	assert_int_equal(list[0].bits, 8);
	assert_int_equal(list[1].family, AF_INET6);
	free(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_mapped),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_list_add),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
