// SPDX-License-Identifier: GPL-2.0-only
/* A capture's recorders and temp files, and the trace.dat they become (record_session.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "ktrace/fdio.h"
#include "ktrace/plan.h"
#include "ktrace/session.h"
#include "ktrace/tfs.h"
#include "record_guest.h"
#include "record_latency.h"
#include "record_session.h"

/* The ring buffer wakes a recorder at buffer_percent; this bounds the wait if it never fills. */
#define DEFAULT_WAIT_MS	10

static char *instance_dir(const char *name)
{
	struct strbuf dir = STRBUF_INIT;

	if (tfs_path(&dir, name, NULL)) {
		strbuf_release(&dir);
		return NULL;
	}
	return strbuf_detach(&dir, NULL);
}

static char *output_dir(const char *output)
{
	char *copy = strdup(output ? output : "trace.dat");
	char *dir;

	if (!copy)
		return NULL;
	dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

int record_session_set_temp_dir(struct record_session *s, const char *dir)
{
	char *copy = strdup(dir);

	if (!copy)
		return -ENOMEM;
	free(s->out_dir);
	s->out_dir = copy;
	return 0;
}

int record_session_init(struct record_session *s, const char *const *names, int nr_names,
		     const char *output, int version, enum kt_compression comp)
{
	int i, cpu;

	memset(s, 0, sizeof(*s));
	s->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	s->version = version;
	s->compression = version < 7 ? KT_COMP_NONE : comp;
	s->wait_ms = DEFAULT_WAIT_MS;
	s->out_dir = output_dir(output);
	s->bufs = calloc((size_t)nr_names + 1, sizeof(*s->bufs));
	if (!s->out_dir || !s->bufs || s->nr_cpus < 1)
		return -ENOMEM;
	s->nr_bufs = nr_names;
	for (i = 0; i < nr_names; i++) {
		struct record_buffer *b = &s->bufs[i];

		b->name = names[i] ? strdup(names[i]) : NULL;
		b->dir = instance_dir(names[i]);
		b->cpus = calloc((size_t)s->nr_cpus, sizeof(*b->cpus));
		if (!b->dir || !b->cpus || (names[i] && !b->name))
			return -ENOMEM;
		b->page_size = meta_subbuf_size(b->dir);
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			b->cpus[cpu].cpu = cpu;
			b->cpus[cpu].fd = -1;
			b->cpus[cpu].spare_fd = -1;
		}
	}
	return 0;
}

static int parse_counter(const char *text, const char *key, uint64_t *out)
{
	const char *p = strstr(text, key);

	*out = 0;
	if (!p)
		return -ENOENT;
	*out = strtoull(p + strlen(key), NULL, 10);
	return 0;
}

int record_read_counters(const char *dir, int cpu, struct cpu_counters *c)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	const char *t;
	int ret;

	strbuf_addf(&path, "%s/per_cpu/cpu%d/stats", dir, cpu);
	/* Every key then starts a line, "overrun" included (not "commit overrun"). */
	strbuf_addch(&sb, '\n');
	ret = strbuf_read_file(&sb, strbuf_str(&path));
	t = strbuf_str(&sb);
	parse_counter(t, "\nentries: ", &c->entries);
	parse_counter(t, "\noverrun: ", &c->overrun);
	parse_counter(t, "\ncommit overrun: ", &c->commit_overrun);
	parse_counter(t, "\ndropped events: ", &c->dropped);
	parse_counter(t, "\nread events: ", &c->read_events);
	strbuf_release(&path);
	strbuf_release(&sb);
	return ret;
}

static int start_cpu(struct record_session *s, struct record_buffer *b, struct record_cpu *c,
		     struct strbuf *err)
{
	struct recorder_config cfg = {
		.trace_dir = b->dir,
		.raw_file = s->raw_file,
		.cpu = c->cpu,
		.page_size = b->page_size,
		.compression = s->compression,
		.wait_ms = s->wait_ms,
		/* the buffer's pages, and a few the writer filled meanwhile */
		.take_at_most = s->bounded ? (uint64_t)b->buffer_kb * 1024 + 4ull * b->page_size : 0,
		.read = s->read,
		.no_ring_wait = s->no_ring_wait,
	};
	int ret;

	if (b->sink_fds) {
		c->fd = b->sink_fds[c->cpu];
		b->sink_fds[c->cpu] = -1;
		/* The listener compresses as the file's header says; pages travel raw. */
		cfg.compression = KT_COMP_NONE;
		cfg.datagram = s->datagram;
	} else {
		c->fd = fd_open_temp(s->out_dir);
	}
	if (c->fd < 0) {
		strbuf_addf(err, "cannot create a temp file in %s: %s", s->out_dir,
			    strerror(-c->fd));
		return c->fd;
	}
	cfg.out_fd = c->fd;
	cfg.spare_fd = -1;
	if (s->max_bytes) {
		c->spare_fd = fd_open_temp(s->out_dir);
		if (c->spare_fd < 0) {
			strbuf_addf(err, "cannot create a temp file in %s: %s", s->out_dir,
				    strerror(-c->spare_fd));
			return c->spare_fd;
		}
		cfg.spare_fd = c->spare_fd;
		cfg.max_bytes = s->max_bytes;
	}
	record_read_counters(b->dir, c->cpu, &c->start);
	ret = recorder_start(&cfg, &c->rec);
	/* A configured CPU that is not present has no ring buffer: nothing to record there. */
	if (ret == -ENOENT || ret == -ENODEV)
		return 0;
	if (!ret && s->rt_prio) {
		ret = recorder_set_rt_prio(c->rec, s->rt_prio);
		if (ret)
			strbuf_addf(err, "-r %d: cannot run the recorder of CPU %d at that "
				    "SCHED_FIFO priority: %s", s->rt_prio, c->cpu, strerror(-ret));
		return ret;
	}
	if (ret)
		strbuf_addf(err, "cannot %s %s/per_cpu/cpu%d/%s: %s",
			    s->read == RECORDER_READ_MMAP ? "map" : "read", b->dir, c->cpu,
			    s->raw_file ? s->raw_file : "trace_pipe_raw", strerror(-ret));
	return ret;
}

/* The summary's loss advice needs it, and by then undo has put the old size back. */
static uint32_t read_buffer_kb(const char *dir)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	uint32_t kb = 0;

	strbuf_addf(&path, "%s/buffer_size_kb", dir);
	if (!strbuf_read_file(&sb, strbuf_str(&path)))
		kb = (uint32_t)strtoul(strbuf_str(&sb), NULL, 10);
	strbuf_release(&path);
	strbuf_release(&sb);
	return kb;
}

/*
 * KTRACE_RECORD_READ chooses how the ring buffer is read. Splice stays the default: measured in
 * one bench/record run, reading through the mapping took 1.0-1.8x splice's recorder CPU
 * (zstd's streaming mode copies each page into its own window), so the mapping is opt-in
 * (auto, mmap) until that is tuned.
 */
static int read_mode_from_env(enum recorder_read *mode, struct strbuf *err)
{
	static const char *const names[] = {
		[RECORDER_READ_AUTO] = "auto",
		[RECORDER_READ_MMAP] = "mmap",
		[RECORDER_READ_SPLICE] = "splice",
	};
	const char *v = getenv("KTRACE_RECORD_READ");
	size_t i;

	*mode = RECORDER_READ_SPLICE;
	if (!v || !*v)
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(v, names[i]) == 0) {
			*mode = (enum recorder_read)i;
			return 0;
		}
	}
	strbuf_addf(err, "KTRACE_RECORD_READ=%s: expected auto, mmap or splice", v);
	return -EINVAL;
}

int record_session_start(struct record_session *s, struct strbuf *err)
{
	int i, cpu, ret = read_mode_from_env(&s->read, err);

	if (ret)
		return ret;

	for (i = 0; i < s->nr_bufs; i++)
		s->bufs[i].buffer_kb = read_buffer_kb(s->bufs[i].dir);
	for (i = 0; !ret && i < s->nr_bufs; i++)
		for (cpu = 0; !ret && cpu < s->nr_cpus; cpu++)
			ret = start_cpu(s, &s->bufs[i], &s->bufs[i].cpus[cpu], err);
	return ret;
}

int record_session_tids(const struct record_session *s, pid_t **tids, int *nr)
{
	int i, cpu, n = 0;

	*tids = calloc((size_t)(s->nr_bufs * s->nr_cpus) + 1, sizeof(**tids));
	if (!*tids)
		return -ENOMEM;
	for (i = 0; i < s->nr_bufs; i++)
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			if (s->bufs[i].cpus[cpu].rec)
				(*tids)[n++] = recorder_tid(s->bufs[i].cpus[cpu].rec);
	*nr = n;
	return 0;
}

int record_session_finish(struct record_session *s, struct strbuf *err)
{
	int i, cpu, ret = 0;

	for (i = 0; i < s->nr_bufs; i++) {
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			struct record_cpu *c = &s->bufs[i].cpus[cpu];
			int r;

			if (!c->rec)
				continue;
			r = recorder_finish(c->rec);
			recorder_get_stats(c->rec, &c->st);
			record_read_counters(s->bufs[i].dir, cpu, &c->end);
			if (r && !ret) {
				strbuf_addf(err, "recording %s/per_cpu/cpu%d: %s", s->bufs[i].dir,
					    cpu, strerror(-r));
				ret = r;
			}
		}
	}
	return ret;
}

static int fill_sources(struct record_session *s, struct dat_buffer_source *src,
			struct dat_cpu_source *cpus)
{
	int i, cpu;

	for (i = 0; i < s->nr_bufs; i++) {
		struct record_buffer *b = &s->bufs[i];

		free(b->clock);
		b->clock = meta_selected_clock(b->dir);
		if (!b->clock)
			return -ENOMEM;
		src[i].name = b->name ? b->name : "";
		src[i].clock = b->clock;
		src[i].page_size = b->page_size;
		src[i].cpus = &cpus[i * s->nr_cpus];
		src[i].nr_cpus = s->nr_cpus;
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			struct dat_cpu_source *d = &cpus[i * s->nr_cpus + cpu];

			d->cpu = cpu;
			d->fd = b->cpus[cpu].st.file_bytes ? b->cpus[cpu].st.fd : b->cpus[cpu].fd;
			d->size = b->cpus[cpu].st.file_bytes;
			d->raw_size = b->cpus[cpu].st.raw_bytes;
			d->nr_chunks = b->cpus[cpu].st.nr_chunks;
		}
	}
	return 0;
}

static int add_stats_options(struct record_session *s, struct dat_writer *w)
{
	int i, ret = 0;

	for (i = 0; !ret && i < s->nr_bufs; i++)
		ret = meta_add_cpustats(w, s->bufs[i].dir, s->bufs[i].name, s->nr_cpus);
	return ret;
}

/*
 * Everything before the CPU statistics and the data; the clocks are those of buffer `buf`.
 * A latency file has no TRACECLOCK option (metadata.h).
 */
static int write_meta(struct record_session *s, int buf, struct dat_writer *w, struct strbuf *err)
{
	int ret = meta_write_sections(w, s->bufs[buf].dir, &s->events, err);
	int i;

	if (!ret && s->date)
		ret = dat_writer_add_option(w, DAT_OPT_DATE, s->date, (uint32_t)strlen(s->date) + 1);
	if (!ret && s->ts_offset)
		ret = dat_writer_add_option(w, DAT_OPT_OFFSET, s->ts_offset,
					    (uint32_t)strlen(s->ts_offset) + 1);
	if (!ret)
		ret = meta_add_options(w, s->latency ? NULL : s->bufs[buf].dir, s->nr_cpus,
					       s->trace_id);
	if (!ret && s->guests)
		ret = record_guests_write_options(s->guests, w);
	for (i = 0; !ret && s->procmaps && i < s->procmaps->nr; i++)
		ret = dat_writer_add_option(w, DAT_OPT_PROCMAPS, s->procmaps->entries[i],
					    (uint32_t)strlen(s->procmaps->entries[i]) + 1);
	return ret;
}

/* A latency tracer's file: the metadata, then buffer 0's `trace` text as the data. */
static int write_latency(struct record_session *s, struct dat_writer *w, struct strbuf *err)
{
	struct record_buffer *b = &s->bufs[0];
	char *path = NULL;
	int ret = write_meta(s, 0, w, err);

	free(b->clock);
	b->clock = meta_selected_clock(b->dir);
	if (!ret && (!b->clock || asprintf(&path, "%s/trace", b->dir) < 0))
		ret = -ENOMEM;
	if (!ret)
		ret = record_latency_store(w, path, b->clock, err);
	if (!ret)
		ret = dat_writer_finish(w, err);
	free(path);
	return ret;
}

static int write_all(struct record_session *s, struct dat_writer *w, struct strbuf *err)
{
	struct dat_buffer_source *src = calloc((size_t)s->nr_bufs + 1, sizeof(*src));
	struct dat_cpu_source *cpus = calloc((size_t)(s->nr_bufs * s->nr_cpus) + 1,
					     sizeof(*cpus));
	int ret = src && cpus ? 0 : -ENOMEM;

	if (!ret)
		ret = write_meta(s, 0, w, err);
	if (!ret)
		ret = add_stats_options(s, w);
	if (!ret)
		ret = fill_sources(s, src, cpus);
	if (!ret)
		ret = dat_writer_buffers(w, src, s->nr_bufs, err);
	if (!ret)
		ret = dat_writer_finish(w, err);
	free(src);
	free(cpus);
	return ret;
}

/* meta_buf: write only buffer meta_buf's metadata; -1: the whole file. */
static int write_file(struct record_session *s, int out_fd, int meta_buf, struct strbuf *err)
{
	struct dat_writer_config cfg = {
		.version = s->version,
		.compression = s->compression,
		.page_size = (uint32_t)getpagesize(),
	};
	struct dat_writer *w = NULL;
	int ret;

	if (!s->nr_bufs)
		return -EINVAL;
	ret = dat_writer_open(out_fd, &cfg, &w, err);
	if (!ret && meta_buf >= 0) {
		ret = write_meta(s, meta_buf, w, err);
		if (!ret)
			ret = dat_writer_metadata_end(w, err);
	} else if (!ret) {
		ret = s->latency ? write_latency(s, w, err) : write_all(s, w, err);
	}
	if (ret && !err->len)
		strbuf_addf(err, "%s", strerror(-ret));
	dat_writer_free(w);
	return ret;
}

int record_session_write(struct record_session *s, int out_fd, struct strbuf *err)
{
	return write_file(s, out_fd, -1, err);
}

int record_session_write_meta(struct record_session *s, int buf, int out_fd, struct strbuf *err)
{
	if (buf < 0 || buf >= s->nr_bufs)
		return -EINVAL;
	return write_file(s, out_fd, buf, err);
}

void record_session_close(struct record_session *s)
{
	int i, cpu;

	for (i = 0; s->bufs && i < s->nr_bufs; i++) {
		for (cpu = 0; s->bufs[i].cpus && cpu < s->nr_cpus; cpu++) {
			struct record_cpu *c = &s->bufs[i].cpus[cpu];

			recorder_free(c->rec);
			c->rec = NULL;
			if (c->fd >= 0)
				close(c->fd);
			if (c->spare_fd >= 0)
				close(c->spare_fd);
			c->fd = c->spare_fd = -1;
		}
	}
}

void record_session_release(struct record_session *s)
{
	int i;

	record_session_close(s);
	for (i = 0; s->bufs && i < s->nr_bufs; i++) {
		struct record_buffer *b = &s->bufs[i];

		free(b->cpus);
		free(b->name);
		free(b->dir);
		free(b->clock);
	}
	free(s->bufs);
	free(s->out_dir);
	free(s->date);
	meta_events_release(&s->events);
	memset(s, 0, sizeof(*s));
}
