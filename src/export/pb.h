/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PB_H
#define KTRACE_EXPORT_PB_H

/*
 * A protocol buffers encoder, just what the Perfetto export needs: varint fields (every integer
 * type and bool and enum), length-delimited fields (strings, bytes, nested messages). It writes
 * the wire format directly: no schema, no generated code.
 *
 * Errors are sticky: once an allocation failed every call is a no-op and pb->error says why,
 * so that encoders read as straight lists of fields and check once at the end.
 */
#include <stddef.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

struct pb {
	struct strbuf sb;
	int error;		/* negative errno of the first failure */
};

#define PB_INIT { STRBUF_INIT, 0 }

void pb_varint(struct pb *pb, uint64_t v);
/* uint32/uint64/bool/enum, and int32/int64: a negative value takes ten bytes, as the spec says */
void pb_uint(struct pb *pb, int field, uint64_t v);
void pb_int(struct pb *pb, int field, int64_t v);
void pb_bytes(struct pb *pb, int field, const void *data, size_t len);
void pb_str(struct pb *pb, int field, const char *s);

/*
 * A nested message whose size is not known yet: pb_open() writes the tag and reserves four bytes
 * for the length, pb_close() fills them with a varint padded to four bytes (continuation bits
 * on leading zero groups), which decoders accept. Messages are limited to 2^28 - 1 bytes:
 * pb_close() sets -EFBIG beyond.
 */
size_t pb_open(struct pb *pb, int field);
void pb_close(struct pb *pb, size_t mark);

void pb_reset(struct pb *pb);
void pb_release(struct pb *pb);

#endif
