// SPDX-License-Identifier: GPL-2.0-only
/* record -N: a capture streamed to a listener, one session per buffer (record_net.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <tracefs.h>
#include <unistd.h>

#include "record_net.h"

struct record_net {
	struct net_send **ns;
	int nr;
	bool udp;
	struct net_tls *tls;	/* NULL: plaintext */
	bool agent;		/* serving a host's record -A */
};

static int send_metadata(struct record_session *s, int buf, struct net_send *ns, struct strbuf *err)
{
	int fd = memfd_create("ktrace-metadata", MFD_CLOEXEC);
	int ret = fd < 0 ? -errno : 0;

	if (ret)
		strbuf_addf(err, "cannot create a memfd for the metadata: %s", strerror(-ret));
	if (!ret)
		ret = record_session_write_meta(s, buf, fd, err);
	if (!ret)
		ret = net_send_metadata(ns, fd, err);
	if (fd >= 0)
		close(fd);
	return ret;
}

int record_net_connect(const char *target, bool udp, const struct net_tls_opts *tls,
		       int nr_sessions, struct record_net **rn, struct strbuf *err)
{
	const char *top = tracefs_tracing_dir();
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct record_net *r;
	int ret = 0;

	if (!top || cpus < 1 || nr_sessions < 1)
		return -ENODEV;
	r = calloc(1, sizeof(*r));
	if (r)
		r->ns = calloc((size_t)nr_sessions, sizeof(*r->ns));
	if (!r || !r->ns) {
		free(r);
		return -ENOMEM;
	}
	r->udp = udp;
	if (net_tls_wanted(tls))
		ret = net_tls_new(tls, false, &r->tls, err);
	/* The same CPU count and page size as the session's, which exists only later. */
	for (r->nr = 0; !ret && r->nr < nr_sessions; r->nr++)
		ret = net_send_open(target, udp, r->tls, (uint32_t)cpus, meta_subbuf_size(top),
				    &r->ns[r->nr], err);
	if (ret) {
		record_net_free(r);
		r = NULL;
	}
	*rn = r;
	return ret;
}

int record_net_agent(struct net_send *ns, struct record_net **rn)
{
	struct record_net *r = calloc(1, sizeof(*r));

	if (r)
		r->ns = calloc(1, sizeof(*r->ns));
	if (!r || !r->ns) {
		free(r);
		net_send_free(ns);
		return -ENOMEM;
	}
	r->ns[0] = ns;
	r->nr = 1;
	r->agent = true;
	*rn = r;
	return 0;
}

bool record_net_peer_stopped(const struct record_net *rn)
{
	return rn && rn->agent && net_send_peer_closed(rn->ns[0]);
}

int record_net_start(struct record_session *s, struct record_net *rn, struct strbuf *err)
{
	int i, ret = 0;

	if (s->nr_bufs != rn->nr)
		return -EINVAL;
	for (i = 0; !ret && i < rn->nr; i++)
		ret = send_metadata(s, i, rn->ns[i], err);
	for (i = 0; !ret && i < rn->nr; i++)
		s->bufs[i].sink_fds = net_send_data_fds(rn->ns[i]);
	s->datagram = rn->udp;
	return ret;
}

int record_net_pollfds(const struct record_net *rn, struct pollfd *pfds, int max)
{
	int i;

	for (i = 0; rn && i < rn->nr && i < max; i++) {
		pfds[i].fd = net_send_ctl_fd(rn->ns[i]);
		pfds[i].events = POLLIN | POLLRDHUP;
	}
	return i;
}

int record_net_finish(struct record_session *s, struct record_net *rn, struct strbuf *err)
{
	struct strbuf later = STRBUF_INIT;
	int i, ret = 0;

	/* The listener takes EOF on every data connection as the end of that CPU's data. */
	record_session_close(s);
	/* Every session gets its CLOSE; the first failure is the one reported. */
	for (i = 0; i < rn->nr; i++) {
		int r = net_send_close(rn->ns[i], ret ? &later : err);

		ret = ret ? ret : r;
	}
	strbuf_release(&later);
	return ret;
}

void record_net_delivered(const struct record_session *s, const struct record_net *rn,
			  const char *target, bool lost)
{
	bool agent = rn && rn->agent;
	int i, cpu;

	fprintf(stderr, "ktrace record: %s%s: %s; delivered before that:\n", agent ? "" : "-N ",
		target, !lost ? "recording stopped on an error" :
		agent ? "the host went away" : "the listener went away");
	for (i = 0; i < s->nr_bufs; i++) {
		const struct record_buffer *b = &s->bufs[i];

		if (s->nr_bufs > 1)
			fprintf(stderr, " session %d (%s%s):\n", i + 1,
				b->name ? "instance " : "top instance", b->name ? b->name : "");
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			uint64_t bytes = b->cpus[cpu].st.file_bytes;

			fprintf(stderr, "  CPU%d: %llu bytes (%llu pages)\n", cpu,
				(unsigned long long)bytes,
				(unsigned long long)(b->page_size ? bytes / b->page_size : 0));
		}
	}
}

void record_net_free(struct record_net *rn)
{
	int i;

	if (!rn)
		return;
	for (i = 0; i < rn->nr; i++)
		net_send_free(rn->ns[i]);
	net_tls_free(rn->tls);
	free(rn->ns);
	free(rn);
}
