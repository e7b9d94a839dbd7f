// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-cmd protocol 3 messages: parsing from untrusted bytes, and encoding.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ktrace/net.h"
#include "ktrace/net_bytes.h"

/* Size of each command's fixed fields; commands without fields have 0. */
static const uint32_t fixed_sizes[NET_NR_CMDS] = {
	[NET_TINIT] = 12,
	[NET_RINIT] = 4,
	[NET_TRACE_REQ] = 16,
	/* flags, cpus, page size, trace id, protocol name, port */
	[NET_TRACE_RESP] = 4 + 4 + 4 + 8 + 16 + 4,
	[NET_TIME_SYNC] = 16 + 4,
	[NET_TRACE_PROXY] = 16 + 8,
};

static const char *const cmd_names[NET_NR_CMDS] = {
	"CLOSE", "TINIT", "RINIT", "SEND_DATA", "FIN_DATA", "NOT_SUPP", "TRACE_REQ",
	"TRACE_RESP", "CLOSE_RESP", "TIME_SYNC", "TRACE_PROXY", "CONT",
};

const char *net_cmd_name(uint32_t cmd)
{
	return cmd < NET_NR_CMDS ? cmd_names[cmd] : "unknown";
}

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int check_fields(struct net_msg *m)
{
	if (m->cmd == NET_TINIT) {
		m->tinit.cpus = net_get_be32(m->fixed);
		m->tinit.page_size = net_get_be32(m->fixed + 4);
		m->tinit.opt_num = net_get_be32(m->fixed + 8);
		if (!m->tinit.cpus || m->tinit.cpus > NET_MAX_CPUS)
			return -EINVAL;
		if (!is_pow2(m->tinit.page_size) || m->tinit.page_size < NET_MIN_PAGE_SIZE ||
		    m->tinit.page_size > NET_MAX_PAGE_SIZE)
			return -EINVAL;
		/* Every option takes at least its NUL. */
		if (m->tinit.opt_num > m->payload_len)
			return -EINVAL;
	} else if (m->cmd == NET_RINIT) {
		m->rinit.cpus = net_get_be32(m->fixed);
		if (!m->rinit.cpus || m->rinit.cpus > NET_MAX_CPUS)
			return -EINVAL;
	}
	return 0;
}

int net_msg_parse_max(const void *buf, size_t len, size_t max_len, struct net_msg *out)
{
	const uint8_t *p = buf;
	uint32_t size, cmd, fixed_len;

	memset(out, 0, sizeof(*out));
	if (len < NET_MSG_HDR_LEN)
		return 0;
	size = net_get_be32(p);
	cmd = net_get_be32(p + 4);
	fixed_len = net_get_be32(p + 8);
	/* Sizes are checked before anything is read past the header. */
	if (size < NET_MSG_HDR_LEN || size > max_len)
		return -EMSGSIZE;
	if (cmd >= NET_NR_CMDS)
		return -ENOMSG;
	if (fixed_len > size - NET_MSG_HDR_LEN || fixed_len < fixed_sizes[cmd])
		return -EBADMSG;
	if (len < size)
		return 0;
	out->cmd = cmd;
	out->size = size;
	out->fixed = p + NET_MSG_HDR_LEN;
	out->fixed_len = fixed_len;
	out->payload = out->fixed + fixed_len;
	out->payload_len = size - NET_MSG_HDR_LEN - fixed_len;
	if (check_fields(out))
		return -EINVAL;
	return (int)size;
}

int net_msg_parse(const void *buf, size_t len, struct net_msg *out)
{
	return net_msg_parse_max(buf, len, NET_MSG_MAX_LEN, out);
}

int net_msg_next_string(const struct net_msg *msg, size_t *pos, const char **str)
{
	const uint8_t *start, *nul;
	size_t left;

	if (*pos >= msg->payload_len)
		return 0;
	start = msg->payload + *pos;
	left = msg->payload_len - *pos;
	nul = memchr(start, '\0', left);
	if (!nul)
		return -EBADMSG;
	*str = (const char *)start;
	*pos += (size_t)(nul - start) + 1;
	return 1;
}

int net_decimal_parse(const char *s, unsigned long max, unsigned int *out)
{
	unsigned long v = 0;

	if (!*s)
		return -EBADMSG;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EBADMSG;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return -EBADMSG;
	}
	*out = (unsigned int)v;
	return 0;
}

int net_rinit_ports(const struct net_msg *msg, unsigned int *ports, unsigned int nr)
{
	const char *s;
	size_t pos = 0;
	unsigned int i;
	int ret;

	if (msg->cmd != NET_RINIT || msg->rinit.cpus != nr)
		return -EBADMSG;
	for (i = 0; i < nr; i++) {
		ret = net_msg_next_string(msg, &pos, &s);
		if (ret <= 0)
			return -EBADMSG;
		if (net_decimal_parse(s, 65535, &ports[i]) || !ports[i])
			return -EBADMSG;
	}
	return pos == msg->payload_len ? 0 : -EBADMSG;
}

int net_msg_encode(struct strbuf *out, enum net_cmd cmd, const void *fixed, uint32_t fixed_len,
		   const void *payload, uint32_t payload_len)
{
	uint8_t hdr[NET_MSG_HDR_LEN];
	uint64_t size = (uint64_t)NET_MSG_HDR_LEN + fixed_len + payload_len;

	if ((unsigned int)cmd >= NET_NR_CMDS || fixed_len < fixed_sizes[cmd] || size > UINT32_MAX)
		return -EINVAL;
	net_put_be32(hdr, (uint32_t)size);
	net_put_be32(hdr + 4, cmd);
	net_put_be32(hdr + 8, fixed_len);
	/* memcpy from NULL is undefined even for 0 bytes: add only what is there. */
	if (strbuf_add(out, hdr, sizeof(hdr)) ||
	    (fixed_len && strbuf_add(out, fixed, fixed_len)) ||
	    (payload_len && strbuf_add(out, payload, payload_len)))
		return -ENOMEM;
	return 0;
}

int net_encode_tinit(struct strbuf *out, uint32_t cpus, uint32_t page_size, int tcp)
{
	uint8_t fixed[12];

	net_put_be32(fixed, cpus);
	net_put_be32(fixed + 4, page_size);
	net_put_be32(fixed + 8, tcp ? 1 : 0);
	return net_msg_encode(out, NET_TINIT, fixed, sizeof(fixed), "tcp", tcp ? 4 : 0);
}

int net_encode_rinit(struct strbuf *out, const unsigned int *ports, uint32_t cpus)
{
	struct strbuf payload = STRBUF_INIT;
	uint8_t fixed[4];
	uint32_t i;
	int ret = 0;

	for (i = 0; i < cpus && !ret; i++)
		ret = strbuf_addf(&payload, "%u", ports[i]) || strbuf_addch(&payload, '\0');
	if (ret) {
		strbuf_release(&payload);
		return -ENOMEM;
	}
	net_put_be32(fixed, cpus);
	ret = net_msg_encode(out, NET_RINIT, fixed, sizeof(fixed), payload.buf, payload.len);
	strbuf_release(&payload);
	return ret;
}

int net_encode_data(struct strbuf *out, const void *data, size_t len)
{
	const size_t chunk = NET_MSG_MAX_LEN - NET_MSG_HDR_LEN;
	const uint8_t *p = data;
	size_t n;
	int ret;

	while (len) {
		n = len < chunk ? len : chunk;
		ret = net_msg_encode(out, NET_SEND_DATA, NULL, 0, p, n);
		if (ret)
			return ret;
		p += n;
		len -= n;
	}
	return 0;
}

int net_encode_simple(struct strbuf *out, enum net_cmd cmd)
{
	return net_msg_encode(out, cmd, NULL, 0, NULL, 0);
}

int net_phase_next(enum net_phase phase, enum net_cmd cmd)
{
	switch (phase) {
	case NET_PHASE_TINIT:
		return cmd == NET_TINIT ? NET_PHASE_META : -EPROTO;
	case NET_PHASE_META:
		if (cmd == NET_SEND_DATA)
			return NET_PHASE_META;
		return cmd == NET_FIN_DATA ? NET_PHASE_RECORDING : -EPROTO;
	case NET_PHASE_RECORDING:
		return cmd == NET_CLOSE ? NET_PHASE_CLOSED : -EPROTO;
	case NET_PHASE_CLOSED:
		break;
	}
	return -EPROTO;
}
