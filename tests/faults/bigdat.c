// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes a large synthetic trace.dat (v7, uncompressed) with ktrace's own writer, without the
 * kernel, for tests/faults/bigfile.sh: MB megabytes of 4 KB ring-buffer pages spread over CPUS
 * CPUs, each page holding PER_PAGE ftrace `print` events of EVENT_SIZE bytes (long events, whose
 * length is in the first array word, so that a GB is about 2 M events, not 9 M). Prints the
 * number of events written on stdout.
 *   bigdat OUT MB CPUS
 * Each CPU's pages go first to an unlinked temp file next to OUT (the writer copies from fds),
 * so the peak disk use is about twice MB.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "../unit/ring_headers.h"
#include "../unit/sched_formats.h"

#define PS 4096
#define PAGE_HDR 16
#define EVENT_SIZE 504			/* 4 header + 4 length + 496 payload */
#define PAYLOAD (EVENT_SIZE - 8)
#define PER_PAGE ((PS - PAGE_HDR) / EVENT_SIZE)
#define PRINT_ID 5
#define PID 4242

static const char header_page[] = RING_HEADER_PAGE;
static const char header_event[] = RING_HEADER_EVENT;
static const char print_format[] =
	"name: print\nID: 5\nformat:\n" SCHED_COMMON_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";
static const char cmdlines[] = "4242 bigdat\n";

/* One page of CPU `cpu`, number `n`: PER_PAGE events 1 ns apart, the commit word their size. */
static void fill_page(uint8_t *page, int cpu, uint64_t n)
{
	uint64_t ts = 1000000 + n * 1000 + (uint64_t)cpu, commit = PER_PAGE * EVENT_SIZE;
	uint8_t *e = page + PAGE_HDR;
	uint32_t hdr = 1u << 5, len = PAYLOAD + 4;	/* type_len 0, time_delta 1 */
	uint16_t type = PRINT_ID;
	int32_t pid = PID;
	char tag[80];
	int i;

	memset(page, 0, PS);
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
	for (i = 0; i < PER_PAGE; i++, e += EVENT_SIZE) {
		memcpy(e, &hdr, 4);
		memcpy(e + 4, &len, 4);
		memcpy(e + 8, &type, 2);
		memcpy(e + 12, &pid, 4);
		memset(e + 24, 'x', PAYLOAD - 16 - 1);
		memcpy(e + 24, tag, (size_t)snprintf(tag, sizeof(tag), "cpu %d page %llu event %d ",
						     cpu, (unsigned long long)n, i));
	}
}

static int cpu_pages(const char *dir, int cpu, uint64_t nr, struct dat_cpu_source *src)
{
	char path[4096];
	uint8_t page[PS];
	uint64_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/bigdat-cpu-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	unlink(path);
	memset(src, 0, sizeof(*src));
	src->cpu = cpu;
	src->fd = fd;
	for (n = 0; n < nr; n++) {
		fill_page(page, cpu, n);
		if (write(fd, page, PS) != PS)
			return errno ? -errno : -ENOSPC;
	}
	src->size = src->raw_size = nr * PS;
	return 0;
}

static int write_dat(int fd, struct dat_buffer_source *buf, struct strbuf *err)
{
	struct dat_writer_config cfg = { .version = 7, .compression = KT_COMP_NONE, .page_size = PS };
	struct dat_blob hp = { header_page, sizeof(header_page) - 1 };
	struct dat_blob he = { header_event, sizeof(header_event) - 1 };
	struct dat_blob fmt = { print_format, sizeof(print_format) - 1 };
	struct dat_blob cl = { cmdlines, sizeof(cmdlines) - 1 }, empty = { "", 0 };
	struct dat_writer *w;
	int ret;

	ret = dat_writer_open(fd, &cfg, &w, err);
	if (ret)
		return ret;
	ret = dat_writer_headers(w, &hp, &he, err);
	ret = ret ?: dat_writer_ftrace_formats(w, &fmt, 1, err);
	ret = ret ?: dat_writer_event_formats(w, NULL, 0, err);
	ret = ret ?: dat_writer_kallsyms(w, &empty, err);
	ret = ret ?: dat_writer_printk(w, &empty, err);
	ret = ret ?: dat_writer_cmdlines(w, &cl, err);
	ret = ret ?: dat_writer_add_option(w, DAT_OPT_TRACECLOCK, "[local] global\n", 16);
	ret = ret ?: dat_writer_cpu_count(w, buf->nr_cpus);
	ret = ret ?: dat_writer_buffers(w, buf, 1, err);
	ret = ret ?: dat_writer_finish(w, err);
	dat_writer_free(w);
	return ret;
}

int main(int argc, char **argv)
{
	struct dat_cpu_source cpus[64];
	struct dat_buffer_source buf = { .name = "", .clock = "local", .page_size = PS,
					 .cpus = cpus };
	struct strbuf err = STRBUF_INIT;
	char copy[4096];
	const char *dir;
	uint64_t pages;
	int fd, i, ret = 0;

	if (argc != 4 || atoi(argv[3]) < 1 || atoi(argv[3]) > 64 || atoll(argv[2]) < 1) {
		fprintf(stderr, "usage: bigdat OUT MB CPUS (1-64)\n");
		return 2;
	}
	snprintf(copy, sizeof(copy), "%s", argv[1]);
	dir = dirname(copy);
	buf.nr_cpus = atoi(argv[3]);
	pages = (uint64_t)atoll(argv[2]) * (1024 * 1024 / PS) / (uint64_t)buf.nr_cpus;
	for (i = 0; i < buf.nr_cpus && !ret; i++)
		ret = cpu_pages(dir, i, pages, &cpus[i]);
	if (ret) {
		fprintf(stderr, "bigdat: writing the pages of CPU %d next to %s: %s\n", i - 1,
			argv[1], strerror(-ret));
		return 1;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	ret = fd < 0 ? -errno : write_dat(fd, &buf, &err);
	if (ret) {
		fprintf(stderr, "bigdat: %s: %s\n", argv[1],
			err.len ? strbuf_str(&err) : strerror(-ret));
		return 1;
	}
	printf("%llu\n", (unsigned long long)(pages * buf.nr_cpus * PER_PAGE));
	return close(fd) ? 1 : 0;
}
