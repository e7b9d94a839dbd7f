// SPDX-License-Identifier: GPL-2.0-only
/*
 * A `record -N` client that replays an existing trace.dat (v6 or v7): it splits the file into
 * the metadata a recording client sends and the per-CPU pages, and streams them to a listener
 * with protocol 3. Tests use it for deterministic sessions (the result must read like the
 * original) and for sessions cut short on purpose.
 *
 *   net_replay [--udp] [--v1] [--cut-meta] [--cut-data] [--no-close] [--repeat N]
 *              [--parallel] [--stall] HOST PORT FILE
 *
 * --v1 speaks protocol 1 instead (v6 files only): a v1 client sends only the headers.
 * --cpus N announces N CPUs whatever the file holds.
 * --bad-datagram sends a datagram shorter than a page first on every UDP channel.
 * --repeat N sends every CPU's pages N times over (bench/listen: volume without a huge file).
 * --parallel sends the CPUs at once, one process each, as a recording client does; without it
 * they go one after the other.
 * --stall keeps the session open after the CPU data, as a client still recording would, until
 * the listener hangs up (exit status 2): a known volume for tests that stop the listener.
 * --ktrace-client sends through record -N's own client code (net_send.h) instead (the CPUs one
 * after the other; --repeat applies), which
 * speaks TLS with --tls, --tls-ca FILE, --tls-cert FILE, --tls-key FILE or --tls-psk FILE;
 * a refused session exits with status 3 and record's message on stderr.
 * --agent serves one host's `record -A` instead, through the agent's own code (net_send_serve):
 * it listens on HOST PORT, prints the options of the host's TRACE_REQ on one line ("args: ..."),
 * sends the file's metadata and pages, and answers the host's CLOSE (record -A's tests).
 */
#define _FILE_OFFSET_BITS 64
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktrace/compress.h"
#include "ktrace/dat_format.h"
#include "ktrace/net.h"
#include "ktrace/net_agent.h"
#include "ktrace/dat_append.h"
#include "ktrace/fdio.h"
#include "net_send.h"

struct replay {
	const uint8_t *file;
	size_t size;
	uint8_t *meta;		/* copy: v7 needs its options chain cut */
	size_t meta_len;
	struct strbuf cpu[64];
	uint32_t cpus;
	uint32_t page;
	int big;
	uint64_t headers_end;	/* v6: what a v1 client sends */
};

static void die(const char *what)
{
	fprintf(stderr, "net_replay: %s\n", what);
	exit(2);
}

static uint64_t num(const struct replay *r, uint64_t off, int bytes)
{
	uint64_t v = 0;
	int i;

	if (off + (uint64_t)bytes > r->size)
		die("truncated file");
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)r->file[off + (uint64_t)i] << (8 * (r->big ? bytes - 1 - i : i));
	return v;
}

static void split_v6(struct replay *r, int fd)
{
	struct strbuf err = STRBUF_INIT;
	const uint8_t *p = r->file;
	struct dat_metadata m;
	uint64_t table;
	uint32_t i;

	/* The metadata ends right before "flyrecord": the first place where it checks out. */
	for (;;) {
		p = memmem(p, r->size - (size_t)(p - r->file), "flyrecord", 10);
		if (!p)
			die("no flyrecord in v6 file");
		strbuf_reset(&err);
		if (!dat_metadata_scan(fd, (uint64_t)(p - r->file), &m, &err))
			break;
		p++;
	}
	r->meta_len = (size_t)(p - r->file);
	r->cpus = m.cpus;
	r->headers_end = m.headers_end;
	if (r->cpus > 64)
		die("too many CPUs");
	table = r->meta_len + 10;
	for (i = 0; i < r->cpus; i++)
		strbuf_add(&r->cpu[i], r->file + num(r, table + 16 * i, 8),
			   num(r, table + 16 * i + 8, 8));
	strbuf_release(&err);
}

static void decompress_cpu(struct replay *r, struct kt_codec *codec, uint64_t off,
			   uint64_t size, struct strbuf *out)
{
	uint64_t chunks = num(r, off, 4), i, c, u;
	char *buf;

	off += 4;
	for (i = 0; i < chunks; i++) {
		c = num(r, off, 4);
		u = num(r, off + 4, 4);
		buf = malloc(u);
		if (!buf || off + 8 + c > r->size ||
		    kt_codec_decompress(codec, r->file + off + 8, c, buf, u))
			die("bad compressed chunk");
		strbuf_add(out, buf, u);
		free(buf);
		off += 8 + c;
	}
	(void)size;
}

static void take_buffer(struct replay *r, uint64_t opt, struct kt_codec *codec)
{
	uint64_t p = opt + 8, off, size;
	uint32_t n, i, cpu;

	if (r->file[p] != '\0')
		return;			/* an instance, not the top buffer */
	p += 1;
	p += strlen((const char *)r->file + p) + 1;	/* clock */
	r->page = (uint32_t)num(r, p, 4);
	n = (uint32_t)num(r, p + 4, 4);
	for (i = 0, p += 8; i < n; i++, p += 20) {
		cpu = (uint32_t)num(r, p, 4);
		off = num(r, p + 4, 8);
		size = num(r, p + 12, 8);
		if (cpu >= 64)
			die("bad CPU id");
		if (cpu >= r->cpus)
			r->cpus = cpu + 1;
		if (codec)
			decompress_cpu(r, codec, off, size, &r->cpu[cpu]);
		else
			strbuf_add(&r->cpu[cpu], r->file + off, size);
	}
	r->meta_len = num(r, opt, 8);
}

static void split_v7(struct replay *r, struct kt_codec *codec)
{
	uint64_t p = 10 + 2 + 2 + 4, next, end, id, len, cut_at = 0, done_at = 0;
	uint64_t done_pos[64], done_next[64];
	int nr_done = 0, i;

	p += strlen((const char *)r->file + p) + 1;
	p += strlen((const char *)r->file + p) + 1;
	next = num(r, p, 8);
	while (next) {
		end = next + 16 + num(r, next + 8, 8);
		for (p = next + 16; p < end; p += 6 + len) {
			id = num(r, p, 2);
			len = num(r, p + 2, 4);
			if (id == DAT_OPT_BUFFER)
				take_buffer(r, p + 6, codec);
			if (id == DAT_OPT_DONE)
				done_at = p + 6;
		}
		next = num(r, done_at, 8);
		if (nr_done == 64)
			die("options chain too long");
		done_pos[nr_done] = done_at;
		done_next[nr_done++] = next;
	}
	/* The chain leaves the metadata where the client's part of it ended. */
	for (i = 0; i < nr_done && !cut_at; i++)
		if (done_next[i] >= r->meta_len)
			cut_at = done_pos[i];
	if (!r->meta_len || !cut_at)
		die("no top buffer in v7 file");
	r->meta = malloc(r->meta_len);
	memcpy(r->meta, r->file, r->meta_len);
	/* The client's last options section points nowhere yet: the listener links it. */
	memset(r->meta + cut_at, 0, 8);
}

/*
 * trace-cmd listen makes a data socket listen only in the reader process it forks after it sent
 * the ports, so a quick client can find it refusing: try again for up to 2 s, and say so.
 */
static int connect_to(const char *host, unsigned int port, int udp)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = udp ? SOCK_DGRAM : SOCK_STREAM };
	struct addrinfo *res;
	char serv[16];
	int fd = -1, tries;

	snprintf(serv, sizeof(serv), "%u", port);
	if (getaddrinfo(host, serv, &hints, &res))
		die("cannot resolve the listener");
	for (tries = 0; tries < 200; tries++) {
		fd = socket(res->ai_family, res->ai_socktype, 0);
		if (fd < 0)
			die("cannot create a socket");
		if (!connect(fd, res->ai_addr, res->ai_addrlen))
			break;
		close(fd);
		fd = -1;
		if (errno != ECONNREFUSED)
			break;
		usleep(10000);
	}
	freeaddrinfo(res);
	if (fd < 0)
		die("cannot connect");
	if (tries)
		fprintf(stderr, "net_replay: port %u refused %d time(s) before it accepted\n",
			port, tries);
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n <= 0)
			die("send failed (listener closed?)");
		p += n;
		len -= (size_t)n;
	}
}

static void recv_exact(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = recv(fd, p, len, 0);
		if (n <= 0)
			die("listener closed the connection");
		p += n;
		len -= (size_t)n;
	}
}

static void expect(int fd, const char *what, size_t len)
{
	char buf[16];

	recv_exact(fd, buf, len);
	if (memcmp(buf, what, len))
		die("unexpected reply");
}

static void handshake(int fd, struct replay *r, int udp, unsigned int *ports)
{
	struct strbuf sb = STRBUF_INIT;
	uint8_t hdr[NET_MSG_HDR_LEN];
	struct net_msg m;
	uint32_t size;

	expect(fd, NET_GREETING, NET_GREETING_LEN);
	send_all(fd, NET_V3_REQUEST, sizeof(NET_V3_REQUEST));
	expect(fd, "V3", 3);
	send_all(fd, NET_V3_MAGIC, NET_V3_MAGIC_LEN);
	expect(fd, "OK", 2);
	net_encode_tinit(&sb, r->cpus, r->page, !udp);
	send_all(fd, sb.buf, sb.len);
	recv_exact(fd, hdr, sizeof(hdr));
	size = ntohl(*(uint32_t *)hdr);
	if (size < sizeof(hdr) || size > NET_MSG_MAX_LEN)
		die("bad RINIT size");
	strbuf_reset(&sb);
	strbuf_add(&sb, hdr, sizeof(hdr));
	strbuf_grow(&sb, size);
	recv_exact(fd, sb.buf + sizeof(hdr), size - sizeof(hdr));
	sb.len = size;
	if (net_msg_parse(sb.buf, sb.len, &m) != (int)size || net_rinit_ports(&m, ports, r->cpus))
		die("bad RINIT");
	strbuf_release(&sb);
}

static void handshake_v1(int fd, struct replay *r, int udp, unsigned int *ports)
{
	char buf[64];
	uint32_t i = 0;
	size_t n = 0;

	expect(fd, NET_GREETING, NET_GREETING_LEN);
	n = (size_t)snprintf(buf, sizeof(buf), "%u%c%u%c", r->cpus, 0, r->page, 0);
	send_all(fd, buf, n);
	if (udp)
		send_all(fd, "0", 2);
	else
		send_all(fd, "1\0" "4\0" "TCP", 8);
	/* "port,port,...\0" */
	for (n = 0; i < r->cpus && n < sizeof(buf); ) {
		recv_exact(fd, buf + n, 1);
		if (buf[n] == ',' || !buf[n]) {
			buf[n] = '\0';
			ports[i++] = (unsigned int)atoi(buf);
			n = 0;
		} else {
			n++;
		}
	}
	if (i != r->cpus)
		die("bad v1 port list");
	send_all(fd, r->meta, r->headers_end);
}

static void send_meta(int fd, const struct replay *r, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	net_encode_data(&sb, r->meta, len);
	if (len == r->meta_len)
		net_encode_simple(&sb, NET_FIN_DATA);
	send_all(fd, sb.buf, sb.len);
	strbuf_release(&sb);
}

static void send_cpu(const char *host, unsigned int port, int udp, const struct strbuf *data,
		     size_t len, uint32_t page, int bad, int repeat)
{
	int fd = connect_to(host, port, udp), i;
	size_t off;

	if (udp && bad)
		send_all(fd, "not a page", 10);	/* the listener must drop it */

	for (i = 0; i < repeat; i++) {
		for (off = 0; udp && off < len; off += page) {
			send_all(fd, data->buf + off, page);
			if (!(off / page % 16))
				usleep(1000);	/* loopback UDP drops what finds no room */
		}
		if (!udp)
			send_all(fd, data->buf, len);
	}
	close(fd);
}

/* One process per CPU; dies when any of them failed. */
static void send_cpus_parallel(const char *host, const unsigned int *ports, int udp,
			       const struct replay *r, int bad, int repeat)
{
	pid_t pids[64];
	uint32_t cpu;
	int status, failed = 0;

	for (cpu = 0; cpu < r->cpus; cpu++) {
		pids[cpu] = fork();
		if (pids[cpu] < 0)
			die("fork failed");
		if (!pids[cpu]) {
			send_cpu(host, ports[cpu], udp, &r->cpu[cpu], r->cpu[cpu].len, r->page, bad,
				 repeat);
			_exit(0);
		}
	}
	for (cpu = 0; cpu < r->cpus; cpu++)
		if (waitpid(pids[cpu], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed = 1;
	if (failed)
		die("a CPU sender failed");
}

/* The session as `ktrace record -N` sends it, through its own code. */
static int send_as_ktrace(const char *host, const char *port, const struct replay *r,
			  const struct net_tls_opts *opts, int repeat, int udp)
{
	struct strbuf err = STRBUF_INIT, target = STRBUF_INIT;
	struct net_tls *tls = NULL;
	struct net_send *ns = NULL;
	int fd = memfd_create("net_replay", MFD_CLOEXEC), *data, ret;
	uint32_t cpu;
	int i;

	strbuf_addf(&target, "%s:%s", host, port);
	if (fd < 0 || fd_write_all(fd, r->meta, r->meta_len))
		die("cannot write the metadata to a memfd");
	ret = net_tls_wanted(opts) ? net_tls_new(opts, false, &tls, &err) : 0;
	if (!ret)
		ret = net_send_open(strbuf_str(&target), udp, tls, r->cpus, r->page, &ns, &err);
	if (!ret)
		ret = net_send_metadata(ns, fd, &err);
	data = ret ? NULL : net_send_data_fds(ns);
	for (cpu = 0; !ret && cpu < r->cpus; cpu++) {
		for (i = 0; !ret && i < repeat; i++)
			ret = fd_write_all(data[cpu], r->cpu[cpu].buf, r->cpu[cpu].len);
		close(data[cpu]);
		data[cpu] = -1;
	}
	if (!ret)
		ret = net_send_close(ns, &err);
	if (ret)
		fprintf(stderr, "net_replay: %s\n", err.len ? strbuf_str(&err) : strerror(-ret));
	net_send_free(ns);
	net_tls_free(tls);
	close(fd);
	strbuf_release(&err);
	strbuf_release(&target);
	return ret ? 3 : 0;
}

static int accept_host(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE };
	struct addrinfo *res;
	int one = 1, lfd, fd;

	if (getaddrinfo(host, port, &hints, &res))
		die("cannot resolve the address to listen on");
	lfd = socket(res->ai_family, res->ai_socktype, 0);
	if (lfd < 0)
		die("cannot create a socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, res->ai_addr, res->ai_addrlen) || listen(lfd, 1))
		die("cannot listen");
	freeaddrinfo(res);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		die("accept failed");
	close(lfd);
	return fd;
}

/* The agent's side of one `record -A`, through ktrace's agent code. */
static int serve_as_agent(const char *host, const char *port, const struct replay *r)
{
	struct strbuf err = STRBUF_INIT;
	struct net_conn *conn = net_conn_new(accept_host(host, port), NULL, NULL);
	uint8_t *buf = malloc(NET_MSG_MAX_LEN);
	int fd = memfd_create("net_replay", MFD_CLOEXEC), *data, ret, i;
	struct net_send *ns = NULL;
	struct net_trace_req req;
	struct net_msg msg;
	uint32_t cpu;

	if (!conn || !buf || fd < 0 || fd_write_all(fd, r->meta, r->meta_len))
		die("cannot set up the agent");
	if (net_conn_recv_msg(conn, buf, &msg) || net_trace_req_parse(&msg, &req))
		die("no TRACE_REQ from the host");
	printf("args:");
	for (i = 0; i < req.argc; i++)
		printf(" %s", req.argv[i]);
	printf("\n");
	fflush(stdout);
	ret = net_send_serve(conn, "host", r->cpus, r->page, 0x1234abcd, &ns, &err);
	if (!ret)
		ret = net_send_metadata(ns, fd, &err);
	data = ret ? NULL : net_send_data_fds(ns);
	for (cpu = 0; !ret && cpu < r->cpus; cpu++) {
		ret = fd_write_all(data[cpu], r->cpu[cpu].buf, r->cpu[cpu].len);
		close(data[cpu]);
		data[cpu] = -1;
	}
	if (!ret)
		ret = net_send_close(ns, &err);
	if (ret)
		fprintf(stderr, "net_replay: %s\n", err.len ? strbuf_str(&err) : strerror(-ret));
	net_send_free(ns);
	net_trace_req_release(&req);
	close(fd);
	free(buf);
	strbuf_release(&err);
	return ret ? 3 : 0;
}

int main(int argc, char **argv)
{
	struct net_tls_opts tls = { 0 };
	int as_ktrace = 0, as_agent = 0;
	int udp = 0, v1 = 0, cut_meta = 0, cut_data = 0, no_close = 0, fd, i = 1, lie = 0;
	int bad = 0, repeat = 1, parallel = 0, stall = 0;
	struct replay r = { 0 };
	unsigned int ports[64];
	struct kt_codec *codec = NULL;
	enum kt_compression c;
	struct stat st;
	uint32_t cpu;

	for (; i < argc && argv[i][0] == '-'; i++) {
		udp |= !strcmp(argv[i], "--udp");
		v1 |= !strcmp(argv[i], "--v1");
		bad |= !strcmp(argv[i], "--bad-datagram");
		if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			lie = atoi(argv[++i]);
		if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atoi(argv[++i]);
		parallel |= !strcmp(argv[i], "--parallel");
		cut_meta |= !strcmp(argv[i], "--cut-meta");
		cut_data |= !strcmp(argv[i], "--cut-data");
		no_close |= !strcmp(argv[i], "--no-close");
		stall |= !strcmp(argv[i], "--stall");
		as_ktrace |= !strcmp(argv[i], "--ktrace-client");
		as_agent |= !strcmp(argv[i], "--agent");
		tls.enabled |= !strcmp(argv[i], "--tls");
		if (!strcmp(argv[i], "--tls-ca") && i + 1 < argc)
			tls.ca = argv[++i];
		else if (!strcmp(argv[i], "--tls-cert") && i + 1 < argc)
			tls.cert = argv[++i];
		else if (!strcmp(argv[i], "--tls-key") && i + 1 < argc)
			tls.key = argv[++i];
		else if (!strcmp(argv[i], "--tls-psk") && i + 1 < argc)
			tls.psk = argv[++i];
	}
	if (argc - i != 3)
		die("usage: net_replay [--udp] [--v1] [--cpus N] [--cut-meta] [--cut-data] "
		    "[--no-close] [--repeat N] [--parallel] [--stall] HOST PORT FILE");
	if (repeat < 1)
		die("--repeat needs a count >= 1");
	fd = open(argv[i + 2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("cannot open the file");
	r.size = (size_t)st.st_size;
	r.file = mmap(NULL, r.size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (r.file == MAP_FAILED || r.size < 32)
		die("cannot map the file");
	r.big = r.file[12];
	r.page = (uint32_t)num(&r, 14, 4);
	if (r.file[10] == '6') {
		split_v6(&r, fd);
		r.meta = malloc(r.meta_len);
		memcpy(r.meta, r.file, r.meta_len);
	} else {
		if (kt_compression_from_name((const char *)r.file + 18, &c))
			die("unknown compression");
		if (c != KT_COMP_NONE && kt_codec_new(c, &codec))
			die("no codec");
		split_v7(&r, codec);
	}
	if (as_ktrace || as_agent || net_tls_wanted(&tls)) {
		int ret = as_agent ? serve_as_agent(argv[i], argv[i + 1], &r) :
			  send_as_ktrace(argv[i], argv[i + 1], &r, &tls, repeat, udp);

		kt_codec_free(codec);
		for (cpu = 0; cpu < 64; cpu++)
			strbuf_release(&r.cpu[cpu]);
		free(r.meta);
		munmap((void *)r.file, r.size);
		return ret;
	}
	fd = connect_to(argv[i], (unsigned int)atoi(argv[i + 1]), 0);
	if (lie > 0 && lie <= 64)
		r.cpus = (uint32_t)lie;	/* announce a CPU count the metadata contradicts */
	if (v1 && !r.headers_end)
		die("--v1 needs a v6 file");
	if (v1) {
		handshake_v1(fd, &r, udp, ports);
		no_close = 1;	/* protocol 1 ends by hanging up */
	} else {
		handshake(fd, &r, udp, ports);
		send_meta(fd, &r, cut_meta ? r.meta_len / 2 : r.meta_len);
	}
	parallel &= !cut_data;	/* cutting is done on the one-by-one path */
	if (parallel && !cut_meta)
		send_cpus_parallel(argv[i], ports, udp, &r, bad, repeat);
	for (cpu = 0; !parallel && !cut_meta && cpu < r.cpus; cpu++)
		send_cpu(argv[i], ports[cpu], udp, &r.cpu[cpu],
			 cut_data ? r.cpu[cpu].len / r.page / 2 * r.page : r.cpu[cpu].len, r.page,
			 bad, repeat);
	if (stall) {
		char c;

		fprintf(stderr, "net_replay: data sent, stalling\n");
		while (read(fd, &c, 1) > 0)
			;
		die("the listener hung up");
	}
	if (!cut_meta && !cut_data && !no_close) {
		struct strbuf sb = STRBUF_INIT;

		net_encode_simple(&sb, NET_CLOSE);
		send_all(fd, sb.buf, sb.len);
		strbuf_release(&sb);
	}
	close(fd);
	kt_codec_free(codec);
	for (cpu = 0; cpu < 64; cpu++)
		strbuf_release(&r.cpu[cpu]);
	free(r.meta);
	munmap((void *)r.file, r.size);
	return 0;
}
