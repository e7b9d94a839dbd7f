/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_NET_H
#define KTRACE_NET_H

#include <stddef.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

/*
 * trace-cmd's network protocol (version 3), as `trace-cmd record -N` and `trace-cmd listen`
 * speak it. Every message is a 12-byte big-endian header {size, cmd, cmd_size}, then cmd_size
 * bytes of fixed command fields, then size - 12 - cmd_size bytes of payload.
 *
 * The parser works on a byte buffer and trusts no length in it: it is the entry point of the
 * fuzz target and of every byte a listener reads from the network.
 */

#define NET_MSG_HDR_LEN		12
/* trace-cmd refuses bigger messages; so do we unless told otherwise. */
#define NET_MSG_MAX_LEN		8192
/* Bounds on what a client may announce in TINIT. */
#define NET_MAX_CPUS		1024
#define NET_MIN_PAGE_SIZE	1024
#define NET_MAX_PAGE_SIZE	(1U << 20)

enum net_cmd {
	NET_CLOSE = 0,
	NET_TINIT = 1,
	NET_RINIT = 2,
	NET_SEND_DATA = 3,
	NET_FIN_DATA = 4,
	NET_NOT_SUPP = 5,
	NET_TRACE_REQ = 6,
	NET_TRACE_RESP = 7,
	NET_CLOSE_RESP = 8,
	NET_TIME_SYNC = 9,
	NET_TRACE_PROXY = 10,
	NET_CONT = 11,
	NET_NR_CMDS,
};

struct net_msg {
	enum net_cmd cmd;
	uint32_t size;			/* whole message, header included */
	const uint8_t *fixed;		/* the command's fixed fields, as sent */
	uint32_t fixed_len;
	const uint8_t *payload;		/* points into the parsed buffer */
	uint32_t payload_len;
	union {
		struct {
			uint32_t cpus;
			uint32_t page_size;
			uint32_t opt_num;
		} tinit;
		struct {
			uint32_t cpus;
		} rinit;
	};
};

const char *net_cmd_name(uint32_t cmd);

/*
 * Parses one message at the start of buf, accepting messages up to max_len bytes.
 * Returns the number of bytes the message takes (> 0), 0 when buf holds only part of a
 * message (read more), or a negative errno: -EMSGSIZE for a size below the header or above
 * max_len, -EBADMSG for fixed fields that do not fit or are too short for the command,
 * -ENOMSG for an unknown command, -EINVAL for TINIT/RINIT values out of bounds.
 */
int net_msg_parse_max(const void *buf, size_t len, size_t max_len, struct net_msg *out);
/* net_msg_parse_max() with NET_MSG_MAX_LEN. */
int net_msg_parse(const void *buf, size_t len, struct net_msg *out);

/*
 * Walks the NUL-separated strings of a TINIT payload (options such as "tcp") or a RINIT
 * payload (decimal port numbers). *pos starts at 0. Returns 1 with *str set, 0 at the end,
 * -EBADMSG when the payload does not end with a NUL.
 */
int net_msg_next_string(const struct net_msg *msg, size_t *pos, const char **str);

/* A decimal number of at most max (a port, a vsock port) in *out: 0, or -EBADMSG. */
int net_decimal_parse(const char *s, unsigned long max, unsigned int *out);

/* The RINIT ports, one per CPU: 0, or -EBADMSG when the payload does not hold exactly that. */
int net_rinit_ports(const struct net_msg *msg, unsigned int *ports, unsigned int nr);

/* Encoders append one whole message to out; 0 or -ENOMEM / -EINVAL. */
int net_msg_encode(struct strbuf *out, enum net_cmd cmd, const void *fixed, uint32_t fixed_len,
		   const void *payload, uint32_t payload_len);
int net_encode_tinit(struct strbuf *out, uint32_t cpus, uint32_t page_size, int tcp);
int net_encode_rinit(struct strbuf *out, const unsigned int *ports, uint32_t cpus);
/* Appends as many SEND_DATA messages as len needs (each at most NET_MSG_MAX_LEN). */
int net_encode_data(struct strbuf *out, const void *data, size_t len);
/* A message with no fields: CLOSE, FIN_DATA, NOT_SUPP, CLOSE_RESP, CONT. */
int net_encode_simple(struct strbuf *out, enum net_cmd cmd);

/*
 * The order of messages on the control connection of a `record -N` session:
 * TINIT, then SEND_DATA* (the file's metadata), FIN_DATA, then CLOSE when the recording ends.
 */
enum net_phase {
	NET_PHASE_TINIT,	/* waiting for TINIT */
	NET_PHASE_META,		/* receiving metadata until FIN_DATA */
	NET_PHASE_RECORDING,	/* waiting for CLOSE */
	NET_PHASE_CLOSED,
};

/* The phase after cmd arrives in phase, or -EPROTO when cmd may not come then. */
int net_phase_next(enum net_phase phase, enum net_cmd cmd);

/*
 * The text prologue that comes before any message. The listener greets with "tracecmd"; the
 * client answers with a NUL-terminated string: "-1V3" asks for protocol 3 (the listener
 * replies "V3\0", the client sends NET_V3_MAGIC, the listener replies "OK"), a decimal CPU
 * count starts the version 1 prologue.
 */
#define NET_GREETING		"tracecmd"
#define NET_GREETING_LEN	8
#define NET_V3_REQUEST		"-1V3"
#define NET_V3_MAGIC		"766679\0"	/* sent with its terminating NUL: 8 bytes */
#define NET_V3_MAGIC_LEN	8

enum net_hello {
	NET_HELLO_V3 = 3,	/* "-1V3\0" was consumed */
	NET_HELLO_V1 = 1,	/* a CPU count: parse from the same start with net_v1_parse() */
};

/*
 * Parses the client's first string. Returns its length with the NUL (> 0) and sets *hello,
 * 0 when more bytes are needed, -EPROTONOSUPPORT for a protocol version other than 3,
 * -EBADMSG otherwise. For NET_HELLO_V1 the caller consumes nothing: the string is the first
 * field of the v1 prologue.
 */
int net_hello_parse(const void *buf, size_t len, enum net_hello *hello);

/* The v3 magic that follows "V3": bytes consumed (8), 0 for more, -EBADMSG if wrong. */
int net_v3_magic_parse(const void *buf, size_t len);

struct net_v1_init {
	uint32_t cpus;
	uint32_t page_size;
	int tcp;		/* the client sent the "TCP" option */
};

/*
 * Parses the whole version 1 prologue: "CPUS\0PAGESIZE\0NOPTS\0" then, per option,
 * "SIZE\0" and SIZE bytes. Returns bytes consumed, 0 for more, or -EBADMSG / -EINVAL.
 */
int net_v1_parse(const void *buf, size_t len, struct net_v1_init *out);

#endif
