/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_BYTES_H
#define KTRACE_DAT_BYTES_H

/*
 * A bounded walk over a block of a trace.dat file held in memory (a metadata block, an option's
 * payload): numbers in the file's byte order, NUL-terminated strings, runs of bytes. Every read
 * that would pass the end fails with -EBADMSG and leaves the position where it was.
 */
#include <stdbool.h>
#include <stdint.h>

struct dat_bytes {
	const uint8_t *p;
	uint64_t len;
	uint64_t pos;
	bool big_endian;
};

int dat_bytes_num(struct dat_bytes *b, int bytes, uint64_t *v);
int dat_bytes_str(struct dat_bytes *b, const char **s);
int dat_bytes_run(struct dat_bytes *b, uint64_t len, const uint8_t **p);

#endif
