// SPDX-License-Identifier: GPL-2.0-only
/*
 * printf's %*llu, %0*lld and %-*lld, and the digits of %x, for the numbers of every report
 * line. A report prints several numbers per event and snprintf() was a visible share of its
 * time: digits are written two at a time, straight to their place, from a table of pairs.
 */
#include <string.h>

#include "ktrace/report.h"
#include "report_print.h"

static const char dec_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const char hex_digits[2][17] = { "0123456789abcdef", "0123456789ABCDEF" };

int report_num_len(unsigned long long v, int base)
{
	int n = 1;

	if (base == 16)
		return v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
	for (; v >= 10000; v /= 10000)
		n += 4;
	for (; v >= 10; v /= 10)
		n++;
	return n;
}

void report_num_put(char *end, unsigned long long v, int base, bool upper)
{
	const char *hex = hex_digits[upper];

	if (base == 16) {
		do {
			*--end = hex[v & 15];
			v >>= 4;
		} while (v);
		return;
	}
	for (; v >= 100; v /= 100) {
		end -= 2;
		memcpy(end, dec_pairs + 2 * (v % 100), 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, dec_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
}

static char *pad(char *out, char ch, int n)
{
	for (; n > 0; n--)
		*out++ = ch;
	return out;
}

static char *put_digits(char *out, unsigned long long mag, bool neg, int width, char pad_ch,
			bool left)
{
	int n = report_num_len(mag, 10), fill = width - n - neg;

	if (!left && pad_ch != '0')
		out = pad(out, ' ', fill);
	if (neg)
		*out++ = '-';
	if (!left && pad_ch == '0')
		out = pad(out, '0', fill);
	report_num_put(out + n, mag, 10, false);
	out += n;
	if (left)
		out = pad(out, ' ', fill);
	return out;
}

char *report_put_int(char *out, long long v, int width, char pad_ch, bool left)
{
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	return put_digits(out, mag, v < 0, width, pad_ch, left);
}

char *report_put_uint(char *out, unsigned long long v, int width, char pad_ch)
{
	return put_digits(out, v, false, width, pad_ch, false);
}
