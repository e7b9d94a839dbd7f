// SPDX-License-Identifier: GPL-2.0-only
/* The host-guest messages (net_agent.h): parsed from untrusted bytes, and encoded. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ktrace/net_agent.h"
#include "ktrace/net_bytes.h"
#include "ktrace/strv.h"

/* The fixed fields of TRACE_RESP: flags, cpus, page size, trace id, protocol name, port. */
#define RESP_FIXED	(4 + 4 + 4 + 8 + NET_TSYNC_NAME_LEN + 4)
#define REQ_FIXED	16
#define PROXY_FIXED	(REQ_FIXED + 8)
#define TSYNC_FIXED	(NET_TSYNC_NAME_LEN + 4)

/* ARGS: be32 argc, then argc NUL-terminated strings, nothing after them. */
static int parse_args(const uint8_t *p, uint32_t len, struct net_trace_req *req)
{
	uint32_t argc, i, pos = 4;
	const uint8_t *nul;

	if (len < 4 || p[len - 1] != '\0')
		return -EBADMSG;
	argc = net_get_be32(p);
	/* every argument takes at least its NUL */
	if (argc > len - 4)
		return -EBADMSG;
	for (i = 0; i < argc; i++) {
		if (pos >= len)
			return -EBADMSG;
		nul = memchr(p + pos, '\0', len - pos);
		if (!nul)
			return -EBADMSG;
		if (strv_push(&req->argv, (const char *)p + pos))
			return -ENOMEM;
		pos = (uint32_t)(nul - p) + 1;
	}
	req->argc = (int)argc;
	return 0;
}

/* TSYNC_PROTOS: names, each with its NUL; empty names (the list's end) are skipped. */
static int parse_protos(const uint8_t *p, uint32_t len, struct net_trace_req *req)
{
	uint32_t pos = 0;
	const uint8_t *nul;

	while (pos < len) {
		nul = memchr(p + pos, '\0', len - pos);
		if (!nul)
			return -EBADMSG;
		if (nul > p + pos && strv_push(&req->protos, (const char *)p + pos))
			return -ENOMEM;
		pos = (uint32_t)(nul - p) + 1;
	}
	return 0;
}

int net_trace_req_parse(const struct net_msg *msg, struct net_trace_req *out)
{
	uint32_t pos = 0, id, len;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (msg->cmd != NET_TRACE_REQ && msg->cmd != NET_TRACE_PROXY)
		return -EBADMSG;
	if (msg->fixed_len < (msg->cmd == NET_TRACE_PROXY ? PROXY_FIXED : REQ_FIXED))
		return -EBADMSG;
	out->flags = net_get_be32(msg->fixed);
	out->trace_id = net_get_be64(msg->fixed + 8);
	if (msg->cmd == NET_TRACE_PROXY) {
		out->proxy = true;
		out->cpus = net_get_be32(msg->fixed + 16);
		out->siblings = net_get_be32(msg->fixed + 20);
	}
	while (!ret && msg->payload_len - pos > 8) {
		id = net_get_be32(msg->payload + pos);
		len = net_get_be32(msg->payload + pos + 4);
		pos += 8;
		if (len > msg->payload_len - pos) {
			ret = -EBADMSG;
			break;
		}
		if (id == NET_PARAM_ARGS && !out->argv)
			ret = parse_args(msg->payload + pos, len, out);
		else if (id == NET_PARAM_TSYNC_PROTOS && !out->protos)
			ret = parse_protos(msg->payload + pos, len, out);
		/* unknown parameters are skipped, as trace-cmd does */
		pos += len;
	}
	if (ret)
		net_trace_req_release(out);
	return ret;
}

void net_trace_req_release(struct net_trace_req *req)
{
	strv_free(req->argv);
	strv_free(req->protos);
	memset(req, 0, sizeof(*req));
}

bool net_trace_req_offers(const struct net_trace_req *req, const char *proto)
{
	int i;

	for (i = 0; req->protos && req->protos[i]; i++)
		if (!strcmp(req->protos[i], proto))
			return true;
	return false;
}

static int add_param(struct strbuf *sb, uint32_t id, const struct strbuf *value)
{
	uint8_t hdr[8];

	net_put_be32(hdr, id);
	net_put_be32(hdr + 4, (uint32_t)value->len);
	return strbuf_add(sb, hdr, sizeof(hdr)) || strbuf_add(sb, value->buf, value->len) ?
		-ENOMEM : 0;
}

int net_encode_trace_req(struct strbuf *out, uint32_t flags, uint64_t trace_id, int argc,
			 char *const *argv, const char *const *protos)
{
	struct strbuf payload = STRBUF_INIT, value = STRBUF_INIT;
	uint8_t fixed[REQ_FIXED] = { 0 }, n[4];
	int i, ret = 0;

	net_put_be32(fixed, flags);
	net_put_be64(fixed + 8, trace_id);
	if (argc > 0) {
		net_put_be32(n, (uint32_t)argc);
		ret = strbuf_add(&value, n, sizeof(n));
		for (i = 0; !ret && i < argc; i++)
			ret = strbuf_add(&value, argv[i], strlen(argv[i]) + 1);
		ret = ret ? -ENOMEM : add_param(&payload, NET_PARAM_ARGS, &value);
	}
	if (!ret && protos) {
		strbuf_reset(&value);
		for (i = 0; !ret && protos[i]; i++)
			ret = strbuf_add(&value, protos[i], strlen(protos[i]) + 1);
		/* trace-cmd's list ends with an extra NUL */
		ret = ret || strbuf_addch(&value, '\0') ? -ENOMEM :
			add_param(&payload, NET_PARAM_TSYNC_PROTOS, &value);
	}
	if (!ret)
		ret = net_msg_encode(out, NET_TRACE_REQ, fixed, sizeof(fixed), payload.buf,
				     (uint32_t)payload.len);
	strbuf_release(&payload);
	strbuf_release(&value);
	return ret;
}

int net_trace_resp_parse(const struct net_msg *msg, struct net_trace_resp *out)
{
	size_t pos = 0;
	const char *s;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	if (msg->cmd != NET_TRACE_RESP || msg->fixed_len < RESP_FIXED)
		return -EBADMSG;
	out->flags = net_get_be32(msg->fixed);
	out->cpus = net_get_be32(msg->fixed + 4);
	out->page_size = net_get_be32(msg->fixed + 8);
	out->trace_id = net_get_be64(msg->fixed + 12);
	memcpy(out->tsync_proto, msg->fixed + 20, NET_TSYNC_NAME_LEN);
	out->tsync_port = net_get_be32(msg->fixed + 20 + NET_TSYNC_NAME_LEN);
	if (!out->cpus || out->cpus > NET_MAX_CPUS || out->page_size < NET_MIN_PAGE_SIZE ||
	    out->page_size > NET_MAX_PAGE_SIZE)
		return -EBADMSG;
	out->ports = calloc(out->cpus, sizeof(*out->ports));
	if (!out->ports)
		return -ENOMEM;
	for (i = 0; i < out->cpus; i++) {
		if (net_msg_next_string(msg, &pos, &s) <= 0 ||
		    net_decimal_parse(s, 0xffffffffUL, &out->ports[i])) {
			free(out->ports);
			out->ports = NULL;
			return -EBADMSG;
		}
	}
	return 0;
}

int net_encode_trace_resp(struct strbuf *out, const struct net_trace_resp *resp)
{
	struct strbuf payload = STRBUF_INIT;
	uint8_t fixed[RESP_FIXED] = { 0 };
	uint32_t i;
	int ret = 0;

	net_put_be32(fixed, resp->flags);
	net_put_be32(fixed + 4, resp->cpus);
	net_put_be32(fixed + 8, resp->page_size);
	net_put_be64(fixed + 12, resp->trace_id);
	memcpy(fixed + 20, resp->tsync_proto, strnlen(resp->tsync_proto, NET_TSYNC_NAME_LEN));
	net_put_be32(fixed + 20 + NET_TSYNC_NAME_LEN, resp->tsync_port);
	for (i = 0; !ret && i < resp->cpus; i++)
		ret = strbuf_addf(&payload, "%u", resp->ports[i]) || strbuf_addch(&payload, '\0');
	if (!ret)
		ret = net_msg_encode(out, NET_TRACE_RESP, fixed, sizeof(fixed), payload.buf,
				     (uint32_t)payload.len);
	else
		ret = -ENOMEM;
	strbuf_release(&payload);
	return ret;
}

int net_time_sync_parse(const struct net_msg *msg, struct net_time_sync *out)
{
	memset(out, 0, sizeof(*out));
	if (msg->cmd != NET_TIME_SYNC || msg->fixed_len < TSYNC_FIXED)
		return -EBADMSG;
	memcpy(out->proto, msg->fixed, NET_TSYNC_NAME_LEN);
	out->id = net_get_be32(msg->fixed + NET_TSYNC_NAME_LEN);
	out->payload = msg->payload;
	out->payload_len = msg->payload_len;
	return 0;
}

int net_encode_time_sync(struct strbuf *out, const char *proto, uint32_t id,
			 const void *payload, uint32_t payload_len)
{
	uint8_t fixed[TSYNC_FIXED] = { 0 };

	memcpy(fixed, proto, strnlen(proto, NET_TSYNC_NAME_LEN));
	net_put_be32(fixed + NET_TSYNC_NAME_LEN, id);
	return net_msg_encode(out, NET_TIME_SYNC, fixed, sizeof(fixed), payload, payload_len);
}

uint64_t net_trace_id_new(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id) || !id)
		id = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
	return id;
}
