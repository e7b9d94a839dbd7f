// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat writer: the flyrecord CPU data of every buffer. Each CPU's data starts page aligned
 * (readers mmap it page by page). The bytes come from the recorders' temp files through
 * copy_file_range, which stays in the kernel (and shares extents on filesystems that can), so
 * the pages are never copied through user memory on the way to the output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_format.h"
#include "writer_internal.h"

#define COPY_STEP	(1U << 30)
#define SLOW_BUF	(1U << 20)

/* For filesystems or kernels without copy_file_range between these two files. */
static int copy_slow(struct dat_writer *w, int src, uint64_t in, uint64_t len)
{
	char *buf = malloc(SLOW_BUF);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (!ret && len) {
		size_t want = len < SLOW_BUF ? (size_t)len : SLOW_BUF;
		ssize_t n = pread(src, buf, want, (off_t)in);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		ret = dat_w_write(w, buf, (size_t)n);
		in += (uint64_t)n;
		len -= (uint64_t)n;
	}
	free(buf);
	return ret;
}

static int copy_from_fd(struct dat_writer *w, int src, uint64_t len)
{
	loff_t in = 0, out = (loff_t)w->off;

	while (len) {
		size_t step = len < COPY_STEP ? (size_t)len : COPY_STEP;
		ssize_t n = copy_file_range(src, &in, w->fd, &out, step, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
			      errno == EOPNOTSUPP)) {
			w->off = (uint64_t)out;
			return copy_slow(w, src, (uint64_t)in, len);
		}
		if (n <= 0)
			return n < 0 ? -errno : -EIO;	/* the temp file is shorter than said */
		len -= (uint64_t)n;
	}
	w->off = (uint64_t)out;
	return 0;
}

static void align_to_page(struct dat_writer *w, uint32_t page_size)
{
	uint64_t ps = page_size ? page_size : w->page_size;

	w->off = (w->off + ps - 1) / ps * ps;
}

static int write_cpu(struct dat_writer *w, const struct dat_cpu_source *c, uint32_t page_size,
		     uint64_t *offset)
{
	int ret = 0;

	align_to_page(w, page_size);
	*offset = w->off;
	if (!c || !c->size)
		return 0;
	if (w->codec)
		ret = dat_w_put32(w, c->nr_chunks);
	if (!ret)
		ret = copy_from_fd(w, c->fd, c->size);
	return ret;
}

static int add_num(struct strbuf *sb, const struct dat_writer *w, int bytes, uint64_t v)
{
	uint8_t b[8];

	dat_w_encode(w, b, bytes, v);
	return strbuf_add(sb, b, (size_t)bytes);
}

int dat_w_buffer_option(struct dat_writer *w, const char *name, const char *clock,
			uint32_t page_size, uint64_t start, const struct dat_w_cpu_place *cpus,
			int nr)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t count = 0;
	int ret, i;

	for (i = 0; i < nr; i++)
		count += cpus[i].size != 0;
	ret = add_num(&sb, w, 8, start);
	if (!ret)
		ret = strbuf_add(&sb, name, strlen(name) + 1);
	if (!ret)
		ret = strbuf_add(&sb, clock, strlen(clock) + 1);
	if (!ret)
		ret = add_num(&sb, w, 4, page_size);
	if (!ret)
		ret = add_num(&sb, w, 4, count);
	for (i = 0; !ret && i < nr; i++) {
		if (!cpus[i].size)
			continue;
		ret = add_num(&sb, w, 4, cpus[i].cpu);
		if (!ret)
			ret = add_num(&sb, w, 8, cpus[i].offset);
		if (!ret)
			ret = add_num(&sb, w, 8, cpus[i].size);
	}
	if (!ret)
		ret = dat_w_option_add(w, DAT_OPT_BUFFER, sb.buf, (uint32_t)sb.len);
	strbuf_release(&sb);
	return ret < 0 ? ret : 0;
}

/* v7: one section per buffer, then an options section holding its BUFFER option. */
static int write_buffer_v7(struct dat_writer *w, const struct dat_buffer_source *b)
{
	struct strbuf desc = STRBUF_INIT;
	uint64_t start = w->off, size_at;
	struct dat_w_cpu_place *place;
	int ret, i;

	place = calloc((size_t)b->nr_cpus + 1, sizeof(*place));
	if (!place)
		return -ENOMEM;
	ret = strbuf_addf(&desc, "buffer flyrecord %s", b->name);
	if (!ret)
		ret = dat_w_section_start(w, DAT_OPT_BUFFER,
					  w->codec ? DAT_SECTION_FLAG_COMPRESSED : 0,
					  strbuf_str(&desc), &size_at);
	for (i = 0; !ret && i < b->nr_cpus; i++) {
		place[i].cpu = (uint32_t)b->cpus[i].cpu;
		place[i].size = b->cpus[i].size;
		ret = write_cpu(w, &b->cpus[i], b->page_size, &place[i].offset);
	}
	if (!ret)
		ret = dat_w_section_end(w, size_at);
	if (!ret)
		ret = dat_w_buffer_option(w, b->name, b->clock, b->page_size, start, place,
					  b->nr_cpus);
	if (!ret)
		ret = dat_w_options_section(w);
	strbuf_release(&desc);
	free(place);
	return ret;
}

static const struct dat_cpu_source *find_cpu(const struct dat_buffer_source *b, int cpu)
{
	int i;

	for (i = 0; b && i < b->nr_cpus; i++)
		if (b->cpus[i].cpu == cpu)
			return &b->cpus[i];
	return NULL;
}

/*
 * v6: "flyrecord\0", an (offset, size) pair for every CPU of the machine, the selected clock as
 * "[clock]", then the data. `b` NULL writes an empty one (no top instance recorded).
 */
static int write_flyrecord_v6(struct dat_writer *w, const struct dat_buffer_source *b,
			      const char *clock)
{
	struct strbuf bracket = STRBUF_INIT;
	uint64_t table = 0, pair[2];
	uint32_t page_size = b ? b->page_size : w->page_size;
	int ret, cpu;

	ret = dat_w_write(w, "flyrecord", 10);
	table = w->off;
	for (cpu = 0; !ret && cpu < w->cpus; cpu++) {
		pair[0] = pair[1] = 0;
		ret = dat_w_write(w, pair, sizeof(pair));
	}
	if (!ret)
		ret = strbuf_addf(&bracket, "[%s]", clock);
	if (!ret)
		ret = dat_w_put64(w, bracket.len);
	if (!ret)
		ret = dat_w_write(w, bracket.buf, bracket.len);
	strbuf_release(&bracket);
	for (cpu = 0; !ret && cpu < w->cpus; cpu++) {
		const struct dat_cpu_source *c = find_cpu(b, cpu);

		ret = write_cpu(w, c, page_size, &pair[0]);
		pair[1] = c ? c->size : 0;
		if (!ret && pair[1])
			ret = dat_w_patch(w, table + 16 * (uint64_t)cpu, pair, sizeof(pair));
	}
	return ret;
}

static int write_buffers_v6(struct dat_writer *w, const struct dat_buffer_source *bufs, int nr)
{
	const struct dat_buffer_source *top = nr && !bufs[0].name[0] ? &bufs[0] : NULL;
	int first = top ? 1 : 0;
	int *opt_index, ret = 0, i;

	opt_index = calloc((size_t)nr + 1, sizeof(*opt_index));
	if (!opt_index)
		return -ENOMEM;
	ret = dat_w_put32(w, (uint32_t)w->cpus);
	/* An instance's BUFFER option holds where its flyrecord starts, patched below. */
	for (i = first; !ret && i < nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		uint64_t zero = 0;

		ret = strbuf_add(&sb, &zero, 8);
		if (!ret)
			ret = strbuf_add(&sb, bufs[i].name, strlen(bufs[i].name) + 1);
		if (!ret)
			ret = opt_index[i] = dat_w_option_add(w, DAT_OPT_BUFFER, sb.buf,
							      (uint32_t)sb.len);
		ret = ret < 0 ? ret : 0;
		strbuf_release(&sb);
	}
	if (!ret)
		ret = dat_w_options_v6(w);
	if (!ret)
		ret = write_flyrecord_v6(w, top, nr ? bufs[0].clock : "local");
	for (i = first; !ret && i < nr; i++) {
		uint64_t here = w->off;

		ret = dat_w_patch(w, w->opts[opt_index[i]].data_offset, &here, sizeof(here));
		if (!ret)
			ret = write_flyrecord_v6(w, &bufs[i], bufs[i].clock);
	}
	free(opt_index);
	return ret;
}

int dat_writer_buffers(struct dat_writer *w, const struct dat_buffer_source *bufs, int nr,
		       struct strbuf *err)
{
	int ret = 0, i;

	if (w->version < 7) {
		ret = write_buffers_v6(w, bufs, nr);
	} else {
		/* Everything queued so far (clock, uname, stats...) goes before the data. */
		ret = dat_w_options_section(w);
		for (i = 0; !ret && i < nr; i++)
			ret = write_buffer_v7(w, &bufs[i]);
	}
	if (ret && err)
		strbuf_addf(err, "writing the trace data: %s", strerror(-ret));
	return ret;
}
