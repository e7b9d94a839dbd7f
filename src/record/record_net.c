// SPDX-License-Identifier: GPL-2.0-only
/* record -N: a capture streamed to a listener (record_net.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <tracefs.h>
#include <unistd.h>

#include "record_net.h"

static int send_metadata(struct rec_session *s, struct net_send *ns, struct strbuf *err)
{
	int fd = memfd_create("ktrace-metadata", MFD_CLOEXEC);
	int ret = fd < 0 ? -errno : 0;

	if (ret)
		strbuf_addf(err, "cannot create a memfd for the metadata: %s", strerror(-ret));
	if (!ret)
		ret = rec_session_write_meta(s, fd, err);
	if (!ret)
		ret = net_send_metadata(ns, fd, err);
	if (fd >= 0)
		close(fd);
	return ret;
}

int record_net_connect(const char *target, bool udp, struct net_send **ns, struct strbuf *err)
{
	const char *top = tracefs_tracing_dir();
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	if (!top || cpus < 1)
		return -ENODEV;
	/* The same CPU count and page size as the session's, which exists only later. */
	return net_send_open(target, udp, (uint32_t)cpus, meta_subbuf_size(top), ns, err);
}

int record_net_start(struct rec_session *s, struct net_send *ns, bool udp, struct strbuf *err)
{
	int ret = send_metadata(s, ns, err);

	if (ret)
		return ret;
	s->sink_fds = net_send_data_fds(ns);
	s->datagram = udp;
	return 0;
}

int record_net_finish(struct rec_session *s, struct net_send *ns, struct strbuf *err)
{
	/* The listener takes EOF on every data connection as the end of that CPU's data. */
	rec_session_close(s);
	return net_send_close(ns, err);
}

void record_net_delivered(const struct rec_session *s, const char *target, bool lost)
{
	const struct rec_buffer *b = &s->bufs[0];
	int cpu;

	fprintf(stderr, "ktrace record: -N %s: %s; delivered before that:\n", target,
		lost ? "the listener went away" : "recording stopped on an error");
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint64_t bytes = b->cpus[cpu].st.file_bytes;

		fprintf(stderr, "  CPU%d: %llu bytes (%llu pages)\n", cpu,
			(unsigned long long)bytes,
			(unsigned long long)(b->page_size ? bytes / b->page_size : 0));
	}
}
