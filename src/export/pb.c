// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protocol buffers wire format (developers.google.com/protocol-buffers/docs/encoding):
 * a field is a varint key (field number << 3 | wire type) and its value.
 */
#include <errno.h>
#include <string.h>

#include "pb.h"

enum pb_wire_type {
	PB_VARINT = 0,
	PB_LEN = 2,
};

#define PB_LEN_BYTES 4
#define PB_LEN_MAX ((1u << (7 * PB_LEN_BYTES)) - 1)

static void put(struct pb *pb, const void *data, size_t len)
{
	int ret;

	if (pb->error)
		return;
	ret = strbuf_add(&pb->sb, data, len);
	if (ret)
		pb->error = ret;
}

void pb_varint(struct pb *pb, uint64_t v)
{
	unsigned char buf[10];
	size_t n = 0;

	while (v >= 0x80) {
		buf[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	buf[n++] = (unsigned char)v;
	put(pb, buf, n);
}

static void key(struct pb *pb, int field, enum pb_wire_type type)
{
	pb_varint(pb, ((uint64_t)field << 3) | type);
}

void pb_uint(struct pb *pb, int field, uint64_t v)
{
	key(pb, field, PB_VARINT);
	pb_varint(pb, v);
}

void pb_int(struct pb *pb, int field, int64_t v)
{
	pb_uint(pb, field, (uint64_t)v);
}

void pb_bytes(struct pb *pb, int field, const void *data, size_t len)
{
	key(pb, field, PB_LEN);
	pb_varint(pb, len);
	put(pb, data, len);
}

void pb_str(struct pb *pb, int field, const char *s)
{
	pb_bytes(pb, field, s, strlen(s));
}

size_t pb_open(struct pb *pb, int field)
{
	static const unsigned char room[PB_LEN_BYTES];

	key(pb, field, PB_LEN);
	put(pb, room, sizeof(room));
	return pb->sb.len;
}

void pb_close(struct pb *pb, size_t mark)
{
	unsigned char *p;
	size_t len;
	int i;

	if (pb->error)
		return;
	len = pb->sb.len - mark;
	if (len > PB_LEN_MAX) {
		pb->error = -EFBIG;
		return;
	}
	p = (unsigned char *)pb->sb.buf + mark - PB_LEN_BYTES;
	for (i = 0; i < PB_LEN_BYTES; i++, len >>= 7)
		p[i] = (unsigned char)((len & 0x7f) | (i < PB_LEN_BYTES - 1 ? 0x80 : 0));
}

void pb_reset(struct pb *pb)
{
	strbuf_reset(&pb->sb);
}

void pb_release(struct pb *pb)
{
	strbuf_release(&pb->sb);
	pb->error = 0;
}
