// SPDX-License-Identifier: GPL-2.0-only
/*
 * printf's %*llu, %0*lld and %-*lld for the numbers of every report line. A report prints
 * several numbers per event and snprintf() was a visible share of its time.
 */
#include "ktrace/report.h"

static char *put_digits(char *out, unsigned long long mag, bool neg, int width, char pad,
			bool left)
{
	char tmp[24];
	int n = 0, len;

	do {
		tmp[n++] = (char)('0' + mag % 10);
		mag /= 10;
	} while (mag);
	if (neg && pad == '0') {
		*out++ = '-';
		width--;
	} else if (neg) {
		tmp[n++] = '-';
	}
	len = n;
	while (!left && width-- > len)
		*out++ = pad;
	while (n)
		*out++ = tmp[--n];
	while (left && width-- > len)
		*out++ = ' ';
	return out;
}

char *report_put_int(char *out, long long v, int width, char pad, bool left)
{
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	return put_digits(out, mag, v < 0, width, pad, left);
}

char *report_put_uint(char *out, unsigned long long v, int width, char pad)
{
	return put_digits(out, v, false, width, pad, false);
}
