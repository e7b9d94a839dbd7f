// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader and writer together: a corpus file is read (metadata payloads and pages), written
 * again with ktrace's writer as v6, v7 none, v7 zlib and v7 zstd, and read back. Every event
 * must come out the same (timestamp, CPU, bytes). zlib files have no other reader here:
 * Debian's trace-cmd refuses them.
 *
 * Latency files (a latency tracer's text instead of CPU data) with the same metadata: the text
 * must read back unchanged. With a second argument, KEEP_DIR, they are kept there as
 * latency-v6.dat, latency-v7-none.dat ... for tests/interop/latency to compare the reports of
 * ktrace and trace-cmd.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "ktrace/compress.h"
#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "ktrace/merge.h"
#include "corpus_util.h"

#define MAX_BLOBS 256
#define CHUNK_PAGES 10

static const char *corpus;
static const char *keep_dir;

struct meta {
	void *payload[6];
	struct dat_blob header_page, header_event, kallsyms, printk, cmdlines;
	struct dat_blob ftrace[MAX_BLOBS], events[MAX_BLOBS];
	struct dat_event_system systems[16];
	int nr_ftrace, nr_systems;
};

static uint64_t num(const uint8_t **p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)(*p)[i] << (8 * i);
	*p += bytes;
	return v;
}

static struct dat_blob blob(const uint8_t **p, int size_bytes)
{
	struct dat_blob b;

	b.size = num(p, size_bytes);
	b.data = *p;
	*p += b.size;
	return b;
}

static const uint8_t *payload(struct dat_file *df, struct meta *m, int id)
{
	struct strbuf err = STRBUF_INIT;
	const uint8_t *opt;
	uint64_t size;
	void *data;

	opt = dat_file_option(df, id, 0, NULL);
	assert_non_null(opt);
	assert_int_equal(dat_file_load_section(df, num(&opt, 8), &data, &size, &err), 0);
	m->payload[id - DAT_OPT_HEADER_INFO] = data;
	strbuf_release(&err);
	return data;
}

/* The metadata blobs of a little-endian v7 file. */
static void read_meta(struct dat_file *df, struct meta *m)
{
	const uint8_t *p;
	int i, j, n, total = 0;

	p = payload(df, m, DAT_OPT_HEADER_INFO) + 12;
	m->header_page = blob(&p, 8);
	p += 13;
	m->header_event = blob(&p, 8);
	p = payload(df, m, DAT_OPT_FTRACE_EVENTS);
	m->nr_ftrace = (int)num(&p, 4);
	for (i = 0; i < m->nr_ftrace; i++)
		m->ftrace[i] = blob(&p, 8);
	p = payload(df, m, DAT_OPT_EVENT_FORMATS);
	m->nr_systems = (int)num(&p, 4);
	for (i = 0; i < m->nr_systems; i++) {
		m->systems[i].name = (const char *)p;
		p += strlen((const char *)p) + 1;
		n = (int)num(&p, 4);
		m->systems[i].formats = &m->events[total];
		m->systems[i].nr_formats = n;
		for (j = 0; j < n; j++)
			m->events[total++] = blob(&p, 8);
	}
	p = payload(df, m, DAT_OPT_KALLSYMS);
	m->kallsyms = blob(&p, 4);
	p = payload(df, m, DAT_OPT_PRINTK);
	m->printk = blob(&p, 4);
	p = payload(df, m, DAT_OPT_CMDLINES);
	m->cmdlines = blob(&p, 8);
}

/* One CPU's pages into a temporary file, compressed in chunks when asked. */
static void cpu_source(struct dat_file *df, int index, enum kt_compression comp,
		       struct dat_cpu_source *cs)
{
	uint32_t page_size = dat_file_page_size(df);
	size_t bound = kt_compress_bound(comp, CHUNK_PAGES * page_size);
	uint8_t *raw = malloc(CHUNK_PAGES * page_size), *z = malloc(bound + 8);
	char path[] = "/tmp/ktrace-rt-cpu-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	struct dat_page_stream *ps;
	const void *page;
	size_t n = 0, zlen;
	uint32_t h[2];
	int ret;

	memset(cs, 0, sizeof(*cs));
	cs->cpu = dat_file_buffer(df, 0)->cpus[index].cpu;
	cs->fd = mkstemp(path);
	assert_true(cs->fd >= 0);
	unlink(path);
	assert_int_equal(dat_page_stream_open(df, 0, index, &ps, &err), 0);
	do {
		ret = dat_page_stream_next(ps, &page, &err);
		assert_true(ret >= 0);
		if (ret > 0)
			memcpy(raw + n++ * page_size, page, page_size);
		if (n && (n == CHUNK_PAGES || ret == 0)) {
			cs->raw_size += n * page_size;
			if (comp == KT_COMP_NONE) {
				assert_int_equal(write(cs->fd, raw, n * page_size),
						 (ssize_t)(n * page_size));
			} else {
				zlen = bound;
				assert_int_equal(kt_compress(comp, raw, n * page_size, z + 8, &zlen), 0);
				h[0] = (uint32_t)zlen;
				h[1] = (uint32_t)(n * page_size);
				memcpy(z, h, 8);
				assert_int_equal(write(cs->fd, z, zlen + 8), (ssize_t)(zlen + 8));
				cs->nr_chunks++;
			}
			n = 0;
		}
	} while (ret > 0);
	cs->size = (uint64_t)lseek(cs->fd, 0, SEEK_CUR);
	dat_page_stream_close(ps);
	free(raw);
	free(z);
	strbuf_release(&err);
}

/* A latency file has no TRACECLOCK (trace-cmd's v6 reader would take one from its text). */
static void write_meta(struct dat_writer *w, struct dat_file *src, const struct meta *m,
		       bool clock_option)
{
	struct strbuf err = STRBUF_INIT;
	const void *clock;
	uint32_t size;

	assert_int_equal(dat_writer_headers(w, &m->header_page, &m->header_event, &err), 0);
	assert_int_equal(dat_writer_ftrace_formats(w, m->ftrace, m->nr_ftrace, &err), 0);
	assert_int_equal(dat_writer_event_formats(w, m->systems, m->nr_systems, &err), 0);
	assert_int_equal(dat_writer_kallsyms(w, &m->kallsyms, &err), 0);
	assert_int_equal(dat_writer_printk(w, &m->printk, &err), 0);
	assert_int_equal(dat_writer_cmdlines(w, &m->cmdlines, &err), 0);
	clock = dat_file_option(src, DAT_OPT_TRACECLOCK, 0, &size);
	if (clock_option)
		assert_int_equal(dat_writer_add_option(w, DAT_OPT_TRACECLOCK, clock, size), 0);
	assert_int_equal(dat_writer_cpu_count(w, dat_file_nr_cpus(src)), 0);
	strbuf_release(&err);
}

static void write_copy(struct dat_file *src, const struct meta *m, int version,
		       enum kt_compression comp, int fd)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp,
					  .page_size = dat_file_page_size(src) };
	const struct dat_buffer *b = dat_file_buffer(src, 0);
	struct strbuf err = STRBUF_INIT;
	struct dat_cpu_source cpus[8];
	struct dat_buffer_source bs = { "", b->clock, b->page_size, cpus, b->nr_cpus };
	struct dat_writer *w;
	int i;

	for (i = 0; i < b->nr_cpus; i++)
		cpu_source(src, i, comp, &cpus[i]);
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	write_meta(w, src, m, true);
	if (dat_writer_buffers(w, &bs, 1, &err) || dat_writer_finish(w, &err))
		fail_msg("writer: %s", strbuf_str(&err));
	dat_writer_free(w);
	for (i = 0; i < b->nr_cpus; i++)
		close(cpus[i].fd);
	strbuf_release(&err);
}

static void same_events(struct dat_file *a, struct dat_file *b)
{
	struct strbuf err = STRBUF_INIT;
	struct merged_event ea, eb;
	struct merge *ma, *mb;
	int ra, rb;
	long n = 0;

	assert_int_equal(merge_open(a, NULL, &ma, &err), 0);
	assert_int_equal(merge_open(b, NULL, &mb, &err), 0);
	do {
		ra = merge_next(ma, &ea, &err);
		rb = merge_next(mb, &eb, &err);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		assert_int_equal(ea.record->ts, eb.record->ts);
		assert_int_equal(ea.record->cpu, eb.record->cpu);
		assert_int_equal(ea.record->size, eb.record->size);
		assert_memory_equal(ea.record->data, eb.record->data, ea.record->size);
		n++;
	} while (1);
	assert_int_equal(ra, 0);
	assert_true(n > 0);
	merge_close(ma);
	merge_close(mb);
	strbuf_release(&err);
}

static void round_trip(int version, enum kt_compression comp)
{
	char path[] = "/tmp/ktrace-rt-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	struct dat_file *src, *copy;
	struct meta m;
	char *name = corpus_path(corpus, "sched.dat");
	int fd, i;

	memset(&m, 0, sizeof(m));
	assert_int_equal(dat_file_open(name, &src, &err), 0);
	read_meta(src, &m);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	write_copy(src, &m, version, comp, fd);
	close(fd);
	if (dat_file_open(path, &copy, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_int_equal(dat_file_version(copy), version);
	if (version >= 7)
		assert_int_equal(dat_file_compression(copy), comp);
	same_events(src, copy);
	dat_file_close(copy);
	dat_file_close(src);
	unlink(path);
	for (i = 0; i < 6; i++)
		free(m.payload[i]);
	free(name);
	strbuf_release(&err);
}

static void test_v6(void **state)
{
	(void)state;
	round_trip(6, KT_COMP_NONE);
}

static void test_v7_none(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_NONE);
}

static void test_v7_zlib(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_ZLIB);
}

static void test_v7_zstd(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_ZSTD);
}

/*
 * The head of an irqsoff trace as the kernel prints it, repeated past three compression chunks
 * (ten 4 KiB pages each), with a last line that does not end in a newline.
 */
static char *latency_text(size_t *len)
{
	static const char head[] =
		"# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5 on 6.1.0-28-amd64\n"
		"# --------------------------------------------------------------------\n"
		"# latency: 57 us, #4/4, CPU#1 | (M:none VP:0, KP:0, SP:0 HP:0 #P:2)\n"
		"#    -----------------\n#    | task: swapper/1-0 (uid:0 nice:0 policy:0 "
		"rt_prio:0)\n#    -----------------\n#  => started at: irq_enter_rcu\n"
		"#  => ended at:   irq_exit_rcu\n#\n";
	static const char line[] =
		"  <idle>-0       1d.h1    %2du+: irq_enter_rcu <-sysvec_apic_timer_interrupt\n";
	struct strbuf sb = STRBUF_INIT;
	int i;

	strbuf_addstr(&sb, head);
	for (i = 0; sb.len < 130000; i++)
		strbuf_addf(&sb, line, i % 100);
	strbuf_addstr(&sb, "\n => irq_exit_rcu");
	*len = sb.len;
	return strbuf_detach(&sb, NULL);
}

static char *latency_path(int version, enum kt_compression comp)
{
	char *path = NULL;

	if (!keep_dir) {
		path = strdup("/tmp/ktrace-rt-lat-XXXXXX");
		assert_true(mkstemp(path) >= 0);
		return path;
	}
	assert_true(asprintf(&path, "%s/latency-v%d%s%s.dat", keep_dir, version,
			     version < 7 ? "" : "-", version < 7 ? "" : kt_compression_name(comp))
		    > 0);
	return path;
}

static void latency_trip(int version, enum kt_compression comp)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp,
					  .page_size = 4096 };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *src, *copy;
	struct dat_writer *w;
	struct dat_blob text;
	struct meta m;
	char *name = corpus_path(corpus, "sched.dat"), *path = latency_path(version, comp);
	const char *got;
	uint64_t got_len = 0;
	size_t len;
	int fd, i;

	memset(&m, 0, sizeof(m));
	text.data = latency_text(&len);
	text.size = len;
	assert_int_equal(dat_file_open(name, &src, &err), 0);
	read_meta(src, &m);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	write_meta(w, src, &m, false);
	if (dat_writer_latency(w, "local", &text, &err) || dat_writer_finish(w, &err))
		fail_msg("writer: %s", strbuf_str(&err));
	dat_writer_free(w);
	close(fd);
	if (dat_file_open(path, &copy, &err))
		fail_msg("%s: %s", path, strbuf_str(&err));
	got = dat_file_latency_text(copy, &got_len);
	assert_non_null(got);
	assert_int_equal(got_len, len);
	assert_memory_equal(got, text.data, len);
	dat_file_close(copy);
	dat_file_close(src);
	if (!keep_dir)
		unlink(path);
	for (i = 0; i < 6; i++)
		free(m.payload[i]);
	free((void *)text.data);
	free(name);
	free(path);
	strbuf_release(&err);
}

static void test_latency(void **state)
{
	(void)state;
	latency_trip(6, KT_COMP_NONE);
	latency_trip(7, KT_COMP_NONE);
	latency_trip(7, KT_COMP_ZLIB);
	latency_trip(7, KT_COMP_ZSTD);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_v7_none),
		cmocka_unit_test(test_v7_zlib),
		cmocka_unit_test(test_v7_zstd),
		cmocka_unit_test(test_latency),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR [KEEP_DIR]\n", argv[0]);
		return 2;
	}
	corpus = argv[1];
	keep_dir = argc > 2 ? argv[2] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
