// SPDX-License-Identifier: GPL-2.0-only
/*
 * record -A: the host's side of a guest's recording (record_guest.h), as trace-cmd 3.1.6's
 * record -A speaks it to an agent: TRACE_REQ with the guest's options -> TRACE_RESP (CPUs,
 * page size, data ports) -> the metadata (SEND_DATA..., FIN_DATA) into the guest's file -> one
 * data connection per CPU, read by a thread of the guest's into temp files while recording ->
 * CLOSE -> CLOSE_RESP -> the data connections end -> the CPU data appended to the file, laid
 * out as the listener lays out what record -N sends (dat_append.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vm_sockets.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "ktrace/dat_append.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "ktrace/fdio.h"
#include "ktrace/net.h"
#include "ktrace/net_agent.h"
#include "ktrace/strv.h"
#include "record_guest.h"

/* An agent that accepts and never answers must not hang record before it starts. */
#define GUEST_TIMEOUT_S		30
/* After CLOSE_RESP every data connection ends; an agent that keeps one open is given up. */
#define GUEST_DRAIN_MS		5000
#define READ_CHUNK		65536

uint64_t record_guests_trace_id(const struct record_guests *gs)
{
	return gs->trace_id;
}

static int fail(struct record_guest *g, struct strbuf *err, int ret, const char *what)
{
	strbuf_addf(err, "-A %s: %s: %s", g->spec, what,
		    ret == -EAGAIN ? "timed out" : strerror(-ret));
	return ret;
}

static void set_timeout(int fd, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int connect_vsock(unsigned int cid, unsigned int port)
{
	struct sockaddr_vm vm = { .svm_family = AF_VSOCK, .svm_cid = cid, .svm_port = port };
	int fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&vm, sizeof(vm))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

static int connect_tcp(const char *host, unsigned int port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL, *ai;
	char serv[16];
	int fd = -ECONNREFUSED, err_no;

	snprintf(serv, sizeof(serv), "%u", port);
	if (getaddrinfo(host, serv, &hints, &res))
		return -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			fd = -errno;
			continue;
		}
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		err_no = errno;
		close(fd);
		fd = -err_no;
	}
	freeaddrinfo(res);
	return fd;
}

static int connect_port(const struct record_guest *g, unsigned int port)
{
	return g->host ? connect_tcp(g->host, port) : connect_vsock(g->cid, port);
}

static int request(struct record_guests *gs, struct record_guest *g, uint8_t *buf,
		   struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_trace_resp resp;
	struct net_msg msg;
	int ret = net_encode_trace_req(&sb, 0, gs->trace_id, g->argc, g->argv, NULL);

	if (!ret && (ret = net_conn_write_all(g->ctl, sb.buf, sb.len)))
		fail(g, err, ret, "sending TRACE_REQ");
	strbuf_release(&sb);
	if (!ret && (ret = net_conn_recv_msg(g->ctl, buf, &msg)))
		return fail(g, err, ret, "waiting for TRACE_RESP (the agent refused the options?)");
	if (!ret && msg.cmd != NET_TRACE_RESP) {
		strbuf_addf(err, "-A %s: the agent answered %s, not TRACE_RESP", g->spec,
			    net_cmd_name(msg.cmd));
		return -EPROTO;
	}
	if (!ret && (ret = net_trace_resp_parse(&msg, &resp)))
		return fail(g, err, ret, "its TRACE_RESP");
	if (ret)
		return ret;
	g->cpus = resp.cpus;
	g->page_size = resp.page_size;
	g->trace_id = resp.trace_id;
	memcpy(g->tsync, resp.tsync_proto, sizeof(g->tsync));
	g->ports = resp.ports;
	g->data = malloc(sizeof(*g->data) * g->cpus);
	g->tmp = malloc(sizeof(*g->tmp) * g->cpus);
	g->received = calloc(g->cpus, sizeof(*g->received));
	if (!g->data || !g->tmp || !g->received)
		return -ENOMEM;
	for (uint32_t i = 0; i < g->cpus; i++)
		g->data[i] = g->tmp[i] = -1;
	return 0;
}

/* SEND_DATA... FIN_DATA: the guest's file up to its CPU data. */
static int receive_metadata(struct record_guest *g, uint8_t *buf, struct strbuf *err)
{
	struct net_msg msg;
	int ret;

	for (;;) {
		ret = net_conn_recv_msg(g->ctl, buf, &msg);
		if (ret)
			return fail(g, err, ret, "receiving the guest's metadata");
		if (msg.cmd == NET_FIN_DATA)
			return 0;
		if (msg.cmd != NET_SEND_DATA) {
			strbuf_addf(err, "-A %s: %s in the guest's metadata", g->spec,
				    net_cmd_name(msg.cmd));
			return -EPROTO;
		}
		ret = fd_write_all(g->fd, msg.payload, msg.payload_len);
		if (ret) {
			strbuf_addf(err, "-A %s: writing %s: %s", g->spec, g->file, strerror(-ret));
			return ret;
		}
		g->meta_size += msg.payload_len;
	}
}

static int open_data(struct record_guest *g, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	uint32_t i;
	int ret = 0;

	for (i = 0; !ret && i < g->cpus; i++) {
		g->data[i] = connect_port(g, g->ports[i]);
		if (g->data[i] < 0) {
			ret = g->data[i];
			g->data[i] = -1;
			strbuf_addf(err, "-A %s: connecting CPU %u's data port %u: %s", g->spec, i,
				    g->ports[i], strerror(-ret));
			break;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s.cpu%u", g->file, i);
		g->tmp[i] = open(strbuf_str(&path), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (g->tmp[i] < 0) {
			ret = -errno;
			strbuf_addf(err, "-A %s: cannot create %s: %s", g->spec, strbuf_str(&path),
				    strerror(errno));
		} else {
			unlink(strbuf_str(&path));
		}
	}
	strbuf_release(&path);
	return ret;
}

/*
 * An agent that dies while recording closes its control connection, which carries nothing
 * until the host's CLOSE: a hang-up there before record closes the session is the agent gone,
 * said at once (the host goes on recording; what the guest sent stays, finish_guest()). True
 * once the connection has ended, either way: it is not watched any more.
 */
static bool agent_hung_up(struct record_guest *g, const struct pollfd *ctl)
{
	if (!(ctl->revents & (POLLRDHUP | POLLHUP | POLLERR)))
		return false;
	if (!__atomic_load_n(&g->closing, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&g->gone, true, __ATOMIC_SEQ_CST);
		fprintf(stderr, "ktrace record: -A %s: the agent hung up while recording; the host "
			"goes on, %s keeps what the guest sent\n", g->spec, g->file);
	}
	return true;
}

/* Reads every data connection to its end into the temp files. */
static void *guest_reader(void *arg)
{
	struct record_guest *g = arg;
	struct pollfd *pfd = calloc(g->cpus + 2, sizeof(*pfd));
	char *buf = malloc(READ_CHUNK);
	bool stopping = false, watch_ctl = true;
	uint32_t i, open_fds = g->cpus;
	ssize_t n;
	int ret;

	if (!pfd || !buf) {
		g->read_err = -ENOMEM;
		open_fds = 0;
	}
	while (open_fds || (watch_ctl && !stopping)) {
		for (i = 0; i < g->cpus; i++)
			pfd[i] = (struct pollfd){ .fd = g->data[i], .events = POLLIN };
		pfd[g->cpus] = (struct pollfd){ .fd = stopping ? -1 : g->stop_pipe[0],
						.events = POLLIN };
		pfd[g->cpus + 1] = (struct pollfd){
			.fd = watch_ctl && !stopping ? net_conn_fd(g->ctl) : -1,
			.events = POLLRDHUP };
		ret = poll(pfd, g->cpus + 2, stopping ? GUEST_DRAIN_MS : -1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0) {
			g->read_err = ret ? -errno : -ETIMEDOUT;
			break;
		}
		if (pfd[g->cpus].revents)
			stopping = true;
		if (watch_ctl && agent_hung_up(g, &pfd[g->cpus + 1]))
			watch_ctl = false;
		for (i = 0; i < g->cpus; i++) {
			if (!pfd[i].revents)
				continue;
			n = read(g->data[i], buf, READ_CHUNK);
			if (n < 0 && errno == EINTR)
				continue;
			if (n > 0 && !fd_write_all(g->tmp[i], buf, (size_t)n)) {
				g->received[i] += (uint64_t)n;
				continue;
			}
			if (n != 0 && !g->read_err)
				g->read_err = n < 0 ? -errno : -EIO;
			close(g->data[i]);
			g->data[i] = -1;
			open_fds--;
		}
	}
	free(pfd);
	free(buf);
	return NULL;
}

/* The reader never takes the stop signals: those are the main thread's (session.h). */
static int start_reader(struct record_guest *g)
{
	sigset_t all, old;
	int ret;

	if (pipe2(g->stop_pipe, O_CLOEXEC))
		return -errno;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&g->reader, NULL, guest_reader, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	g->reading = !ret;
	return ret;
}

static char *guest_file(const char *output, const char *name)
{
	const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
	int base = dot && dot != output && (!slash || dot > slash + 1) ? (int)(dot - output) :
		   (int)strlen(output);
	char *out = NULL;

	/* trace-cmd's trace_get_guest_file: "trace.dat" -> "trace-NAME.dat" */
	if (asprintf(&out, "%.*s-%s%s", base, output, name, output + base) < 0)
		return NULL;
	return out;
}

static int connect_guest(struct record_guests *gs, struct record_guest *g, const char *output,
			 uint8_t *buf, struct strbuf *err)
{
	int fd, ret;

	g->file = guest_file(output, g->name);
	if (!g->file)
		return -ENOMEM;
	fd = connect_port(g, g->port);
	if (fd < 0)
		return fail(g, err, fd, g->host ? "connecting to the agent (TCP)" :
			    "connecting to the agent (vsock)");
	set_timeout(fd, GUEST_TIMEOUT_S);
	g->ctl = net_conn_new(fd, NULL, NULL);
	if (!g->ctl)
		return -ENOMEM;
	ret = request(gs, g, buf, err);
	if (ret)
		return ret;
	g->fd = open(g->file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (g->fd < 0) {
		ret = -errno;
		strbuf_addf(err, "-A %s: cannot create %s: %s", g->spec, g->file, strerror(-ret));
		return ret;
	}
	ret = receive_metadata(g, buf, err);
	if (!ret)
		ret = open_data(g, err);
	if (!ret && (ret = start_reader(g)))
		strbuf_addf(err, "-A %s: cannot start its reader: %s", g->spec, strerror(-ret));
	return ret;
}

/* trace-cmd's set_tsync_params: "the same clock in all tracing peers" */
static int prepend_clock(struct record_guest *g, const char *clock)
{
	char **argv = calloc((size_t)g->argc + 3, sizeof(*argv));
	int i;

	if (!argv)
		return -ENOMEM;
	argv[0] = strdup("-C");
	argv[1] = strdup(clock);
	for (i = 0; i < g->argc; i++)
		argv[i + 2] = g->argv[i];
	free(g->argv);
	g->argv = argv;
	g->argc += 2;
	g->has_clock = true;
	return argv[0] && argv[1] ? 0 : -ENOMEM;
}

int record_guests_connect(struct record_guests *gs, const char *output, const char *clock,
			  struct strbuf *err)
{
	uint8_t *buf = malloc(NET_MSG_MAX_LEN);
	int i, ret = buf ? 0 : -ENOMEM;

	for (i = 0; !ret && i < gs->nr; i++)
		if (clock && !gs->g[i].has_clock)
			ret = prepend_clock(&gs->g[i], clock);
	for (i = 0; !ret && i < gs->nr; i++)
		ret = connect_guest(gs, &gs->g[i], output, buf, err);
	free(buf);
	return ret;
}

static int close_session(struct record_guest *g, uint8_t *buf, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_msg msg;
	int ret = net_encode_simple(&sb, NET_CLOSE);

	/* from here a hang-up of the agent is its answer to CLOSE, not its death */
	__atomic_store_n(&g->closing, true, __ATOMIC_SEQ_CST);
	if (!ret && (ret = net_conn_write_all(g->ctl, sb.buf, sb.len)))
		fail(g, err, ret, "sending CLOSE");
	strbuf_release(&sb);
	/* the agent sends what it recorded, then answers */
	while (!ret && !(ret = net_conn_recv_msg(g->ctl, buf, &msg)) && msg.cmd != NET_CLOSE_RESP)
		;
	if (ret && !err->len)
		fail(g, err, ret, "waiting for CLOSE_RESP");
	return ret;
}

static void stop_reader(struct record_guest *g)
{
	if (!g->reading)
		return;
	if (write(g->stop_pipe[1], "", 1) < 0)
		g->read_err = g->read_err ? g->read_err : -errno;
	pthread_join(g->reader, NULL);
	g->reading = false;
}

static int write_file(struct record_guest *g, struct strbuf *err)
{
	struct dat_append_cpu *cpus = calloc(g->cpus, sizeof(*cpus));
	struct strbuf why = STRBUF_INIT;
	struct dat_metadata m;
	int64_t size;
	uint32_t i;
	int ret = cpus ? dat_metadata_scan(g->fd, g->meta_size, &m, &why) : -ENOMEM;

	for (i = 0; !ret && i < g->cpus; i++)
		cpus[i] = (struct dat_append_cpu){ .fd = g->tmp[i], .size = g->received[i] };
	if (!ret) {
		size = dat_append_cpu_data(g->fd, g->meta_size, &m, cpus, g->cpus, NULL, &why);
		ret = size < 0 ? (int)size : 0;
	}
	if (ret)
		strbuf_addf(err, "-A %s: writing %s: %s", g->spec, g->file,
			    why.len ? strbuf_str(&why) : strerror(-ret));
	strbuf_release(&why);
	free(cpus);
	return ret;
}

static uint64_t guest_received(const struct record_guest *g)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < g->cpus; i++)
		total += g->received[i];
	return total;
}

/*
 * The guest's file is written whatever way its session ended, with what it sent: an agent
 * that died or stopped answering fails the command, never the data already captured.
 */
static int finish_guest(struct record_guest *g, uint8_t *buf, struct strbuf *err)
{
	size_t failed_at = err->len;
	int ret, written;

	if (__atomic_load_n(&g->gone, __ATOMIC_SEQ_CST)) {
		strbuf_addf(err, "-A %s: the agent hung up while recording", g->spec);
		ret = -EPIPE;
	} else {
		ret = close_session(g, buf, err);
	}
	stop_reader(g);
	if (!ret && g->read_err)
		ret = fail(g, err, g->read_err, "receiving the guest's data");
	if (ret && err->len > failed_at)
		strbuf_addstr(err, "; ");
	written = write_file(g, err);
	g->done = !written;
	if (ret && !written)
		strbuf_addf(err, "%s keeps the %llu bytes of pages it sent", g->file,
			    (unsigned long long)guest_received(g));
	return ret ? ret : written;
}

int record_guests_finish(struct record_guests *gs, struct strbuf *err)
{
	uint8_t *buf = malloc(NET_MSG_MAX_LEN);
	int i, r, ret = buf ? 0 : -ENOMEM;

	for (i = 0; buf && i < gs->nr; i++) {
		r = finish_guest(&gs->g[i], buf, err);
		ret = ret ? ret : r;
		if (r && i + 1 < gs->nr)
			strbuf_addstr(err, "; ");
	}
	free(buf);
	return ret;
}

int record_guests_write_options(const struct record_guests *gs, struct dat_writer *w)
{
	struct strbuf sb = STRBUF_INIT;
	int32_t cpu, pid = -1, cpus;
	int i, ret = 0;

	/* host byte order, as trace-cmd's trace_add_guest_info writes it */
	for (i = 0; !ret && i < gs->nr; i++) {
		const struct record_guest *g = &gs->g[i];

		strbuf_reset(&sb);
		cpus = (int32_t)g->cpus;
		ret = strbuf_add(&sb, g->name, strlen(g->name) + 1) ||
		      strbuf_add(&sb, &g->trace_id, sizeof(g->trace_id)) ||
		      strbuf_add(&sb, &cpus, sizeof(cpus)) ? -ENOMEM : 0;
		for (cpu = 0; !ret && cpu < cpus; cpu++)
			ret = strbuf_add(&sb, &cpu, sizeof(cpu)) || strbuf_add(&sb, &pid, sizeof(pid)) ?
			      -ENOMEM : 0;
		if (!ret)
			ret = dat_writer_add_option(w, DAT_OPT_GUEST, sb.buf, (uint32_t)sb.len);
	}
	strbuf_release(&sb);
	return ret < 0 ? ret : 0;
}

void record_guests_summary(const struct record_guests *gs)
{
	int i;

	for (i = 0; i < gs->nr; i++)
		fprintf(stderr, "guest %s: %u CPUs, %llu bytes of pages, written to %s\n",
			gs->g[i].name, gs->g[i].cpus,
			(unsigned long long)guest_received(&gs->g[i]), gs->g[i].file);
}

static void guest_free(struct record_guest *g)
{
	uint32_t i;

	stop_reader(g);
	/* request() fills both with -1 only once all three arrays exist */
	for (i = 0; g->data && g->tmp && g->received && i < g->cpus; i++) {
		if (g->data[i] >= 0)
			close(g->data[i]);
		if (g->tmp[i] >= 0)
			close(g->tmp[i]);
	}
	if (g->stop_pipe[0] >= 0) {
		close(g->stop_pipe[0]);
		close(g->stop_pipe[1]);
	}
	net_conn_close(g->ctl);
	if (g->fd >= 0) {
		close(g->fd);
		if (!g->done)
			unlink(g->file);
	}
	free(g->ports);
	free(g->data);
	free(g->tmp);
	free(g->received);
	free(g->file);
	free(g->spec);
	free(g->name);
	free(g->host);
	strv_free(g->argv);
}

void record_guests_free(struct record_guests *gs)
{
	int i;

	if (!gs)
		return;
	for (i = 0; i < gs->nr; i++)
		guest_free(&gs->g[i]);
	free(gs->g);
	free(gs);
}
